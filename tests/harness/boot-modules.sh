#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build kunwind.ko and the sample module for a kernel to boot in QEMU
# (tests/harness/death-boot.sh, profile-boot.sh, gdb-boot.sh,
# tests/unwinder.test):
#
#	tests/harness/boot-modules.sh test|debug|unwinder|bench-* DIR
#	tests/harness/boot-modules.sh STOCK-KERNEL
#	tests/harness/boot-modules.sh --kernel-dir test|debug|unwinder|bench-*
#
# KERNEL:
#	test	the self-built test kernel (tests/harness/test-kernel.sh)
#	debug	the same kernel with tests/harness/test-kernel-debug.config on top
#		(lockdep, kmemleak, debug objects, a preemptible kernel)
#	unwinder the test kernel with kunwind as its own unwinder
#		(tests/harness/unwinder-kernel.sh): kunwind.ko is built
#		without a vmlinux table of its own and registers the
#		kernel's (unwind/linux/compat.h)
#	bench-fp, bench-orc, bench-kunwind  the benchmark kernels of
#		bench/kernels-bench.sh (unwinder-kernel.sh KIND); kunwind.ko
#		as for test, or, on bench-kunwind, as for unwinder
#	6.1, 6.12 or a full release: a stock Debian kernel, as
#		tests/harness/stock-boot.sh takes it
#
# test and debug: kunwind.ko, with the kernel's vmlinux table
# (KUNWIND_VMLINUX=<build dir>/vmlinux; unwinder: the kernel's own), and
# sample/kunwind_sample.ko are
# built in DIR/src, a copy of the module sources mirrored by content as
# tests/harness/kunit-run.sh does (an unchanged tree rebuilds nothing); the log
# is DIR/build.log.  The caller serialises users of DIR.  A stock kernel:
# "tests/harness/stock-boot.sh --no-boot KVER" builds both in its own output
# directory's src/ (with the vmlinux table when KUNWIND_STOCK_VMLINUX
# names a vmlinux or the -dbg package is installed: see stock-boot.sh).
#
# The debug kernel's fragment is composed here, as test-kernel.sh takes
# one fragment (KUNWIND_KCONFIG): test-kernel.config without the lines
# whose option test-kernel-debug.config sets, then test-kernel-debug.config,
# into $O/kernel/test-kernel+debug.config (build/ without O).  Its build
# directory is its own (test-kernel.sh's hash covers the composed lines);
# the default test kernel's stays as it was.
#
# Last line of stdout: "BZIMAGE SRC", SRC the directory holding kunwind.ko
# and sample/kunwind_sample.ko; with --kernel-dir, only the kernel is
# built and its build directory printed.  Messages go to stderr.  Exit
# status 1 on any failure.
set -euo pipefail

who='boot-modules'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

kdir_only=0
if [ "${1:-}" = --kernel-dir ]; then
	kdir_only=1
	shift
	[ $# = 1 ] || die "usage: $0 --kernel-dir test|debug|unwinder"
fi
case "${1:-}:$#:$kdir_only" in
test:2:0 | debug:2:0 | unwinder:2:0 | bench-*:2:0 | *:1:1) ;;
test:*:0 | debug:*:0 | unwinder:*:0 | bench-*:*:0) die "usage: $0 $1 DIR" ;;
?*:1:0) ;;
*) die "usage: $0 KERNEL [DIR] (KERNEL: test, debug, unwinder, 6.1, 6.12, a release)" ;;
esac
kernel=$1
dir=${2:-}

# O: the build directory, as for the top Makefile (relative to the top).
harness_objdir

# The debug fragment: the base's lines but those the debug fragment
# overrides (the same option set or unset), then the debug fragment's.
compose_debug() {
	local base=$top/tests/harness/test-kernel.config
	local extra=$top/tests/harness/test-kernel-debug.config
	local out=$objdir/kernel/test-kernel+debug.config
	mkdir -p "$(dirname "$out")"
	{
		echo "# Composed by tests/harness/boot-modules.sh from" \
			"test-kernel.config and test-kernel-debug.config."
		awk 'function opt(line) {
			if (match(line, /^CONFIG_[A-Za-z0-9_]+=/))
				return substr(line, 1, RLENGTH - 1)
			if (line ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/)
				return substr(line, 3, index(line, " is") - 3)
			return ""
		}
		FNR == NR { if (opt($0) != "") over[opt($0)] = 1; next }
		!(opt($0) in over) { print }' "$extra" "$base"
		cat "$extra"
	} >"$out.tmp.$$"
	mv "$out.tmp.$$" "$out"
	echo "$out"
}

case "$kernel" in
test | debug | unwinder | bench-fp | bench-orc | bench-kunwind)
	t0=$(now)
	frag=
	[ "$kernel" = debug ] && frag=$(compose_debug)
	if [ "$kernel" != test ] && [ "$kernel" != debug ]; then
		kdir=$("$top/tests/harness/unwinder-kernel.sh" "$kernel" | tail -n1) ||
			die "no $kernel kernel (tests/harness/unwinder-kernel.sh failed)"
		vmlinux_table=KUNWIND_VMLINUX=$kdir/vmlinux
		case "$kernel" in
		unwinder | bench-kunwind) vmlinux_table= ;;
		esac
	else
		kdir=$(KUNWIND_KCONFIG=${frag:-${KUNWIND_KCONFIG:-}} \
			"$top/tests/harness/test-kernel.sh" | tail -n1) ||
			die "no $kernel kernel (tests/harness/test-kernel.sh failed)"
		vmlinux_table=KUNWIND_VMLINUX=$kdir/vmlinux
	fi
	bzimage=$kdir/arch/x86/boot/bzImage
	if [ ! -f "$bzimage" ] || [ ! -f "$kdir/vmlinux" ]; then
		die "$kernel kernel build dir $kdir lacks vmlinux or bzImage"
	fi
	if [ "$kdir_only" = 1 ]; then
		echo "$kdir"
		exit 0
	fi
	src=$dir/src
	mkdir -p "$src"
	log=$dir/build.log
	: >"$log"
	harness_gen "$log"
	harness_mirror "$src" ./Kbuild ./Kconfig ./scripts/kunwind.mk ./unwind \
		./prof ./sample
	kmake() {
		echo "+ make -C $kdir $*" >>"$log"
		make -C "$kdir" -j"$(nproc)" KUNWIND_GEN="$gen" \
			"$@" >>"$log" 2>&1
	}
	# shellcheck disable=SC2086 # no word or one
	if ! kmake M="$src" $vmlinux_table modules ||
	   ! kmake M="$src/sample" modules; then
		tail -n 40 "$log" >&2
		die "$kernel: module build failed (log: $log)"
	fi
	say "$kernel: modules built in $(secs "$t0" "$(now)") s (log: $log)"
	;;
*)
	[ "$kdir_only" = 0 ] || die "--kernel-dir: test, debug, unwinder or bench-* only"
	rel=$("$top/tests/harness/stock-boot.sh" --release "$kernel" | tail -n1) ||
		die "tests/harness/stock-boot.sh --release $kernel failed"
	stock=$("$top/tests/harness/stock-boot.sh" --no-boot "$kernel" | tail -n1) ||
		die "tests/harness/stock-boot.sh --no-boot $kernel failed"
	bzimage=/boot/vmlinuz-$rel
	src=$stock/src
	;;
esac
for f in "$src/kunwind.ko" "$src/prof/kunwind_prof.ko" \
	"$src/sample/kunwind_sample.ko" "$bzimage"; do
	[ -f "$f" ] || die "no $f after the build"
done
echo "$bzimage $src"
