#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make demo: kunwind.ko on a stock Debian kernel, then the host demo.
#
#	scripts/demo.sh [KVER] [POINT...]
#
# Part 1 boots the stock Debian kernel KVER (default 6.1, bookworm's own;
# 6.12 also works) in QEMU with kunwind.ko and the sample module
# (tests/harness/stock-boot.sh: build, initramfs, boot, about 30 s) and prints,
# for a few points of sample/points.c (or the POINTs given, numbers),
# kunwind's backtrace beside the kernel's dump_stack(), then one line per
# point.  Part 1b boots it once more and kills it (tests/harness/death-boot.sh:
# the sample's hrtimer death) and prints kunwind's oops backtrace beside
# the kernel's oops report.  Part 1c profiles a workload there with
# kunwind's profiler and leaves the folded stacks and a flame graph in
# build/profile/demo/.  Part 2 is the host demo (scripts/host-demo.sh): kunwind-gen and
# kunwind-stack on a core file; it needs build/tests/stackprog and
# build/kunwind-stack (make demo builds them) and is skipped without.
# Part 3 panics KVER once more, dumps it (tests/harness/gdb-boot.sh) and walks
# the dump's stacks from gdb with kunwind-bt (gdb/).  Part 4 profiles
# KVER running a workload from the host with kunwind-guestprof (nothing
# in the guest; scripts/guestprof-run.py compare), beside kunwind.ko's own
# profiler in the guest, and ends with where the flame graph is.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
kver=6.1
case "${1:-}" in
6.*) kver=$1; shift ;;
esac
# depth 4, pt_regs frame, stack switch, softirq, no-return, sleeping task
points=${*:-2 6 8 11 13 14}

# kunwind.ko with the vmlinux table of every part, from the -dbg
# package's vmlinux (tests/harness/stock-vmlinux.sh): its failure stops the
# demo; only when apt cannot give the package the demo runs without, says
# so, and vmlinux frames are the ORC fallback's.
KUNWIND_STOCK_VMLINUX=$("$top/tests/harness/stock-vmlinux.sh" "$kver") || {
	echo "demo: tests/harness/stock-vmlinux.sh $kver failed: no vmlinux for kunwind's table" >&2
	exit 1
}
export KUNWIND_STOCK_VMLINUX
if [ "$KUNWIND_STOCK_VMLINUX" = no ]; then
	echo "kunwind demo: NO vmlinux table (the reason above): vmlinux frames are walked by the ORC fallback, marked O"
else
	echo "kunwind demo: kunwind.ko with the vmlinux table of $KUNWIND_STOCK_VMLINUX"
fi

echo "== part 1: kunwind.ko on Debian's stock $kver kernel in QEMU"
echo "kunwind demo: at each point, the sample module's stack as kunwind.ko walks it (left; T: a step by a kunwind table, O: by the ORC fallback, for code no table describes) beside the kernel's own dump_stack() (right; RIP: an interrupted ip); '=' marks equal frames."
# Its status, not tail's: a failed build or boot must stop the demo.
out=$("$top/tests/harness/stock-boot.sh" "$kver") || {
	echo "demo: tests/harness/stock-boot.sh $kver failed" \
		"${out:+(console: $(echo "$out" | tail -n1))}" >&2
	exit 1
}
log=$(echo "$out" | tail -n1)
echo
# shellcheck disable=SC2086
python3 "$top/tests/stock.test" --show "$log" $points
echo
echo "(all of it: $log)"

echo
echo "== part 1b: an oops, kunwind's backtrace beside the kernel's own"
echo "kunwind demo: the sample module is told to die (tests/harness/death-boot.sh $kver hrtimer): a NULL read in a hard hrtimer that interrupted the module's own code.  Left: kunwind.ko's trace from its die notifier, from the fault's registers; right: the kernel's oops report (its register dump's RIP, then its Call Trace without the '?' guesses)."
# The last line: "hrtimer STATUS CONSOLE-LOG".
res=$("$top/tests/harness/death-boot.sh" "$kver" hrtimer | tail -n1) || {
	echo "demo: tests/harness/death-boot.sh $kver hrtimer failed: $res" >&2
	exit 1
}
dlog=${res##* }
echo
python3 "$top/tests/death.test" --show hrtimer "$dlog"
echo "(all of it: $dlog)"

echo
echo "== part 1c: kunwind's sampling profiler, a flame graph"
echo "kunwind demo: the same kernel profiled for 4 s at 997 Hz per CPU (debugfs kunwind/profile/, tests/harness/profile-run.sh): the sample module's work=1 kthread (nested module functions, sort()) and a busybox loop of syscalls, with the self-check on (each sample walked by ORC too and compared).  lost: walks that stopped at <= 2 frames; agreement: equal samples over the samples where ORC completed."
prof=$("$top/tests/harness/profile-run.sh" "$kver" "$top/build/profile/demo") || {
	echo "demo: tests/harness/profile-run.sh $kver failed" >&2
	exit 1
}
echo "$prof"
echo "the heaviest stacks (build/profile/demo/profile.folded):"
sort -t' ' -k2 -rn "$top/build/profile/demo/profile.folded" 2>/dev/null |
	awk '{ n = $NF; $NF = ""; print "  " n "\t" $0 }' | sort -rn | head -n 5 |
	cut -c1-160
echo "(the flame graph: open build/profile/demo/profile.html in a browser; per module: build/profile/demo/modules)"

echo
echo "== part 2: the host demo (scripts/host-demo.sh)"
if [ -x "$top/build/tests/stackprog" ] && [ -x "$top/build/kunwind-stack" ]
then
	"$top/scripts/host-demo.sh"
else
	echo "skipped: build/tests/stackprog or build/kunwind-stack missing" \
	     "(make all build/tests/stackprog)"
fi

echo
echo "== part 3: a crash dump, its stacks walked from gdb (gdb/, Documentation/gdb.rst)"
echo "kunwind demo: the same kernel panics on purpose (the sample's dump parameter: three kthreads asleep at depths 1, 3 and 5, then a panic); QEMU dumps its memory (tests/harness/gdb-boot.sh dump $kver); gdb with the -dbg vmlinux and the dump runs kunwind-bt: kunwind's C walker (build/gdb/libkunwind.so) on the tables in the dump's own memory, KASLR measured on the dump."
out=$("$top/tests/harness/gdb-boot.sh" --mem 256M dump "$kver" | tail -n 7) || {
	echo "demo: tests/harness/gdb-boot.sh dump $kver failed" >&2
	exit 1
}
dump=$(echo "$out" | awk '$1 == "dump" { print $2 }')
stacks=$(echo "$out" | awk '$1 == "stacks" { print $2 }')
vmlinux=$(echo "$out" | awk '$1 == "vmlinux" { print $2 }')
pid=$(sed -n 's/.*dump sleeper 3 pid \([0-9]*\) .*/\1/p' "$stacks")
cpu=$(sed -n 's/.*dump panic cpu \([0-9]*\) .*/\1/p' "$stacks")
echo "\$ gdb -batch -ex 'core-file $dump' -ex 'source gdb/kunwind-gdb.py' -ex kunwind-tables -ex 'kunwind-bt $pid' -ex 'kunwind-bt -c $cpu' $vmlinux"
gdb -batch -nx -iex 'set auto-load python-scripts off' \
	-ex "core-file $dump" -ex "source $top/gdb/kunwind-gdb.py" \
	-ex kunwind-tables -ex "kunwind-bt $pid" -ex "kunwind-bt -c $cpu" \
	"$vmlinux" 2>&1 | grep -v '^\[New LWP\|^\[Current thread\|^#0  0x.* in ?? ()$'
echo "(the kernel's own traces of the same tasks, printed before the panic: $stacks)"

echo
echo "== part 4: the guest profiled from the host (kunwind-guestprof, Documentation/guestprof.rst)"
echo "kunwind demo: the same kernel runs the sample's work kthread and a syscall loop; kunwind-guestprof stops it 199 times a second through QEMU's gdbstub, walks each vCPU's kernel stack with the same C walker over the guest's RAM file and the tables in the guest's memory, and resumes it; kunwind.ko's profiler samples the same 10 s from inside. Top leaf functions of both, then the host's flame graph."
mkdir -p "$top/build/guestprof"
if ! "$top/scripts/guestprof-run.py" compare --seconds 10 "$kver" \
		"$top/build/guestprof/demo" >"$top/build/guestprof/demo.out"; then
	echo "demo: scripts/guestprof-run.py compare $kver failed" >&2
	exit 1
fi
sed 's/^guestprof-run: //' "$top/build/guestprof/demo.out"
echo "kunwind demo: the guest's kernel profiled from the host, its flame graph: $top/build/guestprof/demo/host.html"
