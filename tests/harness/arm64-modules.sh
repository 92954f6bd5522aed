#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunwind.ko and its users, cross-built for the arm64 test kernel:
#
#	tests/harness/arm64-modules.sh
#
# prints the directory of the built tree: kunwind.ko (with the vmlinux
# table, KUNWIND_VMLINUX=<build dir>/vmlinux), sample/kunwind_sample.ko and
# kunit/kunwind_bench.ko (kunit/Kbuild: arm64 builds the benchmark only, so
# far).  The test kernel is KUNWIND_ARCH=arm64 tests/harness/test-kernel.sh's
# (cross-built, cached); the sources are mirrored into
# $O/tests/arm64/modules/src and built there with aarch64-linux-gnu-, W=1,
# a warning an error (log: $O/tests/arm64/modules/build.log).  Used by
# tests/harness/arm64-death.sh and bench/arm64-bench.sh.
set -euo pipefail

who='arm64-modules'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

harness_objdir
out=$objdir/tests/arm64/modules
harness_lock "$out"
kdir=$(KUNWIND_ARCH=arm64 "$harness/test-kernel.sh" | tail -n1) ||
	die "no arm64 test kernel"
log=$out/build.log
: >"$log"
harness_gen "$log"

src=$out/src
harness_mirror "$src" ./Kbuild ./Kconfig ./scripts/kunwind.mk ./unwind \
	./prof ./sample ./kunit
say "building kunwind.ko, the sample and the benchmark for arm64 (log: $log)"
harness_arm64_make "$log" "$kdir" M="$src" KUNWIND_VMLINUX="$kdir/vmlinux" modules &&
	harness_arm64_make "$log" "$kdir" M="$src/sample" KUNWIND_DIR="$src" modules &&
	harness_arm64_make "$log" "$kdir" M="$src/kunit" \
		KBUILD_EXTRA_SYMBOLS="$src/Module.symvers" modules ||
	{ tail -n 30 "$log" >&2; die "the arm64 modules did not build, or warned (W=1)"; }
echo "$src"
