// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_tracer: walks through functions whose return addresses
 * tracers replaced on the stack equal the kernel's own walks, which undo
 * them (x86-64: ORC's unwind_recover_ret_addr(); arm64: the frame-record
 * walk's, from the same records):
 *
 *   - function_graph: tests/harness/graph-setup.sh, run by both harnesses'
 *     initramfs, traces kt_traced_1/2/3 of kunwind_test_early.ko
 *     (set_ftrace_filter "kt_traced_*", current_tracer function_graph)
 *     before this module loads, so every call through them returns to
 *     return_to_handler;
 *   - kretprobes (the rethook trampoline), registered here on
 *     kt_early_chain() and kt_early_inner() of the same module;
 *
 * from current, from an hrtimer's interrupted registers and of a sleeping
 * kthread.  Booted (x86-64) with kunwind.unavailable=ftrace_graph_ret_addr,
 * rethook_find_ret_addr (as on an IBT kernel that sealed them), the same
 * cases prove that ORC steps over the trampolines instead, counted.
 * Each case proves that the trampolines really were on the stack (the
 * stack word a recovered frame's return address was read from, arch.h's
 * KT_RA_SLOT(), holds the trampoline's address) and that those frames
 * were walked by kunwind's tables, not by its fallback (which would pass
 * unchanged).
 */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <asm/irq_regs.h>
#include "unwind/linux/counters.h"
#include "unwind/linux/kwalk.h"
#include "unwind/linux/symbols.h"
#include "arch.h"
#include "kunwind_test.h"
#include "trace.h"

struct tracer_point {
	struct kunit *test;
	struct kt_trace kun, orc;
	struct kt_trace save;		/* kunwind_save() at the same point */
	/* the trampoline word found at each recovered frame's slot */
	unsigned long slot[KT_MAX_FRAMES];
	/* hardirq and sleeping task */
	struct hrtimer timer;
	struct kt_trace kun_regs, orc_regs;
	int tries, done;
	struct completion parked;
	bool sleep;
};

/*
 * Read the stack word each recovered return address was read from (0 if
 * the frames do not say where: the expectations below then fail).
 */
static void read_slots(struct tracer_point *p, const struct kt_trace *t)
{
	unsigned long word;
	unsigned int i;

	for (i = 0; i < t->n; i++)
		if ((t->flags[i] & KUNWIND_FRAME_RECOVERED) &&
		    !copy_from_kernel_nofault(&word, (void *)
					      KT_RA_SLOT(t->sp, t->bp, i),
					      sizeof(word)))
			p->slot[i] = kt_strip_ra(word);
}

/*
 * The walk undid at least want trampolines at tramp (0: either tracer's),
 * each from a stack word that really held it (p's slots, read while the
 * stack was live), each frame stepped to by a table; and it equals the
 * kernel's walk.
 */
static void expect_recovered(struct kunit *test, const char *what,
			     const struct tracer_point *p,
			     const struct kt_trace *kun,
			     const struct kt_trace *orc,
			     unsigned long tramp, unsigned int want)
{
	unsigned int i, n = 0;

	kt_expect_same_trace(test, what, kun, orc, false);
	for (i = 0; i < kun->n; i++) {
		unsigned long slot = p->slot[i];
		/* kunwind.unavailable= took this tracer's helper away */
		bool by_orc = slot == kunwind_sym.return_to_handler ?
			      !kunwind_sym.ftrace_graph_ret_addr :
			      !kunwind_sym.rethook_find_ret_addr;

		if (!(kun->flags[i] & KUNWIND_FRAME_RECOVERED))
			continue;
		n++;
		KUNIT_EXPECT_EQ_MSG(test, !!(kun->flags[i] & KUNWIND_FRAME_ORC),
				    by_orc,
				    "%s: frame %u (%pS) undone %s, its tracer's helper %s",
				    what, i, (void *)kun->ip[i],
				    kun->flags[i] & KUNWIND_FRAME_ORC ?
				    "by " KT_FALLBACK : "by kunwind",
				    by_orc ? "missing" : "present");
		if (tramp)
			KUNIT_EXPECT_EQ_MSG(test, p->slot[i], tramp,
					    "%s: frame %u's stack slot holds %pS, not the trampoline %pS",
					    what, i, (void *)p->slot[i], (void *)tramp);
		else
			KUNIT_EXPECT_TRUE_MSG(test,
					      p->slot[i] == kunwind_sym.return_to_handler ||
					      p->slot[i] == kunwind_sym.rethook_trampoline,
					      "%s: frame %u's stack slot holds %pS, no trampoline",
					      what, i, (void *)p->slot[i]);
	}
	KUNIT_EXPECT_GE_MSG(test, n, want,
			    "%s: %u return addresses undone from %pS, want >= %u",
			    what, n, (void *)tramp, want);
}

/* ---- kretprobes on kt_early_chain() and kt_early_inner() ---- */

static int kret_noop(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

/*
 * Fresh kretprobes each time: register_kretprobe() fills in kp.addr, and
 * a kprobe with both a symbol name and an address is refused.
 */
struct kret_pair {
	struct kretprobe chain, inner;
};

static struct kret_pair *kret_register(struct kunit *test)
{
	struct kret_pair *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);
	int err;

	KUNIT_ASSERT_NOT_NULL(test, k);
	k->chain.kp.symbol_name = "kt_early_chain";
	k->inner.kp.symbol_name = "kt_early_inner";
	k->chain.handler = kret_noop;
	k->inner.handler = kret_noop;
	k->chain.maxactive = 8;
	k->inner.maxactive = 8;
	err = register_kretprobe(&k->chain);
	if (!err) {
		err = register_kretprobe(&k->inner);
		if (err)
			unregister_kretprobe(&k->chain);
	}
	KUNIT_EXPECT_EQ_MSG(test, err, 0, "register_kretprobe() failed");
	return err ? NULL : k;
}

static void kret_unregister(struct kret_pair *k)
{
	unregister_kretprobe(&k->inner);
	unregister_kretprobe(&k->chain);
}

/* ---- from current ---- */

static noinline long here_fn(void *arg)
{
	struct tracer_point *p = arg;

	kt_both_here(&p->kun, &p->orc);
	kt_save_here(&p->save);
	read_slots(p, &p->kun);
	return 0;
}

/*
 * kunwind_save() (runs of frames through kunwind_walk_trace(), which asks
 * a tracer's records once per step) saves the frames kunwind_walk()
 * reported: all but the first, which is in here_fn() at another call;
 * and its steps by the fallback are those kunwind_walk() took (whose
 * reasons kt_expect_same_trace() checked), reason for reason.
 */
static void expect_save_equal(struct kunit *test, const char *what,
			      const struct tracer_point *p)
{
	unsigned int want[KUNWIND_FALLBACK_NR] = { 0 }, i;

	for (i = 1; i < p->kun.n; i++)
		if ((p->kun.flags[i] & KUNWIND_FRAME_ORC) &&
		    p->kun.fallback[i] < KUNWIND_FALLBACK_NR)
			want[p->kun.fallback[i]]++;
	kunit_info(test, "%s: kunwind_save() steps: %u by tables, %u by the " KT_FALLBACK " fallback (no table %u, no row %u, row step failed %u, tracer helper missing %u)\n",
		   what, p->save.steps.tables,
		   kunwind_steps_fallback(&p->save.steps),
		   p->save.steps.fallback[KUNWIND_FALLBACK_NO_TABLE],
		   p->save.steps.fallback[KUNWIND_FALLBACK_NO_ROW],
		   p->save.steps.fallback[KUNWIND_FALLBACK_STEP_FAILED],
		   p->save.steps.fallback[KUNWIND_FALLBACK_TRACER]);
	for (i = 0; i < KUNWIND_FALLBACK_NR; i++)
		KUNIT_EXPECT_EQ_MSG(test, p->save.steps.fallback[i], want[i],
				    "%s: kunwind_save() took %u steps by the " KT_FALLBACK " fallback for %s, kunwind_walk() %u",
				    what, p->save.steps.fallback[i],
				    kunwind_fallback_str(i), want[i]);

	KUNIT_EXPECT_EQ_MSG(test, p->save.n, p->kun.n,
			    "%s: kunwind_save() saved %u frames, kunwind_walk() %u",
			    what, p->save.n, p->kun.n);
	for (i = 1; i < min(p->save.n, p->kun.n); i++)
		KUNIT_EXPECT_EQ_MSG(test, p->save.ip[i], p->kun.ip[i],
				    "%s: frame %u: kunwind_save() %pS, kunwind_walk() %pS",
				    what, i, (void *)p->save.ip[i],
				    (void *)p->kun.ip[i]);
}

static void tracer_function_graph_walk_equals_orc(struct kunit *test)
{
	struct tracer_point *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	unsigned long by_table = kunwind_counter_read(KUNWIND_CNT_RECOVERED);
	unsigned long by_orc = kunwind_counter_read(KUNWIND_CNT_ORC_TRACER);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NE_MSG(test, kunwind_sym.return_to_handler, 0ul,
			    "no return_to_handler: function_graph missing");
	kt_traced_1(here_fn, p);
	by_table = kunwind_counter_read(KUNWIND_CNT_RECOVERED) - by_table;
	by_orc = kunwind_counter_read(KUNWIND_CNT_ORC_TRACER) - by_orc;
	/* kt_traced_2, kt_traced_1 and this function's frames */
	expect_recovered(test, "function_graph", p, &p->kun, &p->orc,
			 kunwind_sym.return_to_handler, 3);
	expect_save_equal(test, "function_graph", p);
	/* the debugfs counters say who undid them */
	kunit_info(test, "trampolines undone: %lu by kunwind, %lu by " KT_FALLBACK " steps\n",
		   by_table, by_orc);
	if (kunwind_sym.ftrace_graph_ret_addr)
		KUNIT_EXPECT_GE(test, by_table, 3ul);
	else
		KUNIT_EXPECT_GE(test, by_orc, 3ul);
}

static void tracer_kretprobe_walk_equals_orc(struct kunit *test)
{
	struct tracer_point *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct kret_pair *k;

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_NE(test, kunwind_sym.rethook_trampoline, 0ul);
	k = kret_register(test);
	if (!k)
		return;
	kt_early_chain(here_fn, p);
	kret_unregister(k);
	/* kt_early_chain's and this function's frames */
	expect_recovered(test, "kretprobes", p, &p->kun, &p->orc,
			 kunwind_sym.rethook_trampoline, 2);
	expect_save_equal(test, "kretprobes", p);
}

/* Both tracers on one stack: graph-traced calls into kretprobed ones. */
static noinline long both_fn(void *arg)
{
	return kt_early_chain(here_fn, arg);
}

static void tracer_both_tracers_walk_equals_orc(struct kunit *test)
{
	struct tracer_point *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct kret_pair *k;

	KUNIT_ASSERT_NOT_NULL(test, p);
	k = kret_register(test);
	if (!k)
		return;
	kt_traced_1(both_fn, p);
	kret_unregister(k);
	expect_recovered(test, "function_graph and kretprobes", p,
			 &p->kun, &p->orc, 0, 5);
	expect_save_equal(test, "function_graph and kretprobes", p);
}

/* ---- from an hrtimer's interrupted registers ---- */

static noinline void spin_tick(void)
{
	barrier();
}

/*
 * Not a leaf: it saves its frame record, so that arm64's frame-record
 * walk, the oracle there, has its caller too (in a leaf only x30 has it:
 * kunwind_arm64's case).
 */
static noinline void spin_fn_loop(struct tracer_point *p)
{
	while (!READ_ONCE(p->done))
		spin_tick();
}

static enum hrtimer_restart tracer_timer_fn(struct hrtimer *t)
{
	struct tracer_point *p = container_of(t, struct tracer_point, timer);
	int ret;
	struct pt_regs *regs = kt_irq_regs_in(t, "spin_fn_loop", &p->tries, &ret);

	if (!regs) {
		if (ret == HRTIMER_NORESTART)
			WRITE_ONCE(p->done, -1);
		return ret;
	}
	kt_kunwind_regs(&p->kun_regs, regs);
	kt_orc_regs(&p->orc_regs, regs);
	read_slots(p, &p->kun_regs);
	WRITE_ONCE(p->done, 1);
	return HRTIMER_NORESTART;
}

static noinline long spin_fn(void *arg)
{
	struct tracer_point *p = arg;

	preempt_disable();
	hrtimer_start(&p->timer, ns_to_ktime(500 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	spin_fn_loop(p);
	preempt_enable();
	return 0;
}

static noinline long spin_through_kretprobes(void *arg)
{
	return kt_early_chain(spin_fn, arg);
}

static void tracer_walk_from_hardirq_regs_equals_orc(struct kunit *test)
{
	struct tracer_point *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct kret_pair *k;

	KUNIT_ASSERT_NOT_NULL(test, p);
	hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	p->timer.function = tracer_timer_fn;
	k = kret_register(test);
	if (!k)
		return;
	kt_traced_1(spin_through_kretprobes, p);
	hrtimer_cancel(&p->timer);
	kret_unregister(k);
	KUNIT_ASSERT_EQ_MSG(test, p->done, 1,
			    "the hrtimer never interrupted spin_fn_loop() (%d tries)",
			    p->tries);
	expect_recovered(test, "from get_irq_regs()", p, &p->kun_regs,
			 &p->orc_regs, 0, 5);
}

/* ---- a sleeping kthread ---- */

static noinline long sleep_fn(void *arg)
{
	struct tracer_point *p = arg;

	complete(&p->parked);
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

static noinline long sleep_through_kretprobes(void *arg)
{
	return kt_early_chain(sleep_fn, arg);
}

static int sleeper_thread(void *arg)
{
	kt_traced_1(sleep_through_kretprobes, arg);
	return 0;
}

static void tracer_walk_of_sleeping_task_equals_orc(struct kunit *test)
{
	struct tracer_point *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct task_struct *t;
	struct kret_pair *k;
	bool slept;

	KUNIT_ASSERT_NOT_NULL(test, p);
	init_completion(&p->parked);
	k = kret_register(test);
	if (!k)
		return;
	t = kthread_run(sleeper_thread, p, "kunwind_traced");
	if (IS_ERR(t)) {
		kret_unregister(k);
		KUNIT_FAIL(test, "kthread_run() failed");
		return;
	}
	get_task_struct(t);
	wait_for_completion(&p->parked);
	slept = kt_wait_asleep(t);
	if (slept) {
		kt_kunwind_task(&p->kun, t);
		kt_orc_task(&p->orc, t);
		read_slots(p, &p->kun);		/* it still sleeps */
	}
	kthread_stop(t);
	put_task_struct(t);
	kret_unregister(k);
	KUNIT_ASSERT_TRUE_MSG(test, slept, "the kthread did not go to sleep");
	/* kt_early_chain, sleep_through_kretprobes, kt_traced_2, kt_traced_1, sleeper_thread */
	expect_recovered(test, "sleeping kthread", p, &p->kun, &p->orc, 0, 5);
}

static struct kunit_case tracer_test_cases[] = {
	KUNIT_CASE(tracer_function_graph_walk_equals_orc),
	KUNIT_CASE(tracer_kretprobe_walk_equals_orc),
	KUNIT_CASE(tracer_both_tracers_walk_equals_orc),
	KUNIT_CASE(tracer_walk_from_hardirq_regs_equals_orc),
	KUNIT_CASE(tracer_walk_of_sleeping_task_equals_orc),
	{}
};

static struct kunit_suite tracer_test_suite = {
	.name = "kunwind_tracer",
	.init = kt_steps_init,
	.exit = kt_steps_exit,
	.test_cases = tracer_test_cases,
};

kunit_test_suite(tracer_test_suite);
