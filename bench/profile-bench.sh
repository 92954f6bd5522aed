#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The profiler's cost, measured where it is: in one QEMU run of a kernel
# with high-resolution timers (Debian's 6.12 by default; KERNEL as
# tests/harness/profile-boot.sh takes it), -smp 2:
#
#	bench/profile-bench.sh [KERNEL]
#
# The workload is the sample module's work=1 kthread (nested module
# functions and sort(); its rounds are the throughput).  Rounds of 3 s,
# three of each: profiler off; at 100 Hz and at 1 kHz per CPU with
# kunwind's handler; the same with the no-op handler (same event, same
# rate, nothing walked) and with ORC's walk in kunwind's place (the bar).
# From the profiler's stats of each round: the handler's share of CPU
# time (its time over the time each CPU had its event).  Then one round at 1 kHz with the self-check on: kunwind's walk
# and ORC's from the same registers, on the same samples.  Prints
#
#	bench: profiler overhead 100Hz=<pct> 1kHz=<pct>
#		(kunwind handler share minus no-op share, % of CPU time;
#		 goals < 0.1 and < 1)
#	bench: profiler overhead with ORC's walk 100Hz=<pct> 1kHz=<pct>
#		(the same profiler walking with ORC: what TCG makes of a
#		 walk at all)
#	bench: profiler achieved 100Hz=<hz> 1kHz=<hz>
#	bench: profiler throughput off=<rounds/s> 100Hz=... 1kHz=...
#		(mean and spread min-max of the three rounds)
#	bench: sample ratio kunwind/orc=<x>	(walk time per sample; goal <= 1)
#	bench: profiler retpoline thunk share=<pct> (the self-check round's
#		kernel samples that interrupted a retpoline thunk, where the
#		walk stops: counted as lost)
# and the self-check round's equal samples split by who walked them, its
# steps by tables and by the fallback, and its walks that stopped early.
#
# Under TCG absolute times mean little: shares and ratios are what count,
# and a 0.1 % throughput difference drowns in the spread, printed beside.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kernel=${1:-6.12}
out=${O:-$top/build}/bench/profile
mkdir -p "$out"
die() { echo "bench: error: $*" >&2; exit 1; }

# kunwind.ko with the kernel's vmlinux table (as tests/stock.test gets
# it): without one every vmlinux frame is a step of the ORC fallback.
case "$kernel" in
test | debug) ;;
*)	KUNWIND_STOCK_VMLINUX=$("$top/tests/harness/stock-vmlinux.sh" "$kernel") ||
		die "tests/harness/stock-vmlinux.sh $kernel failed: no vmlinux for its table"
	export KUNWIND_STOCK_VMLINUX
	[ "$KUNWIND_STOCK_VMLINUX" != no ] ||
		echo "bench: no vmlinux table for $kernel (stock-vmlinux.sh's reason above): vmlinux frames by the ORC fallback, the walk times are not kunwind's" ;;
esac

cat >"$out/bench.sh" <<'EOF'
#!/bin/sh
P=/sys/kernel/debug/kunwind/profile
W=/sys/module/kunwind_sample/parameters/work_loops
insmod /lib/kunwind/kunwind_sample.ko points=0 work=1 || exit 1
sleep 1
# round NAME HZ HANDLER SELFCHECK: 3 s of work, with the profiler unless HZ=0
round() {
	echo "$4" >$P/selfcheck
	if [ "$2" != 0 ]; then
		echo reset >$P/control
		echo "$2" >$P/frequency
		echo "$3" >$P/handler
		echo start >$P/control
	fi
	a=$(cat $W)
	sleep 3
	b=$(cat $W)
	[ "$2" != 0 ] && echo stop >$P/control
	echo "profile-bench: round $1 loops=$((b - a))"
	[ "$2" != 0 ] && sed "s/^/profile-bench: stat $1 /" $P/stats
}
for i in 1 2 3; do
	round off 0 kunwind 0
	round k100 100 kunwind 0
	round n100 100 noop 0
	round k1000 1000 kunwind 0
	round n1000 1000 noop 0
	round o100 100 orc 0
	round o1000 1000 orc 0
done
round check 1000 kunwind 1
rmmod kunwind_sample
EOF
chmod +x "$out/bench.sh"

log=$("$top/tests/harness/profile-boot.sh" --timeout 600 ${KUNWIND_BENCH_APPEND:+--append "$KUNWIND_BENCH_APPEND"} "$kernel" "$out/bench.sh" |
	tail -n1) || die "tests/harness/profile-boot.sh $kernel failed${log:+ (console: $log)}"
cp "$log" "$out/console.log"

python3 - "$out/console.log" <<'EOF'
import re, sys, statistics

loops, stats = {}, {}
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"profile-bench: round (\S+) loops=(\d+)", line)
    if m:
        loops.setdefault(m.group(1), []).append(int(m.group(2)) / 3)
    m = re.search(r"profile-bench: stat (\S+) (\w+): (\d+)", line)
    if m:
        stats.setdefault(m.group(1), {}).setdefault(m.group(2), []).append(
            int(m.group(3)))


def need(d, k):
    if k not in d:
        sys.exit("bench: error: no '%s' in the console (%s)" % (k, sys.argv[1]))
    return d[k]


def share(name):		# handler share, % of CPU time
    return statistics.mean(need(need(stats, name), "handler_ppm")) / 1e4


def rate(name):
    return statistics.mean(need(need(stats, name), "achieved_hz"))


def tput(name):
    v = need(loops, name)
    return "%.0f (%.0f-%.0f)" % (statistics.mean(v), min(v), max(v))


print("bench: profiler handler share kunwind 100Hz=%.4f%% 1kHz=%.4f%% "
      "no-op 100Hz=%.4f%% 1kHz=%.4f%%" % (share("k100"), share("k1000"),
                                         share("n100"), share("n1000")))
print("bench: profiler achieved 100Hz=%.0f 1kHz=%.0f" % (rate("k100"),
                                                        rate("k1000")))
print("bench: profiler throughput off=%s 100Hz=%s 1kHz=%s (rounds/s)"
      % (tput("off"), tput("k100"), tput("k1000")))
c = need(stats, "check")
kun, orc = need(c, "selfcheck_kunwind_ns")[0], need(c, "selfcheck_orc_ns")[0]
print("bench: profiler selfcheck equal=%d differ=%d orc_incomplete=%d"
      % (need(c, "selfcheck_equal")[0], need(c, "selfcheck_differ")[0],
         need(c, "selfcheck_orc_incomplete")[0]))
kern = need(c, "samples")[0] - need(c, "user_samples")[0]
th = need(c, "retpoline_thunk")[0]
print("bench: profiler selfcheck equal_tables=%d equal_fallback=%d (%d "
      "steps) steps tables=%d fallback=%d"
      % (need(c, "selfcheck_equal_tables")[0],
         need(c, "selfcheck_equal_fallback")[0],
         need(c, "selfcheck_equal_fallback_steps")[0],
         need(c, "steps_tables")[0], need(c, "steps_fallback")[0]))
print("bench: profiler stopped=%d of %d kernel samples (%.3f%%) lost=%d"
      % (need(c, "stopped")[0], kern,
         100.0 * need(c, "stopped")[0] / max(kern, 1), need(c, "lost")[0]))
print("bench: profiler retpoline thunk share=%.3f%% (%d of %d kernel samples;"
      " %d at a thunk's first instruction, %d stopped there)"
      % (100.0 * th / max(kern, 1), th, kern,
         need(c, "retpoline_thunk_entry")[0],
         need(c, "retpoline_thunk_stopped")[0]))
print("bench: profiler overhead 100Hz=%.4f 1kHz=%.4f"
      % (share("k100") - share("n100"), share("k1000") - share("n1000")))
print("bench: profiler overhead with ORC's walk 100Hz=%.4f 1kHz=%.4f"
      % (share("o100") - share("n100"), share("o1000") - share("n1000")))
print("bench: sample ratio kunwind/orc=%.3f" % (kun / orc if orc else 0))
EOF
