#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel + initramfs in QEMU with the serial console on stdout:
#
#	tests/harness/qemu-run.sh --kernel BZIMAGE --initrd CPIO [--append "ARGS"]
#		[--timeout S] [--log FILE] [--smp N] [--any-init] [-- QEMU-ARGS...]
#
# The console log goes to stdout (carriage returns stripped) and, with
# --log, to FILE.  --smp N: N vCPUs (default 2).  QEMU runs with -no-reboot and panic=-1, so a reboot, a
# poweroff and a panic all end it.  Exit status:
#	0	QEMU exited, no kernel panic, and the initramfs (mkinitramfs.sh)
#		reported "kunwind-init: done status=0"
#	2	kernel panic, or the initramfs reported a non-zero status
#	3	the initramfs never reported "kunwind-init: done status=N":
#		its /init died, hung up or was cut short, so nothing after
#		that point ran (with --any-init, for an initramfs that is not
#		mkinitramfs.sh's, 0 instead)
#	124	timeout (default 300 s): QEMU was killed
#	other	QEMU's own failure
# A panic must be caught from the log: with -no-reboot QEMU exits 0 on it.
#
# no_timer_check: the kernel's boot-time check that the IO-APIC delivers
# the timer counts ticks over a fixed busy loop; under TCG on a loaded
# host (load 15 on 2 CPUs while kernels build) the ticks come too late
# and the kernel panics "IO-APIC + timer doesn't work!" before init
# (seen in a KUnit boot, 2026-11-27).  Virtual machines skip the check
# (KVM guests set it themselves); so do these boots.
#
# KVM is used only when /dev/kvm is usable and the CPU has vmx/svm; on the
# project's machines it has neither and -enable-kvm hangs, so this is TCG.
# KUNWIND_QEMU_ACCEL=tcg|kvm and KUNWIND_QEMU_CPU override the choice.
# KUNWIND_QEMU (default qemu-system-x86_64) is the emulator to run: a
# stand-in that prints a console lets tests/scripts.test check the exit
# statuses without booting.
#
# KUNWIND_QEMU_ARCH=arm64 boots an arm64 kernel (KUNWIND_ARCH=arm64 test-kernel.sh's Image):
# qemu-system-aarch64 -M virt -m 512M, console ttyAMA0, no no_timer_check
# (x86's), -cpu max,pauth-impdef=on under TCG (pointer authentication with
# QEMU's cheap algorithm: QARMA5 doubles the boot time), KVM only on an
# arm64 host.
set -euo pipefail

who='qemu-run'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
APT_WHO="qemu-run"
# shellcheck source=scripts/apt.sh
. "$top/scripts/apt.sh"

kernel='' initrd='' append='' timeout=300 log='' any_init=0 smp=2
while [ $# -gt 0 ]; do
	case "$1" in
	--any-init) any_init=1; shift ;;
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--) shift; break ;;
	*) die "unknown argument '$1' (see the header of $0)" ;;
	esac
done
[ -f "$kernel" ] || die "--kernel BZIMAGE missing or not a file"
[ -f "$initrd" ] || die "--initrd CPIO missing or not a file"
case "$timeout" in
''|*[!0-9]*) die "--timeout wants whole seconds" ;;
esac

case "${KUNWIND_QEMU_ARCH:-x86_64}" in
x86_64) qemu_def=qemu-system-x86_64 qemu_pkg=qemu-system-x86 host=x86_64
	board=() mem=1G console='console=ttyS0' tcg_cpu=max
	kernel_args='no_timer_check' ;;
arm64) qemu_def=qemu-system-aarch64 qemu_pkg=qemu-system-arm host=aarch64
	board=(-M virt) mem=512M console='console=ttyAMA0'
	tcg_cpu=max,pauth-impdef=on kernel_args='' ;;
*) die "KUNWIND_QEMU_ARCH: x86_64 or arm64" ;;
esac
qemu=${KUNWIND_QEMU:-$qemu_def}
if [ -z "${KUNWIND_QEMU:-}" ] && ! command -v "$qemu" >/dev/null; then
	apt_need "$qemu_pkg" || die "could not install $qemu_pkg"
fi
command -v "$qemu" >/dev/null || die "no $qemu"

accel=${KUNWIND_QEMU_ACCEL:-}
if [ -z "$accel" ]; then
	accel=tcg
	if [ "$(uname -m)" = "$host" ] && [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
			{ [ "$host" != x86_64 ] || grep -qwE 'vmx|svm' /proc/cpuinfo; }; then
		accel=kvm
	fi
fi
# "max" under TCG has SMAP, PCID, FSGSBASE...: the kernel patches its entry
# code and alternatives as on real hardware, which is what unwinding sees.
if [ "$accel" = kvm ]; then
	cpu=${KUNWIND_QEMU_CPU:-host}
else
	cpu=${KUNWIND_QEMU_CPU:-$tcg_cpu}
fi

# Without --log, a temporary log is kept only when the run failed.
tmplog=''
[ -n "$log" ] || log=$(mktemp /tmp/qemu-run.XXXXXX.log) tmplog=$log
: >"$log"

start=$(date +%s.%N)
set +e
# stdin from /dev/null: QEMU must neither read the caller's terminal nor
# switch it to raw mode.
timeout -k 5 "$timeout" "$qemu" \
	"${board[@]}" -accel "$accel" -cpu "$cpu" -m "$mem" -smp "$smp" \
	-nodefaults -no-user-config -display none -no-reboot \
	-serial stdio -monitor none \
	-kernel "$kernel" -initrd "$initrd" \
	-append "$console panic=-1 $kernel_args $append" \
	"$@" </dev/null 2>&1 | stdbuf -o0 tr -d '\r' | tee "$log"
rc=${PIPESTATUS[0]}
set -e
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')

status=$(sed -n 's/^kunwind-init: done status=\([0-9]*\).*/\1/p' "$log" |
	tail -n1)
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "qemu-run: timeout after ${timeout} s, QEMU killed (log: $log)" >&2
	exit 124
elif [ "$rc" != 0 ]; then
	echo "qemu-run: QEMU failed with status $rc after $secs s (log: $log)" >&2
	exit "$rc"
elif grep -q 'Kernel panic' "$log"; then
	echo "qemu-run: kernel panic after $secs s (log: $log)" >&2
	exit 2
elif [ -n "$status" ] && [ "$status" != 0 ]; then
	echo "qemu-run: init reported status $status after $secs s (log: $log)" >&2
	exit 2
elif [ -z "$status" ] && [ "$any_init" = 0 ]; then
	echo "qemu-run: the initramfs never reported \"kunwind-init: done\"" \
		"after $secs s (log: $log)" >&2
	exit 3
fi
if [ -n "$tmplog" ]; then
	rm -f "$tmplog"
	echo "qemu-run: ok, $accel, ${secs} s" >&2
else
	echo "qemu-run: ok, $accel, ${secs} s (log: $log)" >&2
fi
