#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# In the guest of bench/kernels-bench.sh, after kunwind_kernels_bench.ko
# printed its traces: the fixed workload (/bin/kkb-workload, its loops
# from kkb.loops= on the command line), three times each way:
#
#	off		alone
#	perfF		under perf record -F F (cpu-clock: no PMU under TCG)
#	perfgF		under perf record -g -F F, for F = 100, 1000, 10000
#	profH-F		under kunwind.ko's profiler, handler H (kunwind, or
#			noop: the same event and rate, nothing walked), F = 100,
#			1000; only where kunwind.ko is loaded
#
# Each run prints "kkb: run <name> <rep> loops=<n> ns=<instructions>
# cpu=<its CPU time>" (bench/kernels/workload.c) and
# what the sampler said of it ("kkb: samples <name> <rep> <n>", the
# profiler's stats as "kkb: stat <name> <rep> <key>: <value>").  The
# kunwind kernel's count of who walked ends it.
loops=$(sed -n 's/.*kkb\.loops=\([0-9]*\).*/\1/p' /proc/cmdline)
W="/bin/kkb-workload ${loops:-20000}"
P=/sys/kernel/debug/kunwind/profile
echo -1 >/proc/sys/kernel/perf_event_paranoid

# run NAME REP CMD...: the workload's own line, and perf's sample count.
# Each run starts from the same state: the last run's perf.data gone, the
# page cache dropped, and a second of idle (free under sleep=off: the
# clock jumps) for the work the last run left behind (RCU callbacks,
# kworkers) to be done before, not during, this one.
run() {
	name=$1 rep=$2
	shift 2
	rm -f /tmp/perf.data /tmp/perf.data.old
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
	"$@" >/tmp/run.out 2>&1
	rc=$?
	sed -n "s/^kkb-workload: /kkb: run $name $rep /p" /tmp/run.out
	sed -n "s/.*perf record: Captured and wrote .* (\([0-9]*\) samples).*/kkb: samples $name $rep \1/p" /tmp/run.out
	[ $rc = 0 ] || { echo "kkb: failed $name $rep exit $rc"; cat /tmp/run.out; }
}

prof() {	# NAME REP HZ HANDLER
	echo 0 >$P/selfcheck
	echo reset >$P/control
	echo "$3" >$P/frequency
	echo "$4" >$P/handler
	echo start >$P/control
	run "$1" "$2" $W
	echo stop >$P/control
	sed "s/^/kkb: stat $1 $2 /" $P/stats
}

for rep in 1 2 3; do
	run off $rep $W
	for f in 100 1000 10000; do
		run perf$f $rep perf record -F $f -e cpu-clock -o /tmp/perf.data -- $W
		run perfg$f $rep perf record -g -F $f -e cpu-clock -o /tmp/perf.data -- $W
	done
	if [ -d $P ]; then
		for f in 100 1000; do
			prof prof-kunwind-$f $rep $f kunwind
			prof prof-noop-$f $rep $f noop
		done
	fi
done
if [ -r /sys/kernel/debug/unwind_kunwind ]; then
	echo "kkb: begin steps"
	cat /sys/kernel/debug/unwind_kunwind
	echo "kkb: end steps"
fi
echo "kkb: guest done"
