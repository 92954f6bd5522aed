#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What kunwind gives arm64, whose kernel walks frame records only:
#
#	bench/arm64-bench.sh
#
# prints
#
#	bench: arm64 table kunwind/debug_frame=<x> (bytes of kunwind's table
#		of the arm64 test kernel's vmlinux against its .debug_frame)
#	bench: arm64 fp-lost=<pct> kunwind-lost=<pct> (of the samples whose
#		interrupted function's caller gdb knows: how often the
#		frame-record walk did not give that caller as frame 1, and
#		how often kunwind did not; medians of 3 runs, ranges after)
#	bench: arm64 kunwind/fp=not measured (why)
#
# The samples are tests/harness/arm64-gdb-oracle.sh's: the guest (the
# shell workload and tests/kmod-arm64's kernel thread on 2 CPUs) stopped
# at KUNWIND_BENCH_ARM64_STOPS random points (default 400) per run, each
# CPU in the kernel a sample, gdb's backtrace the oracle (every run must
# have kunwind equal to gdb, or this fails).  The frame-record walk is
# the kernel's own (arch/arm64/kernel/stacktrace.c): pc, then each
# record's return address from x29, so it loses the caller of a leaf and
# of a function stopped before its record is saved or after it is
# restored.  kunwind loses it where it has no row: the bodies of
# arch/arm64/lib's assembly (memset, strcmp...), which have no CFI.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
O=${O:-build}
case $O in /*) obj=$O ;; *) obj=$top/$O ;; esac
export O
stops=${KUNWIND_BENCH_ARM64_STOPS:-400}
out=$obj/bench/arm64
mkdir -p "$out"

say() { echo "bench: $*"; }
die() { echo "bench: error: $*" >&2; exit 1; }

kdir=$(KUNWIND_ARCH=arm64 "$top/tests/harness/test-kernel.sh" | tail -n 1) ||
	die "no arm64 test kernel (KUNWIND_ARCH=arm64 tests/harness/test-kernel.sh)"
"$obj/kunwind-gen" stats "$kdir/vmlinux" >"$out/stats" ||
	die "kunwind-gen stats $kdir/vmlinux"
t=$(sed -n 's/^bytes_table //p' "$out/stats")
d=$(sed -n 's/^bytes_debug_frame //p' "$out/stats")
if [ -z "$t" ] || [ "${d:-0}" -le 0 ]; then
	die "no table or .debug_frame size"
fi
say "arm64 table kunwind/debug_frame=$(awk -v t="$t" -v d="$d" \
	'BEGIN { printf "%.3f", t / d }') ($t bytes of $d;" \
	"$(sed -n 's/^table_rows //p' "$out/stats") rows after merging;" \
	"$(sed -n 's/^arch_rows //p' "$out/stats") rows added for code without CFI)"

fp=() kw=() n=()
for run in 1 2 3; do
	"$top/tests/harness/arm64-gdb-oracle.sh" "$out/run$run" "$stops" \
		>"$out/run$run.err" 2>&1 ||
		die "oracle run $run failed (kunwind differed from gdb?): $out/run$run"
	c=$(grep '^arm64_oracle ' "$out/run$run/oracle.log")
	get() { echo "$c" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
	base=$(get gdb_caller)
	[ "${base:-0}" -gt 0 ] || die "run $run: no sample with gdb's caller"
	fp+=("$(awk -v a="$(get fp_lost)" -v b="$base" 'BEGIN { printf "%.1f", 100 * a / b }')")
	kw+=("$(awk -v a="$(get kunwind_lost)" -v b="$base" 'BEGIN { printf "%.1f", 100 * a / b }')")
	n+=("$base")
	echo "# run $run: $c" >&2
done
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
range() { printf '%s\n' "$@" | sort -g | sed -n '1p;$p' | paste -sd- ; }
say "arm64 fp-lost=$(median "${fp[@]}")% kunwind-lost=$(median "${kw[@]}")%" \
	"(median of 3 runs of $stops stops; ranges ${fp[*]:+$(range "${fp[@]}")}%" \
	"and $(range "${kw[@]}")%, of ${n[*]} samples)"
say "arm64 kunwind/fp=not measured (kunwind.ko does not run on arm64 yet:" \
	"Documentation/arm64.rst)"
