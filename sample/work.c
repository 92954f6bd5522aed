// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_sample.ko's work for the profilers (points.c says what the
 * module is): with work=1, a kthread, "ksample-work", that keeps a CPU
 * busy in this module's functions until rmmod, counting its rounds in the
 * work_loops parameter.  kunwind.ko's profiler and kunwind-guestprof
 * profile it (tests/profile.test, tests/guestprof.test, make bench).
 */
#define pr_fmt(fmt) "kunwind-sample: " fmt

#include <linux/moduleparam.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sort.h>

#include "sample.h"

/*
 * Work for the profiler (work=1): a kthread that keeps a CPU busy in
 * this module's functions, at several depths, and in vmlinux functions
 * they call (sort(), memset()), until rmmod.  What a profile of it must
 * show: ksample_work_* frames under kthread, named with the module.
 */
static bool ksample_work;
module_param_named(work, ksample_work, bool, 0444);
MODULE_PARM_DESC(work, "run a busy kthread for the profiler (default: no)");

static struct task_struct *ksample_work_task;
static long ksample_work_buf[256];
/* Rounds of work done: the throughput make bench compares. */
static unsigned long ksample_work_loops;
module_param_named(work_loops, ksample_work_loops, ulong, 0444);
MODULE_PARM_DESC(work_loops, "rounds of work=1's kthread so far");

static int ksample_work_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static noinline long ksample_work_leaf(long seed)
{
	long x = seed;
	int i;

	for (i = 0; i < 2000; i++)
		x = x * 6364136223846793005L + 1442695040888963407L;
	return x;
}

static noinline long ksample_work_sort(long seed)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(ksample_work_buf); i++)
		ksample_work_buf[i] = ksample_work_leaf(seed + i) >> 8;
	sort(ksample_work_buf, ARRAY_SIZE(ksample_work_buf), sizeof(long),
	     ksample_work_cmp, NULL);
	return ksample_work_buf[0];
}

static noinline long ksample_work_nest(int depth, long seed)
{
	long x;

	if (depth > 0)
		x = ksample_work_nest(depth - 1, seed + depth);
	else if (seed & 1)
		x = ksample_work_sort(seed);
	else
		x = ksample_work_leaf(seed);
	barrier();
	return x;
}

static int ksample_work_fn(void *unused)
{
	long seed = 1;

	while (!kthread_should_stop()) {
		seed = ksample_work_nest(seed & 7, seed) | 1;
		seed += ksample_work_leaf(seed) & 0xff;
		WRITE_ONCE(ksample_work_loops, ksample_work_loops + 1);
		cond_resched();
	}
	return 0;
}

int ksample_work_start(void)
{
	struct task_struct *t;

	if (!ksample_work)
		return 0;
	t = kthread_run(ksample_work_fn, NULL, "ksample-work");
	if (IS_ERR(t))
		return PTR_ERR(t);
	ksample_work_task = t;
	return 0;
}

void ksample_work_stop(void)
{
	if (ksample_work_task)
		kthread_stop(ksample_work_task);
	ksample_work_task = NULL;
}
