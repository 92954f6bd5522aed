#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/unwinder.test's guest script (the initramfs's /test.sh), run the
# same on the ORC kernel and on the kunwind kernel: stack traces of the
# kernel's own clients, each section between "unwinder-test: begin NAME"
# and "unwinder-test: end NAME" on the console.
#
#   tasks	/proc/PID/stack of every task but this shell's, at a quiescent
#		point: "task PID COMM" then the frames
#   trigger	ftrace's stacktrace trigger on sched_process_exec, one exec
#		of /bin/true: the trace's <stack trace> lines, with offsets
#   steps	the kunwind kernel's counts of who walked
#		(/sys/kernel/debug/unwind_kunwind): steps by table rows and
#		frames guessed from rbp, since boot
mark() { echo "unwinder-test: $1"; }

# Let the boot's kthreads settle.
sleep 2

mark "begin tasks"
for d in /proc/[0-9]*; do
	pid=${d#/proc/}
	[ "$pid" = $$ ] && continue
	[ -r "$d/stack" ] || continue
	comm=$(cat "$d/comm" 2>/dev/null) || continue
	stack=$(cat "$d/stack" 2>/dev/null) || continue
	echo "task $pid $comm"
	echo "$stack"
done
mark "end tasks"

t=/sys/kernel/tracing
mount -t tracefs nodev $t 2>/dev/null
if [ -w $t/events/sched/sched_process_exec/trigger ]; then
	echo 1 >$t/options/sym-offset
	echo stacktrace >$t/events/sched/sched_process_exec/trigger
	/bin/true
	echo '!stacktrace' >$t/events/sched/sched_process_exec/trigger
	mark "begin trigger"
	cat $t/trace
	mark "end trigger"
else
	echo "unwinder-test: no sched_process_exec trigger"
	exit 1
fi
if [ -r /sys/kernel/debug/unwind_kunwind ]; then
	mark "begin steps"
	cat /sys/kernel/debug/unwind_kunwind
	mark "end steps"
fi
exit 0
