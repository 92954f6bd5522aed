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
#	bench: arm64 kunwind/fp=<x> (instructions per frame of kunwind_save()
#		against stack_trace_save(), the kernel's frame-record walk,
#		on the same frames: kunit/kunwind_bench.ko under
#		-icount shift=0,sleep=off, median of 3 runs)
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
# kunwind/fp: kunwind_bench.ko on the arm64 test kernel, one CPU, guest
# time counting instructions (-icount shift=0,sleep=off: 1 ns a guest
# instruction, the same every run): kunwind_save() against
# stack_trace_save(), arm64's frame-record walk, on the same frames.
src=$("$top/tests/harness/arm64-modules.sh" | tail -n1) ||
	die "the arm64 modules did not build (tests/harness/arm64-modules.sh)"
printf '#!/bin/sh\nexit 0\n' >"$out/test.sh"
"$top/tests/harness/arm64-initramfs.sh" "$out/bench.cpio.gz" "$src/kunwind.ko" \
	"$src/kunit/kunwind_bench.ko" "$out/test.sh" >"$out/initramfs.log" 2>&1 ||
	die "initramfs (log: $out/initramfs.log)"
ratios=()
for run in 1 2 3; do
	log=$out/kernel-run$run.log
	KUNWIND_QEMU_ARCH=arm64 "$top/tests/harness/qemu-run.sh" \
		--kernel "$kdir/arch/arm64/boot/Image" --initrd "$out/bench.cpio.gz" \
		--timeout 600 --log "$log" --smp 1 \
		-- -icount shift=0,sleep=off >/dev/null 2>&1 ||
		die "QEMU run $run failed (console: $log)"
	! grep -q 'TRACES DIFFER' "$log" ||
		die "run $run: kunwind's traces differ from the frame-record walk's: no ratio ($log)"
	r=$(sed -n 's/.*kunwind-bench: ratio kunwind\/fp=\([0-9.]*\).*/\1/p' "$log")
	[ -n "$r" ] || die "run $run: no kunwind/fp ratio ($log)"
	ratios+=("$r")
	[ "$run" != 1 ] || sed -n 's/.*kunwind-bench: \(depth .*\)/bench: arm64 kernel \1/p' "$log"
done
# What one more frame costs (the slope from the shallowest to the deepest
# trace) and what a trace costs besides (kunwind's start: the walk's
# setup and the step out of kunwind_save() itself).
awk '/kunwind-bench: depth [0-9]+ frames/ {
	for (i = 1; i <= NF; i++) {
		if ($i == "frames") f = $(i + 1)
		if ($i == "kunwind" && $(i + 2) == "ns/frame") k = $(i + 1)
		if ($i == "fp") p = $(i + 1)
	}
	n++; if (n == 1) { f1 = f; k1 = k * f; p1 = p * f }
	f2 = f; k2 = k * f; p2 = p * f }
	END { if (n < 2 || f2 == f1) exit 1
	sk = (k2 - k1) / (f2 - f1); sp = (p2 - p1) / (f2 - f1)
	printf "bench: arm64 kernel walk per frame kunwind %.1f fp %.1f instructions (per-frame kunwind/fp=%.2f); per trace besides kunwind %.0f fp %.0f\n",
		sk, sp, sk / sp, k1 - sk * f1, p1 - sp * f1 }' "$out/kernel-run1.log" ||
	die "no per-depth lines in $out/kernel-run1.log"
say "arm64 kunwind/fp=$(median "${ratios[@]}") (icount: guest instructions per frame," \
	"kunwind_save() over stack_trace_save()'s frame-record walk, the same" \
	"frames at depths 4, 12, 28; median of 3 runs: ${ratios[*]})"
