// SPDX-License-Identifier: GPL-2.0
/*
 * The oops and panic printer (unwind/linux/oops.c) without dying: what
 * kunwind_oops_show() prints is the walk's frames, bounded by the depth,
 * from registers or from its caller; and its per-CPU guard turns a death
 * during a backtrace into one line.  The printed text itself, beside the
 * kernel's own oops, is tests/death.test's (one QEMU boot per death).
 *
 * Printed at KERN_DEBUG, below the console's level: the KUnit console
 * stays free of traces (tests/harness/kunit-report.py fails on one).
 */
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/preempt.h>
#include <asm/irq_regs.h>
#include <asm/ptrace.h>
#include "unwind/linux/counters.h"
#include "unwind/linux/oops.h"
#include "unwind/linux/print.h"
#include "trace.h"

/* Frames of the walk from here, as kunwind_oops_show() walks them. */
static noinline unsigned int walk_here(struct kt_trace *t)
{
	kt_kunwind_here(t);
	return t->n;
}

static void oops_show_prints_every_frame(struct kunit *test)
{
	unsigned long before = kunwind_counter_read(KUNWIND_CNT_DEATHS);
	struct kt_trace *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int n_walk;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, t);

	/*
	 * Not below panic(): nothing is left out, all frames are printed.
	 * Both walks start one call below this function: walk_here()'s
	 * first frame is in walk_here(), the printer's in
	 * kunwind_oops_show().
	 */
	n_walk = walk_here(t);
	n = kunwind_oops_show(KUNWIND_DEATH_PANIC, NULL, KERN_DEBUG);
	KUNIT_EXPECT_EQ(test, n, (int)n_walk);
	KUNIT_EXPECT_GE(test, n, 3);
	KUNIT_EXPECT_EQ(test, kunwind_counter_read(KUNWIND_CNT_DEATHS),
			before + 1);
}

static void oops_depth_and_skip_bound_the_frames(struct kunit *test)
{
	struct kunwind_print p = { .loglvl = KERN_DEBUG, .what = "oops",
				   .max = KUNWIND_MAX_DEPTH };
	unsigned int all = kunwind_print_trace(NULL, &p);

	KUNIT_ASSERT_GE(test, all, 4U);
	p.skip = 2;
	KUNIT_EXPECT_EQ(test, kunwind_print_trace(NULL, &p), all - 2);
	p.skip = all;
	KUNIT_EXPECT_EQ(test, kunwind_print_trace(NULL, &p), 0U);
	p.skip = 1;
	p.max = 3;
	KUNIT_EXPECT_EQ(test, kunwind_print_trace(NULL, &p), 3U);
	p.skip = 0;
	p.max = 1;
	KUNIT_EXPECT_EQ(test, kunwind_print_trace(NULL, &p), 1U);
}

/*
 * A death of the context that is printing a backtrace:
 * kunwind_oops_guard_enter() stands for the one in progress.  The second
 * gets -EBUSY and is counted; after the first ends, a trace prints again.
 */
static void oops_guard_refuses_nested_death(struct kunit *test)
{
	unsigned long nested = kunwind_counter_read(KUNWIND_CNT_DEATHS_NESTED);
	bool first;
	int n;

	preempt_disable();
	first = kunwind_oops_guard_enter();
	n = kunwind_oops_show(KUNWIND_DEATH_OOPS, NULL, KERN_DEBUG);
	kunwind_oops_guard_leave();
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, first);
	KUNIT_EXPECT_EQ(test, n, -EBUSY);
	KUNIT_EXPECT_EQ(test,
			kunwind_counter_read(KUNWIND_CNT_DEATHS_NESTED),
			nested + 1);

	n = kunwind_oops_show(KUNWIND_DEATH_OOPS, NULL, KERN_DEBUG);
	KUNIT_EXPECT_GT(test, n, 0);
}

/*
 * A nested oops never returns to the trace it interrupted: it kills the
 * task.  The guard it left taken on that CPU must not silence the next
 * task that dies there: a kthread on the same CPU still prints.
 */
struct other_show {
	struct completion done;
	int shown;
};

static int other_show_fn(void *arg)
{
	struct other_show *o = arg;

	o->shown = kunwind_oops_show(KUNWIND_DEATH_OOPS, NULL, KERN_DEBUG);
	complete(&o->done);
	return 0;
}

static void oops_guard_not_stuck_after_a_death(struct kunit *test)
{
	struct other_show o = { .shown = -1 };
	struct task_struct *t;

	init_completion(&o.done);
	migrate_disable();
	KUNIT_EXPECT_TRUE(test, kunwind_oops_guard_enter());	/* never left */
	t = kthread_create(other_show_fn, &o, "kt-oops-other");
	if (!IS_ERR(t)) {
		kthread_bind(t, smp_processor_id());
		wake_up_process(t);
		wait_for_completion(&o.done);
	}
	kunwind_oops_guard_leave();
	migrate_enable();
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_GT(test, o.shown, 0);
}

/*
 * The guard left taken by a task that died while printing must not
 * refuse a later task that reuses its task_struct.  The reuse is played
 * by this task itself: the same task_struct with another start time (a
 * later fork's), for the span of one kunwind_oops_show(), preemption off.
 */
static void oops_guard_not_stuck_for_a_task_reusing_the_owners_struct(struct kunit *test)
{
	u64 start = current->start_time;
	bool first;
	int n;

	preempt_disable();
	first = kunwind_oops_guard_enter();	/* the owner, never left */
	current->start_time = start + 1;	/* a later task, same struct */
	n = kunwind_oops_show(KUNWIND_DEATH_OOPS, NULL, KERN_DEBUG);
	current->start_time = start;
	kunwind_oops_guard_leave();
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, first);
	KUNIT_EXPECT_GT(test, n, 0);
}

/* From an interrupt's registers, as the die notifier prints an oops. */
struct irq_show {
	struct hrtimer timer;
	struct kt_trace tr;
	unsigned int walked;
	int shown;
	bool done;
};

static enum hrtimer_restart irq_show_fn(struct hrtimer *t)
{
	struct irq_show *s = container_of(t, struct irq_show, timer);
	struct pt_regs *regs = get_irq_regs();

	if (regs && !user_mode(regs)) {
		kt_kunwind_regs(&s->tr, regs);
		s->walked = s->tr.n;
		s->shown = kunwind_oops_show(KUNWIND_DEATH_OOPS, regs,
					     KERN_DEBUG);
	}
	WRITE_ONCE(s->done, true);
	return HRTIMER_NORESTART;
}

static void oops_show_from_irq_regs(struct kunit *test)
{
	struct irq_show *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	hrtimer_init(&s->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	s->timer.function = irq_show_fn;
	for (i = 0; i < 50 && !s->shown; i++) {
		WRITE_ONCE(s->done, false);
		hrtimer_start(&s->timer, ns_to_ktime(200 * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_HARD);
		while (!READ_ONCE(s->done))
			cpu_relax();
		hrtimer_cancel(&s->timer);
	}
	KUNIT_ASSERT_GT_MSG(test, s->shown, 0,
			    "no kernel-mode interrupt regs in 50 tries");
	KUNIT_EXPECT_EQ(test, s->shown, (int)s->walked);
}

static struct kunit_case oops_test_cases[] = {
	KUNIT_CASE(oops_show_prints_every_frame),
	KUNIT_CASE(oops_depth_and_skip_bound_the_frames),
	KUNIT_CASE(oops_guard_refuses_nested_death),
	KUNIT_CASE(oops_guard_not_stuck_after_a_death),
	KUNIT_CASE(oops_guard_not_stuck_for_a_task_reusing_the_owners_struct),
	KUNIT_CASE(oops_show_from_irq_regs),
	{}
};

static struct kunit_suite oops_test_suite = {
	.name = "kunwind_oops",
	.test_cases = oops_test_cases,
};

kunit_test_suite(oops_test_suite);
