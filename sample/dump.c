// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_sample.ko's dump (points.c says what the module is).
 *
 * A panic for a memory dump (tests/harness/gdb-boot.sh): writing anything
 * to /sys/module/kunwind_sample/parameters/dump starts three kthreads that
 * sleep at different depths of module functions, prints the kernel's
 * trace of each (sched_show_task()), then panics in
 * ksample_dump_panic(), under the deaths' three-frame chain and the
 * writer's ksample_dump_set() (deaths.c's chain, the same).  A dump of the
 * panicked guest then holds stacks whose every frame is known, for gdb
 * and drgn to walk.  It prints
 *	kunwind-sample: dump begin
 *	kunwind-sample: dump sleeper N pid PID comm COMM depth D begin
 *	(sched_show_task()'s "task:COMM state:S ..." and its Call Trace)
 *	kunwind-sample: dump sleeper N end
 *	... (N = 1, 2, 3; depth 1, 3, 5; comm ksample-sleep1, -sleep3,
 *	-sleep5) ...
 *	kunwind-sample: dump panic cpu C pid PID comm COMM
 *	Kernel panic - not syncing: kunwind-sample: dump
 */
#define pr_fmt(fmt) "kunwind-sample: " fmt

#include <linux/moduleparam.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/debug.h>
#include <linux/pid.h>
#include <linux/wait.h>

#include "sample.h"

/*
 * The dump (the dump parameter).  Each sleeper is a kthread that goes
 * down a chain of module functions to its depth, then sleeps in a wait
 * that never ends: the panic comes first.  Distinct functions, not
 * recursion, so that every frame of a walk names its depth.
 */
struct ksample_sleeper {
	int depth;			/* 1 to 5 module frames above the wait */
	struct task_struct *task;
	bool waiting;			/* about to sleep in the wait */
};

static struct ksample_sleeper ksample_sleepers[] = {
	{ .depth = 1 }, { .depth = 3 }, { .depth = 5 },
};

static DECLARE_WAIT_QUEUE_HEAD(ksample_sleep_wq);

static noinline void ksample_sleep_wait(struct ksample_sleeper *s)
{
	WRITE_ONCE(s->waiting, true);
	/*
	 * Nothing wakes the queue and a kthread takes no signal: only
	 * kthread_stop() (rmmod after a failed start) ends the wait.
	 */
	while (!kthread_should_stop())
		wait_event_interruptible(ksample_sleep_wq,
					 kthread_should_stop());
}

static noinline void ksample_sleep5(struct ksample_sleeper *s)
{
	ksample_sleep_wait(s);
	barrier();
}

static noinline void ksample_sleep4(struct ksample_sleeper *s)
{
	ksample_sleep5(s);
	barrier();
}

static noinline void ksample_sleep3(struct ksample_sleeper *s)
{
	if (s->depth > 3)
		ksample_sleep4(s);
	else
		ksample_sleep_wait(s);
	barrier();
}

static noinline void ksample_sleep2(struct ksample_sleeper *s)
{
	ksample_sleep3(s);
	barrier();
}

static noinline void ksample_sleep1(struct ksample_sleeper *s)
{
	if (s->depth > 1)
		ksample_sleep2(s);
	else
		ksample_sleep_wait(s);
	barrier();
}

static int ksample_sleep_thread(void *data)
{
	ksample_sleep1(data);
	return 0;
}

/* Sleepers left by a dump whose start failed part way. */
void ksample_dump_stop(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ksample_sleepers); i++) {
		if (ksample_sleepers[i].task)
			kthread_stop(ksample_sleepers[i].task);
		ksample_sleepers[i].task = NULL;
	}
}

static noinline void ksample_dump_panic(void)
{
	preempt_disable();	/* the cpu printed is the one that panics */
	pr_info("dump panic cpu %d pid %d comm %s\n", smp_processor_id(),
		task_pid_nr(current), current->comm);
	panic("kunwind-sample: dump");
}

static int ksample_dump_set(const char *val, const struct kernel_param *kp)
{
	struct ksample_sleeper *s;
	int i, ret;

	pr_info("dump begin\n");
	for (i = 0; i < ARRAY_SIZE(ksample_sleepers); i++) {
		s = &ksample_sleepers[i];
		if (s->task)
			return -EBUSY;	/* a start that failed part way */
		s->task = kthread_run(ksample_sleep_thread, s,
				      "ksample-sleep%d", s->depth);
		if (IS_ERR(s->task)) {
			ret = PTR_ERR(s->task);
			s->task = NULL;
			return ret;
		}
	}
	for (i = 0; i < ARRAY_SIZE(ksample_sleepers); i++) {
		s = &ksample_sleepers[i];
		if (!ksample_asleep(s->task) || !READ_ONCE(s->waiting))
			pr_warn("dump sleeper %d does not sleep in its wait\n",
				i + 1);
		pr_info("dump sleeper %d pid %d comm %s depth %d begin\n",
			i + 1, task_pid_nr(s->task), s->task->comm, s->depth);
		sched_show_task(s->task);
		pr_info("dump sleeper %d end\n", i + 1);
	}
	ksample_die_depth1(ksample_dump_panic);
	barrier();	/* keeps this frame: no tail call */
	return 0;
}

static const struct kernel_param_ops ksample_dump_ops = {
	.set = ksample_dump_set,
};
module_param_cb(dump, &ksample_dump_ops, NULL, 0200);
MODULE_PARM_DESC(dump, "write anything: three sleeping kthreads, then panic");
