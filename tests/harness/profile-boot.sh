#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel in QEMU with kunwind.ko loaded and run a test script in
# it, with the sample module at hand (for kunwind's profiler, debugfs
# kunwind/profile/: tests/profile.test):
#
#	tests/harness/profile-boot.sh [--timeout S] [--append ARGS] KERNEL TEST.sh
#
# KERNEL: "test" (tests/harness/test-kernel.sh), "debug" (the test kernel with
# lockdep, kmemleak and debug objects: tests/harness/test-kernel-debug.config),
# or a stock Debian kernel as tests/harness/stock-boot.sh takes it: 6.1, 6.12 or
# a full release; or "arm64", the arm64 test kernel (KUNWIND_ARCH=arm64
# tests/harness/test-kernel.sh), whose modules tests/harness/arm64-modules.sh
# cross-builds and whose initramfs is tests/harness/arm64-initramfs.sh's.
# tests/harness/boot-modules.sh builds kunwind.ko (with the
# kernel's vmlinux table: the build dir's vmlinux for test and debug, a
# stock kernel's as stock-boot.sh finds it, KUNWIND_STOCK_VMLINUX) and
# kunwind_sample.ko.
#
# The initramfs (tests/harness/mkinitramfs.sh) insmods kunwind.ko at boot, then
# runs TEST.sh as /test.sh; kunwind_sample.ko is not loaded but lies in
# /lib/kunwind/kunwind_sample.ko for TEST.sh to insmod and rmmod, as often
# as it likes.  QEMU as tests/harness/qemu-run.sh runs it (TCG, -smp 2, 1 GB),
# with "loglevel=7" and --append ARGS on the kernel command line
# (mkinitramfs.sh's /init passes kunwind.PARAM= options to insmod).
#
# Outputs in DIR/NAME/, NAME being TEST.sh's name without ".sh" and DIR
# build/profile/KERNEL (build/ is $O when O is set, as for the top
# Makefile): test.sh, initrd.cpio.gz, console.log, qemu.err; the modules
# of test and debug are built in DIR/src (log: DIR/build.log), a stock
# kernel's in stock-boot.sh's directory.  One run at a time per KERNEL
# (flock DIR/lock).
#
# The last line of stdout is the console log's path (also after a failed
# boot; not after a build error).  Exit status, as tests/harness/stock-boot.sh's:
# 0 when the boot went through (the initramfs reported "kunwind-init: done
# status=0": kunwind.ko loaded and TEST.sh exited 0); otherwise
# tests/harness/qemu-run.sh's: 2 a kernel panic, a failed insmod or TEST.sh's
# non-zero exit, 3 the initramfs never reported its end, 124 timeout
# (default 300 s); 1 on a usage or build error.
#
# Measured (2 cores, TCG, modules up to date): /init runs 3.6-5 s after
# QEMU starts on the debug kernel, 1.2 s on the test kernel; the build
# and initramfs add 2-7 s.  tests/profile.mk has the stress run's times.
set -euo pipefail

who='profile-boot'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

timeout=300 append=''
while [ $# -gt 0 ]; do
	case "$1" in
	--timeout) [ $# -ge 2 ] || die "--timeout wants seconds"
		timeout=$2; shift 2 ;;
	--append) [ $# -ge 2 ] || die "--append wants kernel arguments"
		append=$2; shift 2 ;;
	-*) die "unknown option $1 (see the header of $0)" ;;
	*) break ;;
	esac
done
[ $# = 2 ] ||
	die "usage: $0 [--timeout S] [--append ARGS] KERNEL TEST.sh (KERNEL: test, debug, 6.1, 6.12, a release)"
case "$timeout" in
'' | *[!0-9]*) die "--timeout wants whole seconds" ;;
esac
kernel=$1 script=$2
[ -f "$script" ] || die "no such file: $script"
case "$kernel" in
*[!A-Za-z0-9._+-]* | '') die "bad KERNEL '$kernel'" ;;
esac
name=$(basename "$script" .sh)

# O: the build directory, as for the top Makefile (relative to the top).
harness_objdir
dir=$objdir/profile/$kernel
mkdir -p "$dir/$name"
harness_lock "$dir"

t0=$(now)
mkinitramfs=$top/tests/harness/mkinitramfs.sh
case "$kernel" in
test | debug) harness_modules "$kernel" "$dir" ;;
arm64)	# cross-built (tests/harness/arm64-modules.sh), busybox:arm64
	src=$("$harness/arm64-modules.sh" | tail -n1) ||
		die "the arm64 modules did not build"
	kdir=$(KUNWIND_ARCH=arm64 "$harness/test-kernel.sh" | tail -n1) ||
		die "no arm64 test kernel"
	bzimage=$kdir/arch/arm64/boot/Image
	mkinitramfs=$harness/arm64-initramfs.sh
	export KUNWIND_QEMU_ARCH=arm64 ;;
*) harness_modules "$kernel" ;;
esac

d=$dir/$name
cp "$script" "$d/test.sh"
chmod +x "$d/test.sh"
"$mkinitramfs" "$d/initrd.cpio.gz" "$src/kunwind.ko" \
	"$src/prof/kunwind_prof.ko" \
	"$src/sample/kunwind_sample.ko:/lib/kunwind/kunwind_sample.ko" \
	"$d/test.sh" >&2 || die "mkinitramfs failed"

console=$d/console.log
start=$(now)
say "$kernel: booting $bzimage with $script (console: $console)"
rc=0
harness_boot 3 "$console" "$d/qemu.err" --kernel "$bzimage" \
	--initrd "$d/initrd.cpio.gz" --timeout "$timeout" \
	--append "loglevel=7${append:+ $append}" || rc=$?
say "$kernel: $name: QEMU status $rc after $(secs "$start" "$(now)") s" \
	"($(secs "$t0" "$(now)") s with the build)"
[ "$rc" = 0 ] || sed 's/^/profile-boot: /' "$d/qemu.err" >&2
echo "$console"
exit "$rc"
