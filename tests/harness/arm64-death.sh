#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunwind.ko on the arm64 test kernel: build it (with the vmlinux table)
# and the sample module for arm64, then boot once per death of the
# sample's (sample/deaths.c), each console kept:
#
#	tests/harness/arm64-death.sh [--stock] KIND...
#
# --stock: Debian's arm64 kernel instead, and the modules built against
# its headers with its -dbg vmlinux's table (tests/harness/arm64-stock.sh);
# the consoles go to $O/tests/arm64/death-stock/KIND/.
# KIND: as tests/harness/death-boot.sh's (kthread-null null-call bug asm
# noreturn tasklet hrtimer sort idr panic stack-overflow), or "all".
#
# The arm64 test kernel is KUNWIND_ARCH=arm64 tests/harness/test-kernel.sh's
# (cross-built, cached); kunwind.ko (with the vmlinux table) and
# kunwind_sample.ko are tests/harness/arm64-modules.sh's.  Each boot's initramfs
# (tests/harness/arm64-initramfs.sh) loads kunwind.ko and the sample (its
# points run at load: each prints kunwind's trace and dump_stack()'s),
# then writes KIND to the sample's die parameter; "oops=panic" makes every
# death end the boot.  Per KIND: $O/tests/arm64/death/KIND/console.log,
# and $O/tests/arm64/death/elfs names the vmlinux and the sample module
# the traces walk.  tests/arm64_traces.py --elfs checks them.
set -euo pipefail

who='arm64-death'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

kernel='test'
if [ "${1:-}" = --stock ]; then
	kernel=stock
	shift
fi
[ $# -ge 1 ] || die "usage: $0 [--stock] KIND..."
kinds=("$@")
[ "${kinds[*]}" != all ] ||
	kinds=(kthread-null null-call bug asm noreturn tasklet hrtimer sort idr
	       panic stack-overflow)

export KUNWIND_QEMU_ARCH=arm64
harness_objdir
out=$objdir/tests/arm64/death
[ "$kernel" = test ] || out=$out-$kernel
mkdir -p "$out"

if [ "$kernel" = stock ]; then
	line=$("$harness/arm64-stock.sh" | tail -n1) ||
		die "Debian's arm64 kernel or its modules failed (tests/harness/arm64-stock.sh)"
	read -r image src vmlinux <<EOF
$line
EOF
else
	kdir=$(KUNWIND_ARCH=arm64 "$harness/test-kernel.sh" | tail -n1) ||
		die "no arm64 test kernel"
	image=$kdir/arch/arm64/boot/Image
	vmlinux=$kdir/vmlinux
	src=$("$harness/arm64-modules.sh" | tail -n1) ||
		die "the arm64 modules did not build (tests/harness/arm64-modules.sh)"
fi
# The ELF files of the code the traces walk, for tests/arm64_traces.py.
printf 'vmlinux %s\nkunwind_sample %s\n' "$vmlinux" \
	"$src/sample/kunwind_sample.ko" >"$out/elfs"

for kind in "${kinds[@]}"; do
	d=$out/$kind
	rm -rf "$d"
	mkdir -p "$d"
	cat >"$d/test.sh" <<EOF
#!/bin/sh
echo "$kind" > /sys/module/kunwind_sample/parameters/die
sleep 5
echo "arm64-death: still alive after die $kind"
exit 1
EOF
	"$harness/arm64-initramfs.sh" "$d/initrd.cpio.gz" "$src/kunwind.ko" \
		"$src/sample/kunwind_sample.ko" "$d/test.sh" >"$d/initramfs.log" 2>&1 ||
		die "initramfs for $kind (log: $d/initramfs.log)"
	harness_boot 3 "$d/console.log" "$d/qemu.err" \
		--kernel "$image" \
		--initrd "$d/initrd.cpio.gz" --append "oops=panic" \
		--timeout 120 --smp 2 || true
	say "$kind: $boot_status"
done
