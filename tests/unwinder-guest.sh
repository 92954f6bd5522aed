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
#   nmi		sysrq's show-backtrace-all-active-CPUs: the other CPU
#		walked in NMI context (an NMI IPI), this one directly
#   trigger	ftrace's stacktrace trigger on sched_process_exec, one exec
#		of /bin/true: the trace's <stack trace> lines, with offsets
#   kprobes	the KUnit kprobes suite (kprobes_test.ko): its KTAP lines
#   show	sysrq's show-state: every task's trace, by dump_stack()'s
#		printer
#   sample	kunwind.ko and kunwind's sample module (sample/points.c):
#		at each point the kernel's dump_stack() beside kunwind.ko's
#		trace; one more point from a sysfs write, the exit point at
#		rmmod.  On the kunwind kernel kunwind.ko registers the
#		kernel's own vmlinux table and every module's .kunwind
#   perf	perf record -g (Debian's linux-perf, /bin/perf) on two
#		tracepoints hit by known paths, sched_process_exec and
#		sched_process_fork, around sh -c with three /bin/true (four
#		execs: sh's and the trues'; two forks: the last true is
#		exec'd in place), while function_graph traces bprm_execve and
#		kernel_clone and kretprobes sit on do_execveat_common and
#		kernel_clone (whose return address both rewrite): return
#		addresses on the stack the walk must see through; perf
#		script's samples, then how often each tracer hit
#   (then, in a boot of their own on one CPU, unwinder_part=selftests:)
#   ftracetest	ftrace's own selftests that take stack traces
#		(tools/testing/selftests/ftrace, in /ftrace): its lines
#   livepatch	the livepatch selftests (tools/testing/selftests/livepatch,
#		in /livepatch, their test modules built on the host against
#		this kernel): every script's output and exit status
#   tramp	an ftrace instance's function tracer with func_stack_trace
#		on LKDTM's lkdtm_debugfs_read() (a read of its DIRECT
#		file): the traces walk through the instance's dynamic
#		trampoline into module text
#   death-T	LKDTM's crash T through provoke-crash/DIRECT, written by
#		a subshell the oops kills: WARNING, WARNING_MESSAGE, BUG,
#		EXCEPTION, EXEC_NULL (a call through a NULL pointer); the
#		kernel's report of it
#   textgen	the kunwind kernel's count of text changes its lookup
#		caches were told of, before and after insmod and rmmod of
#		lkdtm
#   steps	the kunwind kernel's counts of who walked
#		(/sys/kernel/debug/unwind_kunwind): steps by table rows and
#		frames guessed from rbp, since boot
mark() { echo "unwinder-test: $1"; }

# ftrace's and livepatch's own selftests (a boot of their own).
selftests() {
	# ftrace's selftests that take stack traces, as upstream runs them.
	mark "begin ftracetest"
	(cd /ftrace && ./ftracetest -v $(cat tests))
	echo "ftracetest exit $?"
	mark "end ftracetest"

	# The livepatch selftests: each script as kselftest runs it, from its
	# directory.  KDIR only has to exist (functions.sh's has_kdir): the test
	# modules were built on the host against this kernel.
	mark "begin livepatch"
	ln -s /proc/self/fd /dev/fd 2>/dev/null
	# Each script's output is kept apart and shown after it: on the console
	# the kernel's messages would split its lines.
	for lp in /livepatch/test-*.sh; do
		echo "livepatch-script ${lp##*/}"
		(cd /livepatch && KDIR=/livepatch bash "$lp") >/tmp/livepatch.out 2>&1
		rc=$?
		cat /tmp/livepatch.out
		echo "livepatch-exit ${lp##*/} $rc"
	done
	mark "end livepatch"
}

# The kunwind kernel's count of who walked, since boot.
steps() {
	if [ -r /sys/kernel/debug/unwind_kunwind ]; then
		mark "begin steps"
		cat /sys/kernel/debug/unwind_kunwind
		mark "end steps"
	fi
}

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
		# The tty's output and printk's are flushed each on its own:
		# the marker must be out before the panic's report (seen: the
		# marker in the middle of the register dump, under load).
		sleep 0.5
		echo "$fatal" >/sys/kernel/debug/provoke-crash/DIRECT
		;;
	esac
	mark "end $name"
	echo "unwinder-test: $fatal did not end the boot"
	exit 1
fi

# The code-patching selftests, a boot of their own on one CPU
# (unwinder_part=selftests on the command line; tests/unwinder.test says
# why): ftracetest, then livepatch, then the steps, then the end.
if grep -q 'unwinder_part=selftests' /proc/cmdline; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	selftests
	steps
	exit 0
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
# The tty's output and printk's are flushed each on its own: the tasks'
# lines and the marker out first (seen: show-state's first lines in the
# middle of the last task's stack, under load).
sleep 0.5
echo t >/proc/sysrq-trigger
# The console prints on after the write returns: let it drain.
sleep 1
mark "end show"

# Every CPU's stack from an NMI (sysrq l: trigger_all_cpu_backtrace()),
# while a reader of /dev/zero keeps the other CPU busy, mostly in the
# kernel (an idle CPU is skipped); three times, for an NMI that lands in
# the kernel.
cat /dev/zero >/dev/null &
busy=$!
sleep 0.5
mark "begin nmi"
sleep 0.5
for i in 1 2 3; do
	echo l >/proc/sysrq-trigger
	sleep 0.5
done
mark "end nmi"
kill $busy
wait $busy 2>/dev/null


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
	echo 0 >$t/options/sym-offset
	echo >$t/trace
else
	echo "unwinder-test: no sched_process_exec trigger"
	exit 1
fi
mark "begin kprobes"
insmod /kprobes_test.ko
mark "end kprobes"

mark "begin sample"
insmod /kunwind.ko && insmod /kunwind_sample.ko &&
	echo 1 >/sys/module/kunwind_sample/parameters/trigger &&
	rmmod kunwind_sample
echo "sample exit $?"
mark "end sample"

# Gone again, so that the crashes below get the kernel's report alone on
# both kernels (on the ORC kernel kunwind.ko adds its own trace).
rmmod kunwind

# perf's kernel callchains (perf_callchain_kernel(), the unwinder from
# the sampled registers) through rewritten return addresses.
echo 0 >/proc/sys/kernel/kptr_restrict
echo -1 >/proc/sys/kernel/perf_event_paranoid
echo 'bprm_execve kernel_clone' >$t/set_ftrace_filter
echo function_graph >$t/current_tracer
echo 'r:kunwind_exec do_execveat_common' >>$t/kprobe_events
echo 'r:kunwind_clone kernel_clone' >>$t/kprobe_events
echo 1 >$t/events/kprobes/enable
perf record -q -g -e sched:sched_process_exec -e sched:sched_process_fork \
	-o /tmp/perf.data -- sh -c '/bin/true; /bin/true; /bin/true' ||
	echo "unwinder-test: perf record failed"
echo 0 >$t/events/kprobes/enable
echo 0 >$t/tracing_on
mark "begin perf"
perf script -i /tmp/perf.data -F comm,event,ip,sym,symoff,dso 2>&1
# The tracers were there: function_graph's entries, the kretprobes' hits
# (read before the tracer is changed: that empties the buffer).
for f in bprm_execve kernel_clone; do
	echo "perf-tracer function_graph $f $(grep -c " $f()" $t/trace)"
done
for e in kunwind_exec kunwind_clone; do
	echo "perf-tracer kretprobe $e $(grep -c " $e: " $t/trace)"
done
mark "end perf"
echo nop >$t/current_tracer
echo 1 >$t/tracing_on
echo >$t/trace
echo >$t/set_ftrace_filter
echo >$t/kprobe_events

# The kunwind kernel's lookup caches forget text that comes or goes:
# text_changes counts the bumps, one when a module's table arrives, one
# when its init text is freed, one when the module is freed.
if [ -r /sys/kernel/debug/unwind_kunwind ]; then
	mark "begin textgen"
	tc() { sed -n 's/^text_changes /text-changes /p' /sys/kernel/debug/unwind_kunwind; }
	tc
	insmod /lkdtm.ko || exit 1
	tc
	rmmod lkdtm
	tc
	mark "end textgen"
fi

insmod /lkdtm.ko || exit 1

# Through a dynamic ftrace trampoline into module text: an instance's
# own function tracer (its own ftrace_ops, so the traced function calls
# a trampoline made for it) on LKDTM's lkdtm_debugfs_read(), which a
# read of its DIRECT file calls, with func_stack_trace: each trace walks
# from the tracer's callback through the trampoline into the module's
# frame and on (the kunwind kernel's runs must not keep the trampoline's
# moved vmlinux segment for the module's lookups).  Read before the
# tracer goes: that empties the buffer.
i=$t/instances/kunwind
if mkdir $i && echo lkdtm_debugfs_read >$i/set_ftrace_filter &&
   echo function >$i/current_tracer && echo 1 >$i/options/sym-offset &&
   echo 1 >$i/options/func_stack_trace; then
	cat /sys/kernel/debug/provoke-crash/DIRECT >/dev/null
	echo 0 >$i/tracing_on
	mark "begin tramp"
	cat $i/trace
	mark "end tramp"
	echo 0 >$i/options/func_stack_trace
	echo nop >$i/current_tracer
	rmdir $i
else
	echo "unwinder-test: no instance function tracer on lkdtm_debugfs_read"
	exit 1
fi

for c in WARNING WARNING_MESSAGE BUG EXCEPTION EXEC_NULL; do
	# The console is the tty's and printk's, each flushed on its own:
	# let the marker be out before the crash report, and the report
	# before the next marker.
	mark "begin death-$c"
	sleep 0.5
	(echo "$c" >/sys/kernel/debug/provoke-crash/DIRECT)
	sleep 0.5
	mark "end death-$c"
done

steps
exit 0
