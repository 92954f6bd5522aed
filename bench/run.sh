#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: run kunwind-bench (walkers on two live stacks, one built with
# frame pointers and one without), count their instructions per frame
# under callgrind, then compare table sizes and time the generator on a
# vmlinux.  Prints a readable block, then exactly two summary lines, last:
#
#	bench: ratio libunwind-fast/kunwind=<x> libunwind/kunwind=<x>
#		     libdw/kunwind=<x> kunwind/fp=<x>		(one line)
#	bench: table kunwind/orc=<x> kunwind/debug_frame=<x> (...)
#
# The walk ratios are of ns per frame: the first three on the stack
# without frame pointers, kunwind/fp on the one with; kunwind is the walk
# as a profiler runs it, with its lookup cache warm, as libunwind's caches
# are (the plain walk's ratios are in the summary too).  The table ratios
# are of bytes.  Walkers that disagree on a stack's frames are an error
# (kunwind-bench exits non-zero); so is a size that cannot be measured,
# unless KUNWIND_VMLINUX=none skips that part on purpose.
#
# Environment:
#	O			build directory (default build)
#	KUNWIND_VMLINUX		the vmlinux to use; "none" skips that part.
#				Default: the test kernel of tests/harness/test-kernel.sh
#				(built on first use: ~8 min at -j2)
#	KUNWIND_BENCH_ROUND_S	seconds per timing round (default 0.2)
#	KUNWIND_BENCH_CLOCK	"monotonic" for wall time (default: thread CPU time)
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
O=${O:-build}
case "$O" in /*) ;; *) O=$top/$O ;; esac
bench=$O/bench/kunwind-bench
gen=$O/kunwind-gen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

say() { echo "bench: $*"; }
die() { echo "bench: error: $*" >&2; exit 1; }

[ -x "$bench" ] || die "$bench missing: run 'make bench'"
[ -x "$gen" ] || die "$gen missing: run 'make bench'"

# "result: walk kunwind frames=70 ns_walk=... ns_frame=25.1" -> 25.1
field() {	# file, line prefix, key
	sed -n "s/^$2 .*\<$3=\([^ ]*\).*/\1/p" "$1" | head -n1
}
# a / b with the given decimals, or n/a if either is missing or b is 0
div() {
	awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN {
		if (a == "" || b == "" || b + 0 == 0) print "n/a";
		else printf("%.*f\n", d, a / b) }'
}
median3() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

echo "=== kunwind bench: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "host   $(uname -srm); $(nproc) CPUs; $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n1)"
echo "load   $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min averages; other jobs skew absolute numbers, less so ratios)"
echo "peers  libunwind $(dpkg-query -W -f='${Version}' libunwind-dev 2>/dev/null || echo ?)," \
	"elfutils $(dpkg-query -W -f='${Version}' libdw-dev 2>/dev/null || echo ?)," \
	"glibc $(ldd --version | sed -n '1s/.* //p')"
echo
echo "--- walks: $bench"
"$bench" >"$tmp/walk" 2>&1
rc=$?
grep -v '^result:' "$tmp/walk"
[ $rc = 0 ] || die "kunwind-bench failed (exit $rc)"

r=$tmp/walk
# ns/frame of a method on a stack: ns fp kunwind
ns() { field "$r" "result: walk-$1 $2" ns_frame; }
k=$(ns nofp kunwind-cache)
kp=$(ns nofp kunwind)
kfp=$(ns fp kunwind-cache)
kpfp=$(ns fp kunwind)
fp=$(ns fp fp)
lu=$(ns nofp libunwind)
lupt=$(ns nofp libunwind-pt)
luf=$(ns nofp libunwind-fast)
dw=$(ns nofp libdw)
lk=$(field "$r" "result: lookup-nofp" ns)
le2=$(field "$r" "result: lookup-nofp" le2_lines)
r_luf=$(div "$luf" "$k" 2)
r_lu=$(div "$lu" "$k" 1)
r_dw=$(div "$dw" "$k" 1)
r_fp=$(div "$kfp" "$fp" 2)
# The plain walk (no lookup cache: the first walk of a stack)
p_luf=$(div "$luf" "$kp" 2)
p_lu=$(div "$lu" "$kp" 1)
p_dw=$(div "$dw" "$kp" 1)
p_fp=$(div "$kpfp" "$fp" 2)

# ---- instructions per frame ----
echo
echo "--- instructions per frame (callgrind; the rbp chain on the fp stack, the rest on the nofp stack)"
ipf=()
if command -v valgrind >/dev/null; then
	(cd "$tmp" && valgrind --tool=callgrind --collect-atstart=no \
		--callgrind-out-file="$tmp/cg" "$bench" count 100 \
		>"$tmp/count" 2>"$tmp/count.err") ||
		{ cat "$tmp/count.err" >&2; die "kunwind-bench count under callgrind failed"; }
	i=0
	for cg in "$tmp"/cg.*; do
		i=$((i + 1))
		# each dump is named after its method (CALLGRIND_DUMP_STATS_AT)
		name=$(sed -n 's/^desc: Trigger: Client Request: //p' "$cg")
		ir=$(sed -n 's/^summary: //p' "$cg")
		frames=$(field "$tmp/count" "result: count $name" frames)
		walks=$(field "$tmp/count" "result: count $name" walks)
		[ -n "$name" ] && [ -n "$ir" ] && [ -n "$frames" ] && [ -n "$walks" ] ||
			die "callgrind dump $cg: no method, count or frames"
		per=$(awk -v a="$ir" -v f="$frames" -v w="$walks" 'BEGIN { printf("%.1f", a / f / w) }')
		printf '  %-14s %8s instructions/frame\n' "$name" "$per"
		ipf+=("$name=$per")
	done
	[ $i -gt 0 ] || die "kunwind-bench count reported nothing"
else
	die "valgrind missing: run scripts/deps.sh"
fi

# ---- the vmlinux part ----
vmlinux=
why=
if [ "${KUNWIND_VMLINUX-}" = none ]; then
	why="skipped: KUNWIND_VMLINUX=none"
elif [ -n "${KUNWIND_VMLINUX-}" ]; then
	vmlinux=$KUNWIND_VMLINUX
	[ -f "$vmlinux" ] || { why="KUNWIND_VMLINUX=$vmlinux does not exist"; vmlinux=; }
else
	echo
	echo "--- test kernel (tests/harness/test-kernel.sh; builds once, ~8 min at -j2)"
	if kdir=$("$top/tests/harness/test-kernel.sh" | tail -n1) && [ -n "$kdir" ]; then
		vmlinux=$kdir/vmlinux
		[ -f "$vmlinux" ] || { why="no vmlinux in $kdir"; vmlinux=; }
	else
		why="tests/harness/test-kernel.sh failed (see its messages above)"
	fi
fi

t_orc=n/a t_dbg=n/a gen_med=
if [ -n "$vmlinux" ]; then
	echo
	echo "--- tables on $vmlinux"
	if "$gen" stats "$vmlinux" >"$tmp/stats" 2>"$tmp/stats.err"; then
		sed 's/^/  /' "$tmp/stats"
		tb=$(sed -n 's/^bytes_table \([0-9]*\).*/\1/p' "$tmp/stats")
		orc=$(sed -n 's/^bytes_orc \([0-9]*\).*/\1/p' "$tmp/stats")
		dbg=$(sed -n 's/^bytes_debug_frame \([0-9]*\).*/\1/p' "$tmp/stats")
		t_orc=$(div "$tb" "$orc" 3)
		t_dbg=$(div "$tb" "$dbg" 3)
		[ "$t_orc" = n/a ] && why="no ORC sections in $vmlinux"
		[ "$t_dbg" = n/a ] && why="${why:+$why; }no .debug_frame in $vmlinux"
	else
		cat "$tmp/stats.err" >&2
		why="kunwind-gen stats $vmlinux failed"
	fi

	# The generator as a user runs it: ELF in, table file out.
	echo
	echo "--- generator: $gen build $vmlinux -o TABLE (3 runs)"
	times=()
	for i in 1 2 3; do
		t0=$(date +%s%N)
		/usr/bin/time -f '%M' -o "$tmp/rss" \
			"$gen" build "$vmlinux" -o "$tmp/table" 2>"$tmp/gen.err" ||
			{ cat "$tmp/gen.err" >&2; times=(); break; }
		t1=$(date +%s%N)
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf("%.3f", (b - a) / 1e9) }')")
		echo "  run $i: ${times[-1]} s wall, max RSS $(cat "$tmp/rss") KB"
	done
	if [ ${#times[@]} = 3 ]; then
		gen_med=$(median3 "${times[@]}")
		echo "  median ${gen_med} s; table file $(stat -c %s "$tmp/table") bytes"
	else
		echo "  generator failed"
	fi

	echo
	echo "--- lookups in the table of $vmlinux (uniformly random text addresses)"
	"$bench" lookup "$vmlinux" >"$tmp/big" 2>&1 || cat "$tmp/big" >&2
	grep -v '^result:' "$tmp/big"
	big_lk=$(field "$tmp/big" "result: biglookup" ns)
	big_le2=$(field "$tmp/big" "result: biglookup" le2_lines)
fi

# ---- summary ----
goal() {	# what, value, op, target
	local ok
	if [ "$2" = n/a ] || [ -z "$2" ]; then
		ok="not measured"
	else
		ok=$(awk -v v="$2" -v t="$4" -v op="$3" 'BEGIN {
			m = op == ">=" ? v >= t : op == "<=" ? v <= t : v < t;
			print m ? "met" : "NOT met" }')
	fi
	printf '  %-22s %-10s (goal %s %s): %s\n' "$1" "$2" "$3" "$4" "$ok"
}
echo
echo "--- summary"
echo "  ns/frame without frame pointers: kunwind $kp, with its lookup cache warm $k;"
echo "    unw_backtrace() $luf, libunwind unw_step $lu (per-thread cache: $lupt), libdw $dw"
echo "  ns/frame with frame pointers: rbp chain $fp, kunwind $kpfp, with its cache $kfp"
echo "  instructions/frame: ${ipf[*]}"
echo "  kunwind_table_rule ${lk:-?} ns/lookup on the walk; ${le2:-?} % of its lookups touch <= 2 bucket/row cache lines"
[ -n "${big_lk-}" ] &&
	echo "  vmlinux table: ${big_lk} ns per random lookup; ${big_le2} % touch <= 2 lines"
echo "  the plain walk (no lookup cache): libunwind-fast/kunwind $p_luf, libunwind/kunwind $p_lu, libdw/kunwind $p_dw, kunwind/fp $p_fp"
goal libunwind-fast/kunwind "$r_luf" ">=" 1.5
goal libdw/kunwind "$r_dw" ">=" 50
goal "kunwind/fp (stretch)" "$r_fp" "<=" 2
goal "table kunwind/orc" "$t_orc" "<=" 0.25
goal "generator on vmlinux" "${gen_med:-n/a}" "<" "1 s"
# The table covers the code DWARF describes; the kernel's entry assembly
# has no CFI and still needs ORC (Documentation/kernel.rst).
echo
covers="tables of DWARF-described code; entry assembly still needs ORC"
if [ "$t_orc" = n/a ] || [ "$t_dbg" = n/a ]; then
	echo "bench: table kunwind/orc=$t_orc kunwind/debug_frame=$t_dbg ($covers; $why)"
else
	echo "bench: table kunwind/orc=$t_orc kunwind/debug_frame=$t_dbg ($covers)"
fi
echo "bench: ratio libunwind-fast/kunwind=$r_luf libunwind/kunwind=$r_lu libdw/kunwind=$r_dw kunwind/fp=$r_fp"
# A size or ratio that was due and could not be measured is an error.
for v in "$r_luf" "$r_lu" "$r_dw" "$r_fp"; do
	[ "$v" != n/a ] || die "a walk ratio could not be measured (see above)"
done
if [ "${KUNWIND_VMLINUX-}" != none ] && { [ "$t_orc" = n/a ] || [ "$t_dbg" = n/a ]; }; then
	die "table sizes could not be measured: $why"
fi
exit 0
