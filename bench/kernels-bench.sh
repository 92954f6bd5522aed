#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own unwinder, three ways, counted in instructions:
#
#	bench/kernels-bench.sh
#
# The test kernel built three times from one source, only the unwinder
# differing (tests/harness/unwinder-kernel.sh bench-fp, bench-orc,
# bench-kunwind: frame pointers, ORC, kunwind), each booted once in QEMU
# with -icount shift=0,sleep=off and one vCPU: the guest's clock then
# advances one nanosecond per instruction executed, so every figure here
# is a count of instructions, not of cycles (TCG models no caches and no
# branch predictor; a rep-prefixed string instruction counts once per
# iteration).  A stack trace counts the same in every batch; two runs of
# the workload differ by up to about 0.3 % (bench/README.md).  kunwind_kernels_bench.ko
# (bench/kernels/) checks that on a loop of known length first.
#
# Per kernel (bench/kernels/guest.sh in the guest):
#   - a stack trace's instructions: stack_trace_save() at three depths and
#     stack_trace_save_regs() of an interrupt's registers, the same call
#     sites in the same module on each kernel; the three kernels' traces
#     must name the same functions, frame for frame, or there is no ratio;
#   - the fixed workload (bench/kernels/workload.c) alone, under
#     perf record -F 100/1000/10000 without and with -g;
#   - on the ORC kernel, under kunwind.ko's own profiler at 100 Hz and
#     1 kHz, with its walk and with the no-op handler.
# Three repeats of each in the one boot; the figures are their medians,
# with the spread printed where it is not zero.  Prints, last:
#
#	bench: kernels trace kunwind/fp=<x> kunwind/orc=<x> (instructions, icount)
#	bench: kernels perf-g share 100Hz fp=<pct> orc=<pct> kunwind=<pct> 1kHz ... 10kHz ...
#	bench: kernels fp-tax=<pct> (workload instructions, fp vs kunwind)
#	bench: profiler overhead (instructions) 100Hz=<pct> 1kHz=<pct> perf-g 100Hz=<pct> 1kHz=<pct>
#
# (the shares and the tax are defined in bench/README.md) and each goal
# met or not.  Errors, and no summary line (the lines read before the
# error are printed): traces that differ, an icount check that does not
# count instructions, a run that failed, is missing or counted nothing, a
# sampler that did not sample.
#
# Environment: KUNWIND_BENCH_LOOPS (the workload's loops, default 6000),
# O (build directory).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
case "$O" in /*) ;; *) O=$top/$O ;; esac
out=$O/bench/kernels
mkdir -p "$out"
loops=${KUNWIND_BENCH_LOOPS:-6000}
die() { echo "bench: error: $*" >&2; exit 1; }
say() { echo "bench: kernels: $*" >&2; }

gcc -O2 -static -Wall -o "$out/kkb-workload" "$top/bench/kernels/workload.c" ||
	die "building the workload failed"
perf=$(command -v perf) || die "no perf on this machine (scripts/deps.sh kernel)"

for k in fp orc kunwind; do
	kdir=$("$top/tests/harness/unwinder-kernel.sh" "bench-$k" | tail -n1) ||
		die "no bench-$k kernel (tests/harness/unwinder-kernel.sh bench-$k)"
	rm -rf "$out/mod-$k"
	cp -r "$top/bench/kernels" "$out/mod-$k"
	make -C "$kdir" M="$out/mod-$k" modules >"$out/mod-$k.log" 2>&1 ||
		{ tail -n 20 "$out/mod-$k.log" >&2; die "kunwind_kernels_bench.ko for bench-$k"; }
	files=("$out/mod-$k/kunwind_kernels_bench.ko")
	if [ "$k" = orc ]; then
		line=$("$top/tests/harness/boot-modules.sh" bench-orc "$out/kunwind-orc" | tail -n1) ||
			die "kunwind.ko for bench-orc (tests/harness/boot-modules.sh)"
		src=${line#* }
		files+=("$src/kunwind.ko" "$src/prof/kunwind_prof.ko")
	fi
	files+=("$top/bench/kernels/guest.sh" "$out/kkb-workload:bin/kkb-workload"
		"$perf:bin/perf")
	"$top/tests/harness/mkinitramfs.sh" "$out/$k.cpio.gz" "${files[@]}" >&2
	say "booting bench-$k (icount, one vCPU)"
	"$top/tests/harness/qemu-run.sh" --kernel "$kdir/arch/x86/boot/bzImage" \
		--initrd "$out/$k.cpio.gz" --smp 1 --timeout 3000 \
		--append "kkb.loops=$loops" --log "$out/$k.log" \
		-- -icount shift=0,sleep=off >/dev/null ||
		die "the bench-$k boot failed (console: $out/$k.log)"
done
python3 "$top/bench/kernels/report.py" "$out/fp.log" "$out/orc.log" "$out/kunwind.log"
