#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: run kunwind-bench (walkers on one live stack), then compare
# table sizes and time the generator on a vmlinux.  Prints a readable
# block, then exactly two summary lines, last:
#
#	bench: ratio libunwind/kunwind=<x> libdw/kunwind=<x> kunwind/fp=<x>
#		     libunwind-fast/kunwind=<x>   (one line: unw_backtrace())
#	bench: table kunwind/orc=<x> kunwind/debug_frame=<x>
#
# The walk ratios are of ns per frame, the table ratios of bytes.  Numbers
# that could not be measured are printed as n/a with the reason.
#
# Environment:
#	O			build directory (default build)
#	KUNWIND_VMLINUX		the vmlinux to use; "none" skips that part.
#				Default: the test kernel of scripts/test-kernel.sh
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
echo "--- walks on one stack ($bench)"
"$bench" >"$tmp/walk" 2>&1
rc=$?
grep -v '^result:' "$tmp/walk"
[ $rc = 0 ] || die "kunwind-bench failed (exit $rc)"

r=$tmp/walk
k=$(field "$r" "result: walk kunwind" ns_frame)
fp=$(field "$r" "result: walk fp" ns_frame)
lu=$(field "$r" "result: walk libunwind" ns_frame)
lupt=$(field "$r" "result: walk libunwind-pt" ns_frame)
luf=$(field "$r" "result: walk libunwind-fast" ns_frame)
dw=$(field "$r" "result: walk libdw" ns_frame)
lk=$(field "$r" "result: lookup" ns)
le2=$(field "$r" "result: lookup" le2_lines)
bad=$(field "$r" "result: check" mismatches)
r_lu=$(div "$lu" "$k" 1)
r_lupt=$(div "$lupt" "$k" 1)
r_luf=$(div "$luf" "$k" 2)
r_dw=$(div "$dw" "$k" 1)
r_fp=$(div "$k" "$fp" 2)
# The same walker with its optional lookup cache warm (a profiler's case);
# the summary lines use the plain walk above.
kc=$(field "$r" "result: walk kunwind-cache" ns_frame)
r_luc=$(div "$lu" "$kc" 1)
r_fpc=$(div "$kc" "$fp" 2)

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
	echo "--- test kernel (scripts/test-kernel.sh; builds once, ~8 min at -j2)"
	if kdir=$("$top/scripts/test-kernel.sh" | tail -n1) && [ -n "$kdir" ]; then
		vmlinux=$kdir/vmlinux
		[ -f "$vmlinux" ] || { why="no vmlinux in $kdir"; vmlinux=; }
	else
		why="scripts/test-kernel.sh failed (see its messages above)"
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
echo "  ns/frame: kunwind $k, fp $fp, libunwind $lu (per-thread cache: $lupt; unw_backtrace: $luf), libdw $dw"
echo "  kunwind_find ${lk:-?} ns/lookup on the walk; ${le2:-?} % of its lookups touch <= 2 bucket/row cache lines"
[ -n "${big_lk-}" ] &&
	echo "  vmlinux table: ${big_lk} ns per random lookup; ${big_le2} % touch <= 2 lines"
echo "  libunwind/kunwind with libunwind's per-thread cache: $r_lupt"
echo "  with kunwind's lookup cache warm ($kc ns/frame): libunwind/kunwind $r_luc, kunwind/fp $r_fpc"
[ "${bad:-0}" = 0 ] || echo "  WARNING: $bad frames differ between walkers (see the warning lines above)"
goal libunwind/kunwind "$r_lu" ">=" 30
goal libunwind-fast/kunwind "$r_luf" ">=" 1
goal kunwind/fp "$r_fp" "<=" 2
goal kunwind/orc "$t_orc" "<=" 0.25
goal "generator on vmlinux" "${gen_med:-n/a}" "<" "1 s"
echo
echo "bench: ratio libunwind/kunwind=$r_lu libdw/kunwind=$r_dw kunwind/fp=$r_fp libunwind-fast/kunwind=$r_luf"
if [ "$t_orc" = n/a ] || [ "$t_dbg" = n/a ]; then
	echo "bench: table kunwind/orc=$t_orc kunwind/debug_frame=$t_dbg ($why)"
else
	echo "bench: table kunwind/orc=$t_orc kunwind/debug_frame=$t_dbg"
fi
