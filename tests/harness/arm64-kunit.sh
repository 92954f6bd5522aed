#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunwind's KUnit suites on the arm64 test kernel:
#
#	tests/harness/arm64-kunit.sh
#
# kunwind.ko and kunit/kunwind_test.ko as tests/harness/arm64-modules.sh
# cross-builds them (on arm64 kunwind_test.ko holds the suites kunwind_walk,
# on the arm64 scenarios, and kunwind_arm64, against the kernel's
# frame-record walk: kunit/Kbuild), insmod'ed at boot (the suites run at
# insmod: the test kernel has CONFIG_KUNIT), on 2 CPUs.  The report is
# tests/harness/kunit-report.py's, each line named kunit_arm64_...: the
# kernel's kunit.py parses the KTAP, every case of those two suites in
# kunit/*.c must have run (#ifdef CONFIG_ARM64 evaluated against the arm64
# kernel's .config), the console must be clean.  Output:
# $O/tests/arm64/kunit/{console.log,ktap.log,kunit.json}.
set -euo pipefail

who='arm64-kunit'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

export KUNWIND_QEMU_ARCH=arm64
harness_objdir
out=$objdir/tests/arm64/kunit
rm -rf "$out"
mkdir -p "$out"
kdir=$(KUNWIND_ARCH=arm64 "$harness/test-kernel.sh" | tail -n1) ||
	die "no arm64 test kernel"
src=$("$harness/arm64-modules.sh" | tail -n1) ||
	die "the arm64 modules did not build (tests/harness/arm64-modules.sh)"

printf '#!/bin/sh\nexit 0\n' >"$out/test.sh"
"$harness/arm64-initramfs.sh" "$out/initrd.cpio.gz" "$src/kunwind.ko" \
	"$src/kunit/kunwind_test.ko" "$out/test.sh" >"$out/initramfs.log" 2>&1 ||
	die "initramfs (log: $out/initramfs.log)"
qrc=0
harness_boot 1 "$out/console.log" "$out/qemu.err" \
	--kernel "$kdir/arch/arm64/boot/Image" --initrd "$out/initrd.cpio.gz" \
	--timeout 600 --smp 2 || qrc=$?
KUNIT_REPORT_NAME=kunit_arm64 KUNIT_REPORT_SUITES="kunwind_walk kunwind_arm64" \
	python3 "$harness/kunit-report.py" "$out/console.log" \
	"$kdir/source/tools/testing/kunit/kunit.py" "$out" "$qrc" \
	"$src/kunit" "$kdir/.config"
