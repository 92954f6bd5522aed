#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Kill a kernel in QEMU in each of the sample module's ways (sample/deaths.c, the
# die parameter), one boot per death, and keep each console:
#
#	tests/harness/death-boot.sh [--timeout S] [--append ARGS --tag TAG] KERNEL KIND...
#
# KERNEL: "test", the self-built test kernel (tests/harness/test-kernel.sh),
# "debug" (the same with lockdep and kmemleak, tests/harness/boot-modules.sh), or
# a stock Debian kernel as tests/harness/stock-boot.sh takes it: 6.1, 6.12 or a
# full release.  KIND: kthread-null null-call bug asm noreturn tasklet
# hrtimer sort idr panic stack-overflow, or "all" for each of them in that
# order.
#
# Build once (tests/harness/boot-modules.sh): for the test kernel, kunwind.ko
# (with the vmlinux table, KUNWIND_VMLINUX=<build dir>/vmlinux) and
# sample/kunwind_sample.ko in a copy of the sources at
# build/death/test/src (build/death/debug/src), as tests/harness/kunit-run.sh
# does; for a stock kernel, "tests/harness/stock-boot.sh --no-boot KVER" builds
# both in its output directory's src/ (with the vmlinux table of
# KUNWIND_STOCK_VMLINUX, or else of the -dbg vmlinux stock-boot.sh gets
# from tests/harness/stock-vmlinux.sh, whose failure fails the build; without
# one only with KUNWIND_STOCK_VMLINUX=no or when apt has no -dbg package).  Then, per KIND,
# an initramfs (tests/harness/mkinitramfs.sh) that insmods kunwind.ko and
# kunwind_sample.ko with points=0 (no point runs) and whose test.sh
# writes KIND to /sys/module/kunwind_sample/parameters/die; if the kernel
# is still alive 5 s later, test.sh exits 1.  The command line adds
# "kunwind_sample.points=0 oops=panic panic=-1 loglevel=7" to
# tests/harness/qemu-run.sh's (console=ttyS0 panic=-1, and QEMU -no-reboot):
# oops=panic makes every death a panic, and the panic ends QEMU at once.
# --append ARGS adds more, such as kunwind.oops=0 (mkinitramfs.sh's /init
# passes MODULE.PARAM= options to insmod); its boots go to DIR/KIND-TAG
# instead of DIR/KIND.
#
# Outputs, per KIND: DIR/KIND/{test.sh,initrd.cpio.gz,console.log,
# qemu.err}, where DIR is build/death/test for the test kernel (debug:
# build/death/debug) and
# <stock-boot.sh's output dir>/death for a stock one (build/ is $O when O
# is set, as for the top Makefile); DIR/build.log for the test kernel's
# build.  stdout: one line per KIND, as its boot ends,
#	KIND STATUS CONSOLE-LOG
# STATUS:
#	died		QEMU ended by a kernel panic, after the sample's
#			"kunwind-sample: die KIND"
#	survived	no panic, and the initramfs reported its end (test.sh
#			ran on after the write)
#	error:WHY	timeout (QEMU killed after S seconds, default 300);
#			no-panic (QEMU ended with neither a panic nor the
#			initramfs's end: a triple fault resets the machine,
#			which -no-reboot ends); panic-before-die (a panic
#			without the die line: the boot went wrong before the
#			death); qemu-status-N (QEMU's own failure)
# Messages go to stderr, with each boot's time.
#
# Measured (2 cores, QEMU TCG, `time tests/harness/death-boot.sh K all`, the
# modules already built once): a boot from QEMU's start to the panic
# takes 2.4-3.3 s on the test kernel, 3.6-5.4 s on 6.12 and 5.8-8.1 s
# on 6.1; with the initramfs (about 1 s) and the build, "all" takes 36 s
# (test), 56 s (6.12) and 74 s (6.1).
#
# Exit status: 0 when every KIND died, 1 otherwise (or on a usage or
# build error).
set -euo pipefail

who='death-boot'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

# sample/deaths.c's ksample_deaths[], in its order.
all_kinds="kthread-null null-call bug asm noreturn tasklet hrtimer sort idr panic stack-overflow"

timeout=300 append='' tag=''
while [ $# -gt 0 ]; do
	case "$1" in
	--timeout) [ $# -ge 2 ] || die "--timeout wants seconds"
		timeout=$2; shift 2 ;;
	--append) [ $# -ge 2 ] || die "--append wants kernel arguments"
		append=$2; shift 2 ;;
	--tag) [ $# -ge 2 ] || die "--tag wants a name"
		tag=$2; shift 2 ;;
	-*) die "unknown option $1 (see the header of $0)" ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || die "usage: $0 [--timeout S] KERNEL KIND... (KERNEL: test, 6.1, 6.12, a release; KIND: $all_kinds, all)"
case "$timeout" in
'' | *[!0-9]*) die "--timeout wants whole seconds" ;;
esac
case "$tag" in
*[!a-z0-9_-]*) die "--tag wants [a-z0-9_-]" ;;
esac
[ -z "$append" ] || [ -n "$tag" ] ||
	die "--append needs a --tag (its boots' directory)"
kernel=$1
shift
kinds=
for k in "$@"; do
	if [ "$k" = all ]; then
		kinds="$kinds $all_kinds"
		continue
	fi
	case " $all_kinds " in
	*" $k "*) kinds="$kinds $k" ;;
	*) die "unknown KIND $k (one of: $all_kinds, all)" ;;
	esac
done

# O: the build directory, as for the top Makefile (relative to the top).
harness_objdir

t0=$(now)
# The modules (tests/harness/boot-modules.sh): built in DIR/src for the test
# (or debug) kernel; in stock-boot.sh's output directory's src/ for a
# stock one, whose deaths go to <that directory>/death.
case "$kernel" in
test | debug) out=$objdir/death/$kernel ;;
*) out= ;;
esac
if [ -n "$out" ]; then
	harness_lock "$out"
fi
harness_modules "$kernel" ${out:+"$out"}
if [ -z "$out" ]; then
	out=$(dirname "$src")/death
	harness_lock "$out"
fi

# One boot per KIND.  Its status (lib.sh's harness_boot_status): a panic
# is a death, after the sample's "die KIND" line; an initramfs that said
# it was done (test.sh's exit 1 after 5 s alive: a non-zero status) means
# the kernel survived; one that never said so and did not panic, an error.
# Up to KUNWIND_BOOT_JOBS boots at once (default: the number of CPUs;
# under TCG a boot to /init keeps about one CPU busy), each in its own
# directory; the result lines come in KIND order all the same.
# boot_kind KIND DIR: the boot, its result line into DIR/result.
boot_kind() {
	local kind=$1 d=$2 console start qrc status
	cat >"$d/test.sh" <<EOF
#!/bin/sh
# tests/harness/death-boot.sh: die $kind.  The kernel should not come back.
# Silent until then: a line of ours would land inside the oops report.
echo $kind >/sys/module/kunwind_sample/parameters/die
rc=\$?
sleep 5
echo "death-boot: still alive 5 s after die $kind (the write returned \$rc)"
exit 1
EOF
	chmod +x "$d/test.sh"
	"$top/tests/harness/mkinitramfs.sh" "$d/initrd.cpio.gz" "$src/kunwind.ko" \
		"$src/sample/kunwind_sample.ko" "$d/test.sh" >&2
	console=$d/console.log
	start=$(now)
	# Three boots at most: one that ended before /init is not a result
	# (lib.sh's harness_boot), kept as console.log.early-N.
	harness_boot 3 "$console" "$d/qemu.err" --kernel "$bzimage" \
		--initrd "$d/initrd.cpio.gz" --timeout "$timeout" \
		--append "kunwind_sample.points=0 oops=panic panic=-1 loglevel=7${append:+ $append}" ||
		true
	qrc=$boot_rc
	case "$boot_status" in
	ok | init-failed) status=survived ;;
	no-init-done) status=error:no-panic ;;
	panic)
		if grep -qE "(^|\] )kunwind-sample: die $kind\$" "$console"; then
			status=died
		else
			status=error:panic-before-die
		fi
		;;
	timeout) status=error:timeout ;;
	*) status=error:qemu-status-$qrc ;;
	esac
	say "$kernel: $kind: $status in $(secs "$start" "$(now)") s (QEMU status $qrc)"
	echo "$kind $status $console" >"$d/result"
}

boot_jobs=${KUNWIND_BOOT_JOBS:-$(nproc)}
rc=0
for kind in $kinds; do
	d=$out/$kind${tag:+-$tag}
	mkdir -p "$d"
	rm -f "$d/result"
	while [ "$(jobs -pr | wc -l)" -ge "$boot_jobs" ]; do
		wait -n || true
	done
	boot_kind "$kind" "$d" &
done
wait
for kind in $kinds; do
	d=$out/$kind${tag:+-$tag}
	if [ ! -s "$d/result" ]; then
		echo "$kind error:no-result $d/console.log"
		rc=1
		continue
	fi
	cat "$d/result"
	read -r _ status _ <"$d/result"
	[ "$status" = died ] || rc=1
done
say "$kernel: done in $(secs "$t0" "$(now)") s"
exit "$rc"
