// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_orc: kunwind's walks of real stacks equal the kernel's ORC
 * walks frame for frame (trace.c), from many points:
 *
 *   - module functions of this module (tables embedded by the one-line
 *     opt-in) at several depths and of several frame shapes: plain,
 *     a large frame, a variable-length array (CFA on rbp), a realigned
 *     stack (rbp), a realigned stack with a DRAP register (DWARF says it
 *     with an expression kunwind does not interpret: the ORC fallback
 *     must make that one step, flagged, and nothing else differs), stack
 *     arguments, and a __cold function (the kernel builds with
 *     -fno-reorder-blocks-and-partition: no .cold parts; .text.unlikely is
 *     covered by the registry suite's helper module);
 *   - the public save API against stack_trace_save() through one shared
 *     call instruction, so even the first entry must be equal;
 *   - a hardirq: an hrtimer (HRTIMER_MODE_REL_PINNED_HARD) interrupting
 *     this module's code; get_irq_regs() there is the interrupted frame,
 *     walked by kunwind_walk(regs)/kunwind_save_regs() and by ORC from
 *     the same regs (as stack_trace_save_regs() would), and the IRQ stack
 *     itself walked from the callback, through the entry code to the task
 *     stack;
 *   - a softirq: a timer_list callback;
 *   - a sleeping kthread, parked inside this module at some depth:
 *     kunwind_walk(task) against ORC's walk of the task, and
 *     kunwind_save_tsk() against stack_trace_save_tsk().
 */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/timer.h>
#include <asm/irq_regs.h>
#include <asm/ptrace.h>
#include "oracle.h"
#include "trace.h"

struct point {
	struct kunit *test;
	struct kt_trace kun, orc;
	long sink;
};

/* ---- frame shapes: each calls kt_both_here() at the bottom ---- */

static noinline long shape_plain(struct point *p)
{
	kt_both_here(&p->kun, &p->orc);
	p->sink++;
	return p->sink;
}

/* The arrays live across the walk: barrier_data() keeps them. */
static noinline long shape_big_frame(struct point *p)
{
	char buf[768];

	memset(buf, 1, sizeof(buf));
	barrier_data(buf);
	kt_both_here(&p->kun, &p->orc);
	barrier_data(buf);
	return buf[p->sink & 511];
}

static noinline long shape_vla(struct point *p, int n)
{
	char buf[n];

	memset(buf, 1, n);
	barrier_data(buf);
	kt_both_here(&p->kun, &p->orc);
	barrier_data(buf);
	return buf[n - 1];
}

static noinline long shape_realigned(struct point *p)
{
	char buf[64] __aligned(64);

	memset(buf, 1, sizeof(buf));
	barrier_data(buf);
	kt_both_here(&p->kun, &p->orc);
	barrier_data(buf);
	return buf[p->sink & 63];
}

/* Realigned and variable-length: GCC keeps the CFA in r10 (DRAP). */
static noinline long shape_drap(struct point *p, int n)
{
	char buf[64] __aligned(64);
	char vla[n];

	memset(buf, 1, sizeof(buf));
	memset(vla, 2, n);
	barrier_data(buf);
	barrier_data(vla);
	kt_both_here(&p->kun, &p->orc);
	barrier_data(buf);
	barrier_data(vla);
	return buf[p->sink & 63] + vla[n - 1];
}

static noinline long shape_stack_args(struct point *p, long a, long b, long c,
				      long d, long e, long f, long g, long h)
{
	kt_both_here(&p->kun, &p->orc);
	p->sink += a + b + c + d + e + f + g + h;
	return p->sink;
}

static noinline __cold void cold_report(struct point *p)
{
	kt_both_here(&p->kun, &p->orc);
	p->sink++;
}

/* An unlikely block calling a __cold function. */
static noinline long shape_cold(struct point *p, long x)
{
	if (unlikely(x == 42)) {
		cold_report(p);
		return p->sink + x;
	}
	return x * 3 + p->sink;
}

enum shape { PLAIN, BIG, VLA, REALIGNED, DRAP, STACK_ARGS, COLD, NR_SHAPES };

static noinline long shape_call(struct point *p, enum shape s)
{
	long r = 0;

	switch (s) {
	case PLAIN:
		r = shape_plain(p);
		break;
	case BIG:
		r = shape_big_frame(p);
		break;
	case VLA:
		r = shape_vla(p, 40 + (p->sink & 7));
		break;
	case REALIGNED:
		r = shape_realigned(p);
		break;
	case DRAP:
		r = shape_drap(p, 24 + (p->sink & 7));
		break;
	case STACK_ARGS:
		r = shape_stack_args(p, 1, 2, 3, 4, 5, 6, 7, 8);
		break;
	case COLD:
		r = shape_cold(p, 42);
		break;
	default:
		break;
	}
	p->sink += r;
	return r;
}

/* Not a tail call, and no accumulator GCC could turn into a loop. */
static noinline long recurse(struct point *p, int depth, enum shape s)
{
	long r;

	if (depth <= 0)
		r = shape_call(p, s);
	else
		r = recurse(p, depth - 1, s);
	p->sink ^= r;
	return r;
}

struct orc_case {
	const char *name;
	int depth;
	enum shape shape;
};

static const struct orc_case orc_cases[] = {
	{ "plain_depth_0", 0, PLAIN },
	{ "plain_depth_1", 1, PLAIN },
	{ "plain_depth_3", 3, PLAIN },
	{ "plain_depth_10", 10, PLAIN },
	{ "plain_depth_30", 30, PLAIN },
	{ "big_frame_depth_2", 2, BIG },
	{ "variable_length_array_depth_2", 2, VLA },
	{ "realigned_stack_depth_2", 2, REALIGNED },
	{ "realigned_stack_drap_depth_2", 2, DRAP },
	{ "stack_arguments_depth_2", 2, STACK_ARGS },
	{ "cold_function_depth_2", 2, COLD },
};

static void orc_case_desc(const struct orc_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(orc, orc_cases, orc_case_desc);

static void orc_walk_from_module_function_equals_orc(struct kunit *test)
{
	const struct orc_case *c = test->param_value;
	struct point *p;
	unsigned int i, orc_steps = 0, drap_rows = 0;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	recurse(p, c->depth, c->shape);
	kt_expect_same_trace(test, c->name, &p->kun, &p->orc, false);
	/* depth + recurse at depth 0 + shape_call + the shape function */
	KUNIT_EXPECT_GE(test, p->kun.n, (unsigned int)c->depth + 3);
	KUNIT_EXPECT_EQ_MSG(test, p->kun.stop, KUNWIND_STOP_END,
			    "walk stopped: %s", kunwind_stop_str(p->kun.stop));

	/*
	 * Module frames come from this module's table, not from the
	 * fallback: every return address into this module before the first
	 * frame of the kernel proper, the DRAP frame's included (its CFA is
	 * the expression *(rbp + N), KUNWIND_REG_BP_INDIRECT).  Its row is
	 * read from this module's own section, not through the registry:
	 * proven here, not assumed.
	 */
	for (i = 0; i + 1 < p->kun.n; i++) {
		struct kt_cover_info ci;
		bool in_this = within_module(p->kun.ip[i], THIS_MODULE);

		if (!in_this)
			continue;
		if (kt_cover(p->kun.ip[i] - 1, &ci) == KT_COVER_ROW &&
		    ci.rule.type == KUNWIND_TYPE_CALL &&
		    ci.rule.reg == KUNWIND_REG_BP_INDIRECT)
			drap_rows++;
		if (!(p->kun.flags[i + 1] & KUNWIND_FRAME_ORC))
			continue;
		orc_steps++;
		KUNIT_FAIL(test,
			   "%pS: the step to its caller came from ORC (%s), not from this module's table",
			   (void *)p->kun.ip[i],
			   kunwind_fallback_str(p->kun.fallback[i + 1]));
	}
	KUNIT_EXPECT_EQ(test, orc_steps, 0u);
	if (c->shape == DRAP)
		KUNIT_EXPECT_GE_MSG(test, drap_rows, 1u,
				    "no frame of the DRAP function was on a *(rbp + N) row");
}

/* ---- the save API against stack_trace_save() ---- */

typedef unsigned int (*save_fn)(unsigned long *store, unsigned int size,
				unsigned int skip, struct kunwind_steps *steps);

/*
 * stack_trace_save() as a save_fn: its first address is the return
 * address into this wrapper, skipped, so that the trace starts, as
 * kunwind_save()'s does, with the return address into save_through().
 * The empty asm after the call keeps it a call (no sibling call).
 */
static noinline unsigned int orc_save(unsigned long *store, unsigned int size,
				      unsigned int skip,
				      struct kunwind_steps *steps)
{
	unsigned int n = stack_trace_save(store, size, skip + 1);

	asm volatile("");
	return n;
}

/* One call instruction for both: even the first entries must agree. */
static noinline unsigned int save_through(save_fn fn, unsigned long *store,
					  unsigned int size, unsigned int skip,
					  struct kunwind_steps *steps)
{
	unsigned int n = fn(store, size, skip, steps);

	barrier();
	return n;
}

struct save_ctx {
	unsigned long store[2][KT_MAX_FRAMES];
	unsigned int n[2], skip;
	struct kunwind_steps steps;	/* kunwind_save()'s */
};

/*
 * Both walks go down the same call instructions, the last one in
 * save_through(): every entry, the first included, must be equal.
 */
static noinline void save_at_depth(struct save_ctx *s, int depth, int which)
{
	static const save_fn fns[2] = { kunwind_save, orc_save };

	if (depth > 0) {
		save_at_depth(s, depth - 1, which);
		barrier();
		return;
	}
	s->n[which] = save_through(fns[which], s->store[which], KT_MAX_FRAMES,
				   s->skip, &s->steps);
}

static void expect_same_array(struct kunit *test, const char *what,
			      const unsigned long *kun, unsigned int nk,
			      const unsigned long *orc, unsigned int no)
{
	unsigned int i;

	KUNIT_EXPECT_EQ_MSG(test, nk, no, "%s: kunwind %u entries, ORC %u",
			    what, nk, no);
	for (i = 0; i < min(nk, no); i++) {
		if (kun[i] != orc[i]) {
			KUNIT_FAIL(test, "%s: entry %u: kunwind %pS, ORC %pS",
				   what, i, (void *)kun[i], (void *)orc[i]);
			break;
		}
	}
}

static void orc_save_equals_stack_trace_save(struct kunit *test)
{
	static const unsigned int skips[] = { 0, 1, 3 };
	struct save_ctx *s;
	unsigned int i;
	int depth, which;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	for (depth = 0; depth <= 12; depth += 4) {
		for (i = 0; i < ARRAY_SIZE(skips); i++) {
			s->skip = skips[i];
			/* Hidden: GCC must not unroll this into two calls. */
			for (which = 0; which < 2; which++) {
				OPTIMIZER_HIDE_VAR(which);
				save_at_depth(s, depth, which);
			}
			expect_same_array(test, "kunwind_save", s->store[0], s->n[0],
					  s->store[1], s->n[1]);
			kt_expect_save_steps(test, "kunwind_save", s->store[0],
					     s->n[0], false, &s->steps);
		}
	}
	/* skip 0: the first entry is the return address into save_through(). */
	s->skip = 0;
	save_at_depth(s, 0, 0);
	KUNIT_EXPECT_TRUE_MSG(test, s->n[0] > 0 && kt_ip_in(s->store[0][0], "save_through"),
			      "first entry %pS", (void *)s->store[0][0]);
}

static void orc_save_respects_size(struct kunit *test)
{
	unsigned long store[3] = { 0 }, full[KT_MAX_FRAMES];
	unsigned int n = kunwind_save(store, 3, 0, NULL);
	unsigned int nf = kunwind_save(full, KT_MAX_FRAMES, 0, NULL);

	KUNIT_EXPECT_EQ(test, n, 3u);
	KUNIT_EXPECT_GT(test, nf, 3u);
	KUNIT_EXPECT_EQ(test, kunwind_save(store, 0, 0, NULL), 0u);
}

/* ---- hardirq: an hrtimer interrupting this module ---- */

struct irq_probe {
	struct hrtimer timer;
	struct kt_trace kun_regs, orc_regs, kun_irq, orc_irq;
	unsigned long saved[KT_MAX_FRAMES];
	unsigned int nsaved;
	struct kunwind_steps steps;
	unsigned long regs_ip;
	int tries, done;		/* done: 1 walked, -1 gave up */
	bool saw_module_ip;
};

/* Spins in this module until the hrtimer has walked from its regs. */
static noinline void irq_spin(struct irq_probe *p)
{
	while (!READ_ONCE(p->done))
		cpu_relax();
}

static enum hrtimer_restart irq_probe_fn(struct hrtimer *t)
{
	struct irq_probe *p = container_of(t, struct irq_probe, timer);
	int ret;
	/* Walk only when the interrupt hit the spin loop itself. */
	struct pt_regs *regs = kt_irq_regs_in(t, "irq_spin", &p->tries, &ret);

	if (!regs) {
		if (ret == HRTIMER_NORESTART)
			WRITE_ONCE(p->done, -1);
		return ret;
	}
	p->regs_ip = regs->ip;
	kt_kunwind_regs(&p->kun_regs, regs);
	kt_orc_regs(&p->orc_regs, regs);
	p->nsaved = kunwind_save_regs(regs, p->saved, KT_MAX_FRAMES, 0, &p->steps);
	kt_both_here(&p->kun_irq, &p->orc_irq);
	WRITE_ONCE(p->done, 1);
	return HRTIMER_NORESTART;
}

static noinline void irq_at_depth(struct irq_probe *p, int depth)
{
	if (depth > 0) {
		irq_at_depth(p, depth - 1);
		barrier();
		return;
	}
	/* Stay on this CPU, with interrupts on, until the timer walked. */
	preempt_disable();
	hrtimer_start(&p->timer, ns_to_ktime(500 * NSEC_PER_USEC), HRTIMER_MODE_REL_PINNED_HARD);
	irq_spin(p);
	preempt_enable();
}

static void orc_walk_from_hardirq_regs_equals_orc(struct kunit *test)
{
	struct irq_probe *p;
	unsigned int i;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	p->timer.function = irq_probe_fn;
	irq_at_depth(p, 3);
	hrtimer_cancel(&p->timer);
	KUNIT_ASSERT_EQ_MSG(test, p->done, 1,
			    "the hrtimer never interrupted irq_spin() (%d tries)",
			    p->tries);

	/* From the interrupted registers: first frame regs->ip, exact. */
	KUNIT_EXPECT_EQ(test, p->kun_regs.ip[0], p->regs_ip);
	KUNIT_EXPECT_TRUE(test, p->kun_regs.flags[0] & KUNWIND_FRAME_REGS);
	kt_expect_same_trace(test, "from get_irq_regs()", &p->kun_regs,
			     &p->orc_regs, false);
	/* irq_spin, then irq_at_depth x 4, in this module's table. */
	for (i = 0; i < 5 && i < p->kun_regs.n; i++)
		KUNIT_EXPECT_FALSE_MSG(test, p->kun_regs.flags[i + 1] & KUNWIND_FRAME_ORC,
				       "frame %u (%pS) came from the ORC fallback",
				       i + 1, (void *)p->kun_regs.ip[i + 1]);
	/* kunwind_save_regs() reports the same addresses. */
	KUNIT_EXPECT_EQ(test, p->nsaved, p->kun_regs.n);
	for (i = 0; i < min(p->nsaved, p->kun_regs.n); i++)
		KUNIT_EXPECT_EQ(test, p->saved[i], p->kun_regs.ip[i]);
	kt_expect_save_steps(test, "kunwind_save_regs", p->saved, p->nsaved,
			     true, &p->steps);

	/* From the callback on the IRQ stack, through the entry code. */
	kt_expect_same_trace(test, "in the hrtimer callback", &p->kun_irq,
			     &p->orc_irq, false);
	KUNIT_EXPECT_TRUE_MSG(test, kt_trace_has(&p->kun_irq, p->regs_ip, p->regs_ip + 1),
			      "the walk from the IRQ stack did not reach the interrupted ip %pS",
			      (void *)p->regs_ip);
}

/* ---- softirq: a timer_list callback ---- */

struct softirq_probe {
	struct timer_list timer;
	struct kt_trace kun, orc;
	struct completion done;
};

static void softirq_probe_fn(struct timer_list *t)
{
	struct softirq_probe *p = from_timer(p, t, timer);

	kt_both_here(&p->kun, &p->orc);
	complete(&p->done);
}

static void orc_walk_from_softirq_equals_orc(struct kunit *test)
{
	struct softirq_probe *p;

	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	init_completion(&p->done);
	timer_setup(&p->timer, softirq_probe_fn, 0);
	mod_timer(&p->timer, jiffies + 1);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&p->done, 10 * HZ));
	del_timer_sync(&p->timer);
	kt_expect_same_trace(test, "timer_list callback", &p->kun, &p->orc, false);
	KUNIT_EXPECT_GE(test, p->kun.n, 3u);
}

/* ---- a sleeping kthread ---- */

static void orc_walk_of_sleeping_kthread_equals_orc(struct kunit *test)
{
	unsigned long *saved, *saved_orc;
	struct kunwind_steps steps;
	struct kt_trace *kun, *orc;
	struct kt_sleeper *s;
	struct task_struct *t;
	unsigned int n, no, i, in_module = 0;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	kun = kunit_kzalloc(test, sizeof(*kun), GFP_KERNEL);
	orc = kunit_kzalloc(test, sizeof(*orc), GFP_KERNEL);
	saved = kunit_kcalloc(test, 2 * KT_MAX_FRAMES, sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, s && kun && orc && saved);
	saved_orc = saved + KT_MAX_FRAMES;
	t = kt_sleeper_start(test, s, 4);
	if (!t)
		return;
	kt_kunwind_task(kun, t);
	kt_orc_task(orc, t);
	n = kunwind_save_tsk(t, saved, KT_MAX_FRAMES, 0, &steps);
	no = stack_trace_save_tsk(t, saved_orc, KT_MAX_FRAMES, 0);
	kt_sleeper_stop(s);

	kt_expect_same_trace(test, "sleeping kthread", kun, orc, false);
	KUNIT_EXPECT_EQ_MSG(test, kun->stop, KUNWIND_STOP_END, "walk stopped: %s",
			    kunwind_stop_str(kun->stop));
	for (i = 0; i < kun->n; i++)
		in_module += within_module(kun->ip[i], THIS_MODULE);
	/* sleeper_bottom, sleeper_recurse x 5, sleeper_fn (trace.c) */
	KUNIT_EXPECT_EQ(test, in_module, 7u);
	/*
	 * kunwind_save_tsk() is stack_trace_save_tsk(): both leave out the
	 * scheduler's own frames (in_sched_functions()).
	 */
	expect_same_array(test, "kunwind_save_tsk", saved, n, saved_orc, no);
	/*
	 * Its walk steps over the scheduler's frames too, which it does not
	 * store: the oracle is asked about every frame of kunwind_walk()'s.
	 */
	kt_expect_save_steps(test, "kunwind_save_tsk", kun->ip, kun->n, false,
			     &steps);
	KUNIT_EXPECT_LT(test, n, kun->n);
}

/* kunwind refuses to walk a task that runs: its stack changes under us. */
static int spinner_fn(void *arg)
{
	while (!kthread_should_stop())
		cpu_relax();
	return 0;
}

static void orc_walk_refuses_running_task(struct kunit *test)
{
	struct task_struct *t;
	struct kt_trace *kun;
	int cpu = raw_smp_processor_id(), i;
	bool running = false;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	kun = kunit_kzalloc(test, sizeof(*kun), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, kun);
	t = kthread_create(spinner_fn, NULL, "kunwind_spinner");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, cpumask_any_but(cpu_online_mask, cpu));
	get_task_struct(t);
	wake_up_process(t);
	for (i = 0; i < 1000 && !running; i++) {
		running = READ_ONCE(t->on_cpu);
		if (!running)
			usleep_range(1000, 2000);
	}
	if (running)
		kt_kunwind_task(kun, t);
	kthread_stop(t);
	put_task_struct(t);
	KUNIT_ASSERT_TRUE_MSG(test, running, "the spinner never ran");
	KUNIT_EXPECT_EQ(test, kun->n, 0u);
	KUNIT_EXPECT_EQ(test, kun->stop, KUNWIND_STOP_BAD_READ);
}

static void orc_comparison_summary(struct kunit *test)
{
	const unsigned long *c = kt_stats.cover;

	kunit_info(test, "compared %lu frames, %lu traces differed; %lu frames by the ORC fallback, by what the tables (read without the registry) say of the address stepped from: no table %lu, no row %lu, a row kunwind does not follow %lu, a row kunwind follows %lu, unknown %lu; %lu of them a tracer's trampoline undone by ORC\n",
		   kt_stats.frames, kt_stats.differences, kt_stats.orc_frames,
		   c[KT_COVER_NO_TABLE], c[KT_COVER_GAP],
		   c[KT_COVER_NOT_FOLLOWED], c[KT_COVER_ROW],
		   c[KT_COVER_UNKNOWN], kt_stats.orc_tracer);
	KUNIT_EXPECT_GT(test, kt_stats.frames, 100ul);
	/* Each one failed its own case already; here for the record. */
	KUNIT_EXPECT_EQ(test, c[KT_COVER_ROW] + c[KT_COVER_UNKNOWN], 0ul);
}

/*
 * kunit/Kbuild builds this file for x86-64 only; the #ifdef says so to
 * tests/harness/kunit-report.py, which reads the cases of every .c file
 * with the kernel's .config.
 */
#ifdef CONFIG_X86_64
static struct kunit_case orc_test_cases[] = {
	KUNIT_CASE_PARAM(orc_walk_from_module_function_equals_orc, orc_gen_params),
	KUNIT_CASE(orc_save_equals_stack_trace_save),
	KUNIT_CASE(orc_save_respects_size),
	KUNIT_CASE(orc_walk_from_hardirq_regs_equals_orc),
	KUNIT_CASE(orc_walk_from_softirq_equals_orc),
	KUNIT_CASE(orc_walk_of_sleeping_kthread_equals_orc),
	KUNIT_CASE(orc_walk_refuses_running_task),
	KUNIT_CASE(orc_comparison_summary),
	{}
};

static struct kunit_suite orc_test_suite = {
	.name = "kunwind_orc",
	.init = kt_steps_init,
	.exit = kt_steps_exit,
	.test_cases = orc_test_cases,
};

kunit_test_suite(orc_test_suite);
#endif
