#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunwind's KUnit suites on the arm64 test kernel:
#
#	tests/harness/arm64-kunit.sh
#
# kunwind.ko and kunit/*.ko as tests/harness/arm64-modules.sh cross-builds
# them (kunit/Kbuild: on arm64 kunwind_test.ko holds the suites of both
# architectures, lookup, walk (on the arm64 scenarios), registry,
# tracer, hostile, oops, api, and arm64's own, kunwind_arm64, whose
# oracle is the kernel's frame-record walk; the x86-64 ones, orc, asm
# and nmi, are not built), on 2 CPUs, as tests/harness/kunit-run.sh has them on
# x86-64: kunwind_test_early.ko insmod'ed before kunwind.ko, then
# kunwind.ko, graph-setup.sh (function_graph on the early module's
# kt_traced_*), then kunwind_test.ko (its suites run at insmod: the test
# kernel has CONFIG_KUNIT); the helper and the corrupt-table module
# (tests/harness/bad-table.py) in /lib/kunwind for the registry suite,
# and vmlinux's table and two of its link addresses for the suites'
# oracle (kunit/oracle.c).  The report is tests/harness/kunit-report.py's,
# each line named kunit_arm64_...: the kernel's kunit.py parses the KTAP,
# every case of every suite in kunit/*.c must have run (#ifdef
# CONFIG_ARM64 and CONFIG_X86_64 evaluated against the arm64 kernel's
# .config), the bad table refused with one message, the console clean.
# The board's GIC is a GICv3 and the kernel runs it with pseudo-NMIs
# (irqchip.gicv3_pseudo_nmi=1): the PMU's interrupt is an NMI there, for
# kunwind_arm64's NMI case, and every suite runs on such a kernel.
# Output: $O/tests/arm64/kunit/{console.log,ktap.log,kunit.json}.
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

mods=$src/kunit
"$harness/bad-table.py" "$mods/kunwind_test_badtable.ko" \
	"$out/kunwind_test_badtable.ko" || die "could not corrupt the bad table"
# The suites' oracle reads vmlinux's table from this file, placed by the
# link-time addresses of two exported functions (as kunit-run.sh's).
vmlinux_table=$src/unwind/linux/vmlinux.kunwind
[ -s "$vmlinux_table" ] || die "no vmlinux table $vmlinux_table"
grep -E '^[0-9a-f]{16} [Tt] (sprint_symbol|msleep)$' "$kdir/System.map" \
	>"$out/vmlinux.map" || true
[ "$(wc -l <"$out/vmlinux.map")" = 2 ] ||
	die "sprint_symbol and msleep not found once each in $kdir/System.map"
printf '#!/bin/sh\nexit 0\n' >"$out/test.sh"
"$harness/arm64-initramfs.sh" "$out/initrd.cpio.gz" \
	"$mods/kunwind_test_early.ko" "$src/kunwind.ko" \
	"$harness/graph-setup.sh" "$mods/kunwind_test.ko" \
	"$mods/kunwind_test_helper.ko:/lib/kunwind/kunwind_test_helper.ko" \
	"$out/kunwind_test_badtable.ko:/lib/kunwind/kunwind_test_badtable.ko" \
	"$vmlinux_table:/lib/kunwind/vmlinux.kunwind" \
	"$out/vmlinux.map:/lib/kunwind/vmlinux.map" \
	"$out/test.sh" >"$out/initramfs.log" 2>&1 ||
	die "initramfs (log: $out/initramfs.log)"
qrc=0
harness_boot 1 "$out/console.log" "$out/qemu.err" \
	--kernel "$kdir/arch/arm64/boot/Image" --initrd "$out/initrd.cpio.gz" \
	--append "irqchip.gicv3_pseudo_nmi=1" --timeout 600 --smp 2 \
	-- -M gic-version=3 || qrc=$?
KUNIT_REPORT_NAME=kunit_arm64 \
	python3 "$harness/kunit-report.py" "$out/console.log" \
	"$kdir/source/tools/testing/kunit/kunit.py" "$out" "$qrc" \
	"$src/kunit" "$kdir/.config"
