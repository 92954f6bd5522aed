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
#   kprobes	the KUnit kprobes suite (kprobes_test.ko): its KTAP lines
#   show	sysrq's show-state: every task's trace, by dump_stack()'s
#		printer
#   death-T	LKDTM's crash T through provoke-crash/DIRECT, written by
#		a subshell the oops kills: WARNING, WARNING_MESSAGE, BUG,
#		EXCEPTION, EXEC_NULL (a call through a NULL pointer); the
#		kernel's report of it
#   steps	the kunwind kernel's counts of who walked
#		(/sys/kernel/debug/unwind_kunwind): steps by table rows and
#		frames guessed from rbp, since boot
mark() { echo "unwinder-test: $1"; }

# One fatal crash (unwinder_fatal=T on the command line): the boot ends
# with the kernel's panic, after the report.
# T is a crash type, written to provoke-crash/DIRECT, or POINT:TYPE, a
# crash point LKDTM puts a kprobe on (INT_HW_IRQ_EN: handle_irq_event(),
# in hard interrupt context on the IRQ stack) and the crash it fires.
fatal=$(sed -n 's/.*unwinder_fatal=\([A-Z_:]*\).*/\1/p' /proc/cmdline)
if [ -n "$fatal" ]; then
	name=death-$(echo "$fatal" | tr : -)
	case $fatal in
	*:*)
		mark "begin $name"
		insmod /lkdtm.ko cpoint_name="${fatal%%:*}" \
			cpoint_type="${fatal#*:}" || exit 1
		# Interrupts come with console output: make some.
		i=0
		while [ $i -lt 50 ]; do
			echo "unwinder-test: waiting for $fatal"
			sleep 0.1
			i=$((i + 1))
		done
		;;
	*)
		insmod /lkdtm.ko || exit 1
		mark "begin $name"
		echo "$fatal" >/sys/kernel/debug/provoke-crash/DIRECT
		;;
	esac
	mark "end $name"
	echo "unwinder-test: $fatal did not end the boot"
	exit 1
fi

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

# Before any module is loaded (a module's load leaves work behind: its
# init memory freed after an RCU grace period by a kworker).
echo 1 >/proc/sys/kernel/sysrq
mark "begin show"
echo t >/proc/sysrq-trigger
# The console prints on after the write returns: let it drain.
sleep 1
mark "end show"


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
mark "begin kprobes"
insmod /kprobes_test.ko
mark "end kprobes"

insmod /lkdtm.ko || exit 1
for c in WARNING WARNING_MESSAGE BUG EXCEPTION EXEC_NULL; do
	mark "begin death-$c"
	(echo "$c" >/sys/kernel/debug/provoke-crash/DIRECT)
	mark "end death-$c"
done

if [ -r /sys/kernel/debug/unwind_kunwind ]; then
	mark "begin steps"
	cat /sys/kernel/debug/unwind_kunwind
	mark "end steps"
fi
exit 0
