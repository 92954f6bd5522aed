#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run kunwind's KUnit suites (kunit/) on the 6.12 test kernel in QEMU:
#
#	tests/harness/kunit-run.sh		build, boot, report
#	tests/harness/kunit-run.sh --build	build only; the last line of stdout is
#					the directory holding kunwind.ko and
#					kunit/*.ko (bench/kernel-bench.sh)
#	tests/harness/kunit-run.sh --kernel builtin [--build]
#					the same on the kernel with kunwind
#					built in (see the end)
#
# 1. tests/harness/test-kernel.sh gives the test kernel's build dir (built once,
#    cached in ~/.cache/kunwind).
# 2. The module sources (Kbuild, Kconfig, scripts/kunwind.mk, unwind/,
#    kunit/) are mirrored to $OUT/src, so the tree stays clean, and built
#    there against the test kernel: kunwind.ko with the vmlinux table
#    (KUNWIND_VMLINUX), then kunit/ with every module's table embedded by
#    the one-line opt-in.  kunwind_test_badtable.ko's table is then
#    corrupted (its magic), for the registry suite.
# 3. A busybox initramfs insmods kunwind_test_early.ko (when kunit/
#    builds it), kunwind.ko, runs graph-setup.sh (function_graph on the
#    early module's kt_traced_* functions; only with that module), then
#    insmods kunwind_test.ko (whose suites run at insmod); the helper
#    modules go to /lib/kunwind for the registry suite to insmod/rmmod.
#    QEMU TCG boots it (-smp 2).
# 4. tests/harness/kunit-report.py: each module's KTAP (the console between its
#    "insmod" and the next init line: the built-in empty run prints a
#    KTAP header of its own first) goes to the kernel's own parser,
#    tools/testing/kunit/kunit.py parse --json.  One line a case:
#	ok kunit_<suite>.<case>[.<param>]	not ok ... (with its diagnostics)
#	ok kunit_<...> # SKIP <reason>		a case KUnit skipped
#    then kunit_expected_cases_ran: every case of every suite in kunit/*.c
#    (derived from the sources at run time) has a result; and, from the
#    console: no panic/oops/WARN/BUG and no kunwind line but those in
#    KUNWIND_ALLOWED (kunit-report.py), the corrupt table refused with
#    exactly one message, graph-setup.sh done, QEMU and the init script
#    clean (qemu-run.sh 0: the init reported "done status=0").
# 5. Once more, degraded: kunwind.unavailable= takes the tracers' helpers
#    away (as on an IBT kernel that sealed them) and only kunwind_tracer
#    runs (kunit.filter_glob): lines "kunit_degraded_<suite>.<case>".
#
# --kernel builtin (tests/builtin.test): the kernel of
# tests/harness/builtin-kernel.sh, kunwind built in (CONFIG_KUNWIND=y) and the
# suites' modules built in tree with it (lib/kunwind/kunit/*.ko, each
# with its table); nothing is built here and no kunwind.ko is loaded.
# The sources the report reads are the built ones (the view's
# lib/kunwind/kunit).  Lines "builtin_kunit_<...>" and
# "builtin_kunit_degraded_<...>", and builtin_kunit_exactly_the_expected_
# cases_ran: every case ran but those that cannot apply to a built-in
# kunwind, which the sources leave out of its build (#if
# !IS_BUILTIN(CONFIG_KUNWIND)) and which are listed here (builtin_left_out):
# no vmlinux table (registry_vmlinux_table_registered; the build has
# registry_builtin_kernel_frames_use_the_orc_fallback instead), no module
# loaded before kunwind (registry_module_loaded_before_kunwind_walked_
# by_its_table).  kunwind_test_early.ko is still loaded first: the
# tracer suite's functions are in it.  Output in build/kunit-builtin.
#
# Exit status 0 iff no line is "not ok".
# Environment: KUNWIND_KUNIT_OUT (default build/kunit, with --kernel
# builtin build/kunit-builtin), KUNWIND_KUNIT_TIMEOUT
# (QEMU, seconds, default 600), KUNWIND_JOBS (make -j).  One run at a time
# per output directory (flock).
set -euo pipefail

who='kunit-run'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
here=$harness
root=$top
timeout=${KUNWIND_KUNIT_TIMEOUT:-600}
jobs=${KUNWIND_JOBS:-$(nproc)}
build_only=0
kernel="test"
while [ $# -gt 0 ]; do
	case "$1" in
	--build) build_only=1; shift ;;
	--kernel) kernel=${2:-}; shift 2 || break ;;
	*) kernel="?$1"; break ;;
	esac
done
# The report's names: kunit_<...> on the test kernel.
name=kunit
[ "$kernel" = builtin ] && name=builtin_kunit
builtin_left_out="kunwind_registry.registry_vmlinux_table_registered
	kunwind_registry.registry_module_loaded_before_kunwind_walked_by_its_table"

# Its messages are TAP comments and its errors results, on stdout: this
# script is a test, not a helper of one (lib.sh's say and die replaced).
say() { echo "# kunit-run: $*"; }
die() { echo "not ok ${name}_run: $*"; exit 1; }
case "$kernel" in
test) out=${KUNWIND_KUNIT_OUT:-$root/build/kunit} ;;
builtin) out=${KUNWIND_KUNIT_OUT:-$root/build/kunit-builtin} ;;
*) die "usage: $0 [--kernel test|builtin] [--build]" ;;
esac
harness_lock "$out"
# Boots (lib.sh's harness_boot): one that ended before /init is booted
# again, but with kunwind built in the suites run before /init: there
# such a boot may be a result, and is not retried.
tries=3
[ "$kernel" = builtin ] && tries=1

t0=$(now)
if [ "$kernel" = builtin ]; then
	kdir=$("$here/builtin-kernel.sh" | tail -n1) ||
		die "no kernel with kunwind built in (tests/harness/builtin-kernel.sh failed)"
else
	kdir=$("$here/test-kernel.sh" | tail -n1) ||
		die "no test kernel (tests/harness/test-kernel.sh failed)"
fi
[ -f "$kdir/vmlinux" ] && [ -f "$kdir/arch/x86/boot/bzImage" ] ||
	die "$kernel kernel build dir $kdir lacks vmlinux or bzImage"
ksrc=$(readlink -f "$kdir/source")
kunitpy=$ksrc/tools/testing/kunit/kunit.py
[ -f "$kunitpy" ] || die "no $kunitpy"

# The suites' modules: mods has kunit/*.ko, kunwind_ko is kunwind.ko (none
# built in), kunit_src the sources the report reads, built what --build
# prints; vmlinux_table and vmlinux_map what the suites' oracle reads
# (none built in: no vmlinux table).
vmlinux_table='' vmlinux_map=''

modules_builtin() {
	# Built with the kernel, from the view's copy of this tree.
	built=$kdir/lib/kunwind/kunit
	mods=$built
	kunit_src=$ksrc/lib/kunwind/kunit
	kunwind_ko=
	for m in kunwind_test kunwind_test_helper kunwind_test_badtable \
		 kunwind_test_early; do
		[ -f "$mods/$m.ko" ] || die "no $mods/$m.ko"
	done
	say "kernel and modules, kunwind built in, in $(secs "$t0" "$(now)") s ($kdir)"
}

modules_test() {
	# The host generator, built by the top Makefile.
	harness_objdir
	mkdir -p "$out"
	harness_gen "$out/gen.log"

	# Mirrored by content; the build products of the last run kept, so
	# that an unchanged tree rebuilds nothing.
	harness_mirror "$out/src" ./Kbuild ./Kconfig ./scripts/kunwind.mk \
		./unwind ./prof ./kunit $(test -d sample && echo ./sample)

	log=$out/build.log
	: >"$log"
	kmake() {
		echo "+ make -C $kdir $*" >>"$log"
		make -C "$kdir" -j"$jobs" KUNWIND_GEN="$gen" "$@" >>"$log" 2>&1
	}
	if ! kmake M="$out/src" KUNWIND_VMLINUX="$kdir/vmlinux" modules ||
	   ! kmake M="$out/src/kunit" \
		KBUILD_EXTRA_SYMBOLS="$out/src/Module.symvers" modules; then
		tail -n 40 "$log" | sed 's/^/# /'
		die "module build failed (log: $log)"
	fi
	grep -E 'warning:|WARNING:' "$log" | sort -u | sed 's/^/# build: /' || true
	say "modules built in $(secs "$t0" "$(now)") s (log: $log)"
	built=$out/src
	mods=$out/src/kunit
	kunit_src=$out/src/kunit
	kunwind_ko=$out/src/kunwind.ko
	# The suites' oracle (kunit/oracle.c) reads vmlinux's table from this
	# file, not through kunwind.ko's registry, and places it by the
	# link-time addresses of two exported functions.
	vmlinux_table=$out/src/unwind/linux/vmlinux.kunwind
	[ -s "$vmlinux_table" ] || die "no vmlinux table $vmlinux_table"
	vmlinux_map=$out/vmlinux.map
	grep -E '^[0-9a-f]{16} [Tt] (sprint_symbol|msleep)$' "$kdir/System.map" \
		>"$vmlinux_map" || true
	[ "$(wc -l <"$vmlinux_map")" = 2 ] ||
		die "sprint_symbol and msleep not found once each in $kdir/System.map"
}

case "$kernel" in
builtin) modules_builtin ;;
*) modules_test ;;
esac
if [ "$build_only" = 1 ]; then
	echo "$built"
	exit 0
fi
t1=$(now)

# The bad table: the copy's .kunwind magic becomes "BAD!".
mkdir -p "$out/bad"
"$here/bad-table.py" "$mods/kunwind_test_badtable.ko" \
	"$out/bad/kunwind_test_badtable.ko" || die "could not corrupt the bad table"

# The initramfs, in this order: kunwind_test_early.ko (if built: a module
# with a table loaded before kunwind.ko, which must register it when it
# loads), kunwind.ko, graph-setup.sh (with kunwind_test_early.ko: the
# function_graph tracer on its kt_traced_* functions), kunwind_test.ko
# (its suites run at insmod); the helper modules go to /lib/kunwind.
early=$mods/kunwind_test_early.ko
graph=
if [ -f "$early" ]; then
	graph=$here/graph-setup.sh
fi
"$here/mkinitramfs.sh" "$out/initramfs.cpio.gz" \
	${graph:+"$early"} ${kunwind_ko:+"$kunwind_ko"} ${graph:+"$graph"} \
	"$mods/kunwind_test.ko" \
	"$mods/kunwind_test_helper.ko:/lib/kunwind/kunwind_test_helper.ko" \
	"$out/bad/kunwind_test_badtable.ko:/lib/kunwind/kunwind_test_badtable.ko" \
	${vmlinux_table:+"$vmlinux_table:/lib/kunwind/vmlinux.kunwind"} \
	${vmlinux_map:+"$vmlinux_map:/lib/kunwind/vmlinux.map"} \
	>&2 || die "mkinitramfs failed"

console=$out/console.log
qrc=0
harness_boot "$tries" "$console" "$out/qemu.err" \
	--kernel "$kdir/arch/x86/boot/bzImage" \
	--initrd "$out/initramfs.cpio.gz" --append "kunit.enable=1 nmi_watchdog=0" \
	--timeout "$timeout" || qrc=$?
t2=$(now)
say "QEMU boot and tests in $(secs "$t1" "$t2") s, exit $qrc (console: $console)"

rc=0
if [ "$kernel" = builtin ]; then
	KUNIT_REPORT_LEFT_OUT=$(printf '%s\n' "$builtin_left_out" | xargs)
	export KUNIT_REPORT_LEFT_OUT
fi
KUNIT_REPORT_NAME=$name \
	python3 "$here/kunit-report.py" "$console" "$kunitpy" "$out" "$qrc" \
	"$kunit_src" "$kdir/.config" || rc=1
unset KUNIT_REPORT_LEFT_OUT

# The degraded boot: kunwind.ko told that the tracers' helpers cannot be
# called (as where IBT sealed them); the tracer suite must then see ORC
# step over every trampoline, counted.  mkinitramfs.sh's /init passes
# the kunwind.* options to insmod, as modprobe would.
unavailable="ftrace_graph_ret_addr rethook_find_ret_addr"
degraded=$out/degraded
mkdir -p "$degraded"
qrc=0
harness_boot "$tries" "$degraded/console.log" "$degraded/qemu.err" \
	--kernel "$kdir/arch/x86/boot/bzImage" \
	--initrd "$out/initramfs.cpio.gz" --timeout "$timeout" \
	--append "kunit.enable=1 kunit.filter_glob=kunwind_tracer.* kunwind.unavailable=$(echo $unavailable | tr ' ' ,)" ||
	qrc=$?
say "degraded boot (kunwind.unavailable=$unavailable): exit $qrc (console: $degraded/console.log)"
KUNIT_REPORT_NAME=${name}_degraded KUNIT_REPORT_SUITES=kunwind_tracer \
KUNIT_REPORT_UNAVAILABLE="$unavailable" \
	python3 "$here/kunit-report.py" "$degraded/console.log" "$kunitpy" \
	"$degraded" "$qrc" "$kunit_src" "$kdir/.config" || rc=1
exit $rc
