#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunwind against the kernel's ORC unwinder inside the test kernel:
#
#	bench/kernel-bench.sh
#
# Boots the test kernel in QEMU with kunwind.ko and kunit/kunwind_bench.ko,
# which times kunwind_save() and stack_trace_save() on the same stacks
# (the same call instruction, three depths, alternating batches) in one
# run, and prints
#
#	bench: kernel ratio kunwind/orc=<x>		(ns per frame; goal <= 0.5)
#	bench: kernel tables=200/1 ratio=<x>		(a module frame's lookup
#							 with 200 tables vs 1;
#							 goal <= 1.1)
#	bench: kernel vmlinux table ... vs ORC ...	(bytes)
#	bench: kernel module <m>.ko table ... vs ORC ...
#	bench: kernel module kunwind/fp=<x> per-frame=<x> per-trace-shallow=<x>
#		per-trace-deep=<x>	(instructions against the rbp chain
#					 over the bench module's frames,
#					 built with frame pointers; goal
#					 <= 2)
#
# Traces that differ (the module checks before it times) and sizes that
# cannot be measured are errors.
#
# QEMU runs with -icount shift=0,sleep=off and one vCPU: the guest's
# clock advances one nanosecond per instruction, so the module's "ns"
# are instructions executed (exact and repeatable; not cycles: TCG
# models no caches), and the ratios are ratios of instructions.
# The sizes: kunwind's table (vmlinux: the file kunwind.ko's build made
# with kunwind-gen; a module: its .kunwind section) against ORC's
# .orc_unwind + .orc_unwind_ip (vmlinux also has .orc_lookup, reported
# apart).  The sample module (sample/) is built against the test kernel
# for the size report when it builds; KUNWIND_BENCH_KO="a.ko b.ko" adds
# more modules.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=${KUNWIND_KUNIT_OUT:-$root/build/kunit}

die() { echo "bench: error: $*" >&2; exit 1; }

kdir=$("$root/tests/harness/test-kernel.sh" | tail -n1) || die "no test kernel"
mods=$("$root/tests/harness/kunit-run.sh" --build | tail -n1) ||
	die "tests/harness/kunit-run.sh --build failed"
[ -f "$mods/kunwind.ko" ] && [ -f "$mods/kunit/kunwind_bench.ko" ] ||
	die "modules not built (tests/harness/kunit-run.sh --build)"
sample=
if [ -f "$mods/sample/Kbuild" ] &&
   make -C "$kdir" M="$mods/sample" KUNWIND_GEN="$root/build/kunwind-gen" \
	KUNWIND_DIR="$mods" modules >"$out/bench-sample.log" 2>&1; then
	sample=$mods/sample/kunwind_sample.ko
else
	echo "bench: kernel note: sample module not built (log: $out/bench-sample.log)" >&2
fi

"$root/tests/harness/mkinitramfs.sh" "$out/bench.cpio.gz" "$mods/kunwind.ko" \
	"$mods/kunit/kunwind_bench.ko" >&2
log=$out/bench-console.log
"$root/tests/harness/qemu-run.sh" --kernel "$kdir/arch/x86/boot/bzImage" \
	--initrd "$out/bench.cpio.gz" --timeout 1200 --log "$log" --smp 1 \
	-- -icount shift=0,sleep=off >/dev/null ||
	die "QEMU run failed (console: $log)"

sed -n 's/.*kunwind-bench: \(depth .*\)/bench: kernel \1/p' "$log"
# The module compares the traces before it times anything: a ratio of
# walks that report other frames would mean nothing.
if grep -q 'TRACES DIFFER' "$log"; then
	sed -n 's/.*kunwind-bench: \(  .*\)/bench: kernel \1/p' "$log"
	die "kunwind's traces differ from another walker's: no ratio (console: $log)"
fi
ratio=$(sed -n 's/.*kunwind-bench: ratio kunwind\/orc=\([0-9.]*\).*/\1/p' "$log")
[ -n "$ratio" ] || die "no ratio in $log"
echo "bench: kernel ratio kunwind/orc=$ratio"
# The rbp chain over the bench module's own frames (built with frame
# pointers; the chain ends at vmlinux, which is not).
fp=$(sed -n 's/.*kunwind-bench: ratio kunwind\/fp=\([0-9.]*\).*/\1/p' "$log")
[ -n "$fp" ] || die "no kunwind/fp ratio in $log"

# The registry: kunwind_find_rule() of frames of a module whose table was
# registered last, with 199 other tables registered and without, in
# alternating phases, each round against a registry-free reference (see
# kunit/kunwind_bench.c).
tables=$(sed -n 's/.*kunwind-bench: tables=200\/1 ratio=\([0-9.]*\).*/\1/p' "$log")
[ -n "$tables" ] || die "no tables=200/1 ratio in $log"
sed -n 's/.*kunwind-bench: tables=200\/1 ratio=[0-9.]* (\(.*\))$/bench: kernel tables: \1/p' "$log"
echo "bench: kernel tables=200/1 ratio=$tables"

# A section's size in bytes, by exact name, from readelf -SW (hex; mawk
# has no strtonum, so the shell converts).
hexsize() {
	local h
	h=$(readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' |
		awk -v s="$2" '$1 == s { print $5; exit }')
	echo $((16#${h:-0}))
}
ratio2() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }

# A size that cannot be measured is an error, never a 0.
size_of() {	# file section
	local n
	n=$(hexsize "$1" "$2")
	[ "$n" -gt 0 ] || die "no section $2 in $1: its size cannot be measured"
	echo "$n"
}
vt=$(stat -c %s "$mods/unwind/linux/vmlinux.kunwind" 2>/dev/null) ||
	die "no vmlinux table $mods/unwind/linux/vmlinux.kunwind"
vo1=$(size_of "$kdir/vmlinux" .orc_unwind)
vo2=$(size_of "$kdir/vmlinux" .orc_unwind_ip)
vo=$((vo1 + vo2))
vl=$(size_of "$kdir/vmlinux" .orc_lookup)
echo "bench: kernel vmlinux table $vt bytes vs ORC $vo bytes (.orc_unwind + .orc_unwind_ip; .orc_lookup $vl more): kunwind/orc=$(ratio2 "$vt" "$vo")"
for ko in $sample "$mods/kunit/kunwind_test.ko" "$mods/kunit/kunwind_bench.ko" \
	${KUNWIND_BENCH_KO:-}; do
	[ -f "$ko" ] || die "no module $ko (KUNWIND_BENCH_KO?)"
	mt=$(size_of "$ko" .kunwind)
	mo1=$(size_of "$ko" .orc_unwind)
	mo2=$(size_of "$ko" .orc_unwind_ip)
	mo=$((mo1 + mo2))
	echo "bench: kernel module $(basename "$ko") table $mt bytes vs ORC $mo bytes: kunwind/orc=$(ratio2 "$mt" "$mo")"
done

# Last: kunwind.ko's walk over the rbp chain, over the same module
# frames (goal <= 2): the module's ratio (ns per frame, all depths), then
# per frame (the slope from the shallowest to the deepest trace: what one
# more frame costs) and per trace at the shallowest and deepest depth.
python3 - "$log" "$fp" <<'PY'
import re, sys
rows = [tuple(float(x) for x in m.groups()) for m in (
    re.search(r'kunwind-bench: depth (\d+) frames (\d+) kunwind ([0-9.]+) ns/frame fp ([0-9.]+) ns/frame', l)
    for l in open(sys.argv[1], errors='replace')) if m]
if len(rows) < 2:
    sys.exit('bench: error: no per-depth lines against the rbp chain in %s' % sys.argv[1])
(d1, f1, k1, p1), (d2, f2, k2, p2) = min(rows), max(rows)
if f1 == f2:
    sys.exit('bench: error: the depths against the rbp chain have as many frames: no slope')
slope_k = (k2 * f2 - k1 * f1) / (f2 - f1)
slope_p = (p2 * f2 - p1 * f1) / (f2 - f1)
print('bench: kernel module walk per frame kunwind %.1f fp %.1f instructions; per trace '
      'depth %d (%d frames) kunwind %.0f fp %.0f, depth %d (%d frames) kunwind %.0f fp %.0f'
      % (slope_k, slope_p, d1, f1, k1 * f1, p1 * f1, d2, f2, k2 * f2, p2 * f2))
print('bench: kernel module kunwind/fp=%s per-frame=%.2f per-trace-shallow=%.2f per-trace-deep=%.2f'
      % (sys.argv[2], slope_k / slope_p, k1 / p1, k2 / p2))
for what, r in (('per frame', slope_k / slope_p), ('per trace, shallowest', k1 / p1),
                ('per trace, deepest', k2 / p2)):
    print('  module walk kunwind/fp %-22s %.2f (goal <= 2): %s'
          % (what, r, 'met' if r <= 2 else 'NOT met'))
PY
