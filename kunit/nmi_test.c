// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_nmi: a walk from an NMI's registers equals ORC's walk
 * from the same pt_regs (trace.c: kt_kunwind_regs(), kt_orc_regs()),
 * wherever the NMI lands.
 *
 * The other suites walk from points they chose: a call site, or an
 * hrtimer that waits until it interrupted one spin loop.  NMIs land where
 * the target CPU happens to be: in the idle task's hlt, at a function's
 * first instruction, at a return site, inside a rep stos, on the IRQ
 * stack in hardirq or softirq, in vmlinux functions called from here and
 * in this module's functions called from vmlinux, now and then in entry
 * code (whose step kunwind leaves to ORC: "first step by ORC").
 *
 * Under QEMU TCG (tests/harness/kunit-run.sh) an interrupt is taken only
 * between translation blocks: after a jump, call or return, at a pause
 * or a rep-string iteration, at a page boundary; never between a push and
 * the next instruction of straight-line code.  So the points sampled are
 * a few dozen per function, not every instruction: a walker that looked
 * the interrupted ip up as a return address (ip - 1) passed 1000 NMIs
 * here.  On KVM or hardware the same suite samples any instruction.
 *
 * This CPU (the test's thread, pinned) sends NMIs one at a time to
 * another CPU (apic->send_IPI_mask(), as lib/nmi_backtrace.c does: the
 * APIC does not allow a self-NMI) and waits for each.  An NMI_LOCAL
 * handler that acts only on the NMIs this suite armed walks the
 * interrupted registers twice, kunwind and ORC, into a preallocated slot
 * (no allocation, no KUnit call in NMI), with what it saw of the
 * context.  Afterwards, in process context, every pair is compared by
 * kt_expect_same_trace(), the rule of all suites.  One case per phase,
 * each a different life of the target CPU:
 *
 *   cpu_idle          nothing of ours runs there: the idle loop, hlt,
 *                     the tick's interrupt entry and exit;
 *   module_functions  a kthread bound there runs this module's functions
 *                     at depths 0 to 4 and of four frame shapes (plain,
 *                     a large frame, a realigned stack, stack arguments);
 *   vmlinux_calls     that kthread calls into vmlinux: sort() with a
 *                     compare function here, memset()/memcpy() of 64 KiB,
 *                     snprintf("%pS"), kmalloc()/kfree(), schedule();
 *   hardirq_hrtimer   a pinned hard hrtimer whose callback spins in this
 *                     module's functions for 3 ms of every tick (4 ms):
 *                     NMIs on the IRQ stack, walked back to the task stack;
 *   softirq_timer     a pinned timer_list doing the same in softirq (on
 *                     the IRQ stack too, from irq_exit()).
 *
 * The target CPU may be anywhere else too (the tick, a kworker): every
 * sample is compared, wherever it landed.
 *
 * Each phase must have reached its context a minimum number of times
 * (the test cannot pass on samples that all landed elsewhere), and logs
 * how many NMIs landed where and how many frames were compared.
 */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>
#include <asm/apic.h>
#include <asm/nmi.h>
#include <asm/stacktrace.h>
#include "unwind/linux/oops.h"
#include "unwind/linux/symbols.h"
#include "main.h"
#include "trace.h"

/*
 * NMIs per phase, and the gap before each (random, 0 to NMI_GAP_US), so
 * that they do not fall into step with the target's loops.  Under TCG a
 * phase takes 0.05 s (idle) to 1.5 s (the timer).
 */
#define NMI_PER_PHASE	200
#define NMI_GAP_US	200
/* An NMI not handled within this is lost (the case fails). */
#define NMI_TIMEOUT_NS	(1000 * NSEC_PER_MSEC)
/* NMIs of a phase that also print kunwind's oops backtrace. */
#define NMI_OOPS_SHOWN	10

/* Print at most this many differing samples of a phase. */
#define NMI_MAX_REPORTS	3

/* What the handler saw; filled in NMI, read after done. */
struct nmi_sample {
	struct kt_trace kun, orc;
	unsigned long ip;
	unsigned int preempt;		/* preempt_count() in the handler */
	int stack;			/* enum stack_type of regs->sp */
	u64 ns;				/* the two walks took */
	int shown;			/* kunwind_oops_show(); -1: not asked */
	bool user, idle, worker;
	bool done;			/* release: the handler wrote it all */
};

struct nmi_ctx;

struct nmi_phase {
	const char *name;
	/* Runs in the kthread bound to the target CPU; NULL: none. */
	void (*work)(struct nmi_ctx *c);
	/* The context this phase is for, and how often it must be hit. */
	bool (*target)(const struct nmi_sample *s);
	const char *target_name;
	unsigned int min_target;
	/* Send every other NMI while an interrupt handler spins. */
	bool irq_spin;
};

struct nmi_ctx {
	const struct nmi_phase *phase;
	int cpu;				/* the target */
	struct nmi_sample *samples;		/* NMI_PER_PHASE, vzalloc() */
	/* slot + 1 the next NMI of ours fills; 0: none expected */
	atomic_t armed;
	struct task_struct *worker;
	struct completion started;
	bool stopping;
	bool spinning;				/* in nmi_irq_spin() */
	struct hrtimer hrtimer;
	struct timer_list timer;
	long sink;
	long *sort_buf;
	char *big[2];
};

#define NMI_NAME	"kunwind_test_nmi"

/* The handler's context: set before it is registered, cleared after. */
static struct nmi_ctx *nmi_cur;

/* ---- the handler ---- */

static int nmi_stack_type(struct pt_regs *regs)
{
	struct stack_info info;

	if (user_mode(regs) || !kunwind_sym.get_stack_info ||
	    kunwind_sym.get_stack_info((unsigned long *)regs->sp, current,
				       &info, NULL))
		return STACK_TYPE_UNKNOWN;
	return info.type;
}

/*
 * Only NMIs this suite armed, on the target CPU: every other NMI (the
 * perf or backtrace handlers') gets NMI_DONE and goes on as if we were
 * not here.  The slot is claimed by the xchg(), which pairs with the
 * sender's on a timeout: exactly one of them gets it.
 */
static int nmi_walk_handler(unsigned int type, struct pt_regs *regs)
{
	struct nmi_ctx *c = READ_ONCE(nmi_cur);
	struct nmi_sample *s;
	u64 t0;
	int slot;

	if (!c || smp_processor_id() != c->cpu)
		return NMI_DONE;
	slot = atomic_xchg(&c->armed, 0);
	if (!slot)
		return NMI_DONE;
	s = &c->samples[slot - 1];
	t0 = local_clock();
	s->ip = regs->ip;
	s->user = user_mode(regs);
	s->idle = is_idle_task(current);
	s->worker = current == c->worker;
	s->preempt = preempt_count();
	s->stack = nmi_stack_type(regs);
	kt_kunwind_regs(&s->kun, regs);
	kt_orc_regs(&s->orc, regs);
	s->ns = local_clock() - t0;
	/* The oops printer, as for a death in NMI (KERN_DEBUG: not shown) */
	s->shown = slot <= NMI_OOPS_SHOWN ?
		   kunwind_oops_show(KUNWIND_DEATH_OOPS, regs, KERN_DEBUG) : -1;
	/* Pairs with nmi_send_one()'s acquire: the sample before done. */
	smp_store_release(&s->done, true);
	return NMI_HANDLED;
}

static void nmi_unregister(void *arg)
{
	unregister_nmi_handler(NMI_LOCAL, NMI_NAME);	/* synchronize_rcu() */
	WRITE_ONCE(nmi_cur, NULL);
}

/* ---- the sender ---- */

/* One NMI to the target, filling slot i; false: it never came. */
static bool nmi_send_one(struct nmi_ctx *c, unsigned int i)
{
	struct nmi_sample *s = &c->samples[i];
	u64 deadline = ktime_get_ns() + NMI_TIMEOUT_NS;

	atomic_set(&c->armed, i + 1);
	preempt_disable();
	apic->send_IPI_mask(cpumask_of(c->cpu), NMI_VECTOR);
	preempt_enable();
	/* Pairs with the handler's release: done, then the whole sample. */
	while (!smp_load_acquire(&s->done)) {
		/* Not claimed yet: take it back.  Claimed: it finishes. */
		if (ktime_get_ns() > deadline && atomic_xchg(&c->armed, 0))
			return false;
		cpu_relax();
	}
	return true;
}

/* ---- what runs on the target CPU: this module's functions ---- */

static noinline long nmi_leaf(struct nmi_ctx *c, long x)
{
	int i;

	for (i = 0; i < 32; i++)
		x = x * 31 + i;
	c->sink += x;
	return x;
}

static noinline long nmi_big_frame(struct nmi_ctx *c, long x)
{
	char buf[512];

	memset(buf, x, sizeof(buf));
	barrier_data(buf);
	x = nmi_leaf(c, x + buf[x & 511]);
	barrier_data(buf);
	return x;
}

static noinline long nmi_realigned(struct nmi_ctx *c, long x)
{
	char buf[64] __aligned(64);

	memset(buf, x, sizeof(buf));
	barrier_data(buf);
	x = nmi_leaf(c, x + buf[x & 63]);
	barrier_data(buf);
	return x;
}

static noinline long nmi_stack_args(struct nmi_ctx *c, long a, long b, long d,
				    long e, long f, long g, long h)
{
	return nmi_leaf(c, a + b + d + e + f + g + h);
}

enum nmi_shape { PLAIN, BIG, REALIGNED, STACK_ARGS, NR_SHAPES };

/* Not a tail call: each level keeps its frame. */
static noinline long nmi_recurse(struct nmi_ctx *c, int depth,
				 enum nmi_shape shape, long x)
{
	long r;

	if (depth > 0) {
		r = nmi_recurse(c, depth - 1, shape, x + 1);
	} else {
		switch (shape) {
		case BIG:
			r = nmi_big_frame(c, x);
			break;
		case REALIGNED:
			r = nmi_realigned(c, x);
			break;
		case STACK_ARGS:
			r = nmi_stack_args(c, x, 1, 2, 3, 4, 5, 6);
			break;
		default:
			r = nmi_leaf(c, x);
			break;
		}
	}
	c->sink ^= r;
	return r;
}

/* One round: every shape at depths 0..4. */
static noinline void nmi_module_round(struct nmi_ctx *c, unsigned int i)
{
	nmi_recurse(c, i % 5, (i / 5) % NR_SHAPES, i);
}

static void work_module_functions(struct nmi_ctx *c)
{
	unsigned int i;

	complete(&c->started);
	for (i = 0; !kthread_should_stop(); i++) {
		nmi_module_round(c, i);
		if (!(i & 255))
			cond_resched();		/* PREEMPT_NONE */
	}
}

/* ---- ... calls into vmlinux ---- */

#define NMI_SORT	256
#define NMI_BIG		(64 * 1024)

static int nmi_cmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static noinline void nmi_vmlinux_round(struct nmi_ctx *c, unsigned int i)
{
	char s[KSYM_SYMBOL_LEN];
	unsigned int j;
	void *p;

	switch (i % 5) {
	case 0:
		get_random_bytes(c->sort_buf, NMI_SORT * sizeof(long));
		sort(c->sort_buf, NMI_SORT, sizeof(long), nmi_cmp, NULL);
		break;
	case 1:
		memset(c->big[0], i, NMI_BIG);
		memcpy(c->big[1], c->big[0], NMI_BIG);
		break;
	case 2:
		snprintf(s, sizeof(s), "%pS %u %s", (void *)nmi_vmlinux_round + i % 64,
			 i, c->phase->name);
		c->sink += s[i % 8];
		break;
	case 3:
		for (j = 0; j < 16; j++) {
			p = kmalloc(16 << (j % 9), GFP_KERNEL);
			c->sink += (long)p;
			kfree(p);
		}
		break;
	default:
		/* Into the scheduler and back: nothing else wants this CPU. */
		schedule();
		break;
	}
}

static void work_vmlinux_calls(struct nmi_ctx *c)
{
	unsigned int i;

	c->sort_buf = kcalloc(NMI_SORT, sizeof(long), GFP_KERNEL);
	c->big[0] = vmalloc(NMI_BIG);
	c->big[1] = vmalloc(NMI_BIG);
	complete(&c->started);
	for (i = 0; !kthread_should_stop(); i++) {
		if (c->sort_buf && c->big[0] && c->big[1])
			nmi_vmlinux_round(c, i);
		cond_resched();
	}
	vfree(c->big[1]);
	vfree(c->big[0]);
	kfree(c->sort_buf);
}

/* ---- ... hardirq and softirq ---- */

/*
 * The test kernel has no high-resolution timers (HZ_PERIODIC, HZ=250):
 * the hrtimer fires from the tick, every 4 ms, and so does the timer.
 * Each spins 3 ms of those 4 in this module's functions.
 */
#define NMI_IRQ_SPIN_US	3000

/* Spin in this module's functions for us microseconds. */
static noinline void nmi_irq_spin(struct nmi_ctx *c, unsigned int us)
{
	u64 end = local_clock() + us * NSEC_PER_USEC;
	unsigned int i;

	WRITE_ONCE(c->spinning, true);
	for (i = 0; local_clock() < end && !READ_ONCE(c->stopping); i++)
		nmi_module_round(c, i);
	WRITE_ONCE(c->spinning, false);
}

static enum hrtimer_restart nmi_hrtimer_fn(struct hrtimer *t)
{
	struct nmi_ctx *c = container_of(t, struct nmi_ctx, hrtimer);

	nmi_irq_spin(c, NMI_IRQ_SPIN_US);
	if (READ_ONCE(c->stopping))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(300 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void work_hardirq(struct nmi_ctx *c)
{
	/* Started here, pinned: it fires on this CPU. */
	hrtimer_start(&c->hrtimer, ns_to_ktime(300 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	work_module_functions(c);
}

static void nmi_timer_fn(struct timer_list *t)
{
	struct nmi_ctx *c = from_timer(c, t, timer);

	nmi_irq_spin(c, NMI_IRQ_SPIN_US);
	if (!READ_ONCE(c->stopping))
		mod_timer(t, jiffies + 1);
}

static void work_softirq(struct nmi_ctx *c)
{
	mod_timer(&c->timer, jiffies + 1);	/* TIMER_PINNED: this CPU */
	work_module_functions(c);
}

static int nmi_worker_fn(void *arg)
{
	struct nmi_ctx *c = arg;

	c->phase->work(c);
	return 0;
}

/* On every path, the passing one included (kunit_release_action()). */
static void nmi_stop_worker(void *arg)
{
	struct nmi_ctx *c = arg;

	WRITE_ONCE(c->stopping, true);
	kthread_stop(c->worker);
	put_task_struct(c->worker);
	hrtimer_cancel(&c->hrtimer);
	timer_shutdown_sync(&c->timer);
}

/*
 * Under TCG an NMI round trip can take longer than a tick, so NMIs sent
 * at random land in the 3 ms spins less often than 3 in 4 (a run saw 1
 * in 7 for the timer): wait for one to be under way, for up to 3 ticks.
 */
static void nmi_wait_spinning(struct nmi_ctx *c)
{
	u64 deadline = ktime_get_ns() + 12 * NSEC_PER_MSEC;

	while (!READ_ONCE(c->spinning) && ktime_get_ns() < deadline)
		cpu_relax();
}

/* ---- the phases ---- */

static bool in_idle(const struct nmi_sample *s)
{
	return s->idle && !s->user;
}

static bool in_module(const struct nmi_sample *s)
{
	return within_module(s->ip, THIS_MODULE);
}

static bool in_vmlinux(const struct nmi_sample *s)
{
	return s->ip >= kunwind_sym.stext && s->ip < kunwind_sym.etext;
}

/* nmi_enter() added one HARDIRQ_OFFSET itself. */
static bool in_hardirq_of(const struct nmi_sample *s)
{
	return (s->preempt & HARDIRQ_MASK) > HARDIRQ_OFFSET;
}

static bool in_softirq_of(const struct nmi_sample *s)
{
	return s->preempt & SOFTIRQ_OFFSET;
}

static bool worker_in_vmlinux(const struct nmi_sample *s)
{
	return s->worker && in_vmlinux(s);
}

static bool hardirq_on_irq_stack(const struct nmi_sample *s)
{
	return in_hardirq_of(s) && s->stack == STACK_TYPE_IRQ;
}

static const struct nmi_phase nmi_phases[] = {
	{ "cpu_idle", NULL, in_idle, "the idle task", NMI_PER_PHASE / 2 },
	{ "module_functions", work_module_functions, in_module,
	  "this module's text", NMI_PER_PHASE / 2 },
	{ "vmlinux_calls", work_vmlinux_calls, worker_in_vmlinux,
	  "vmlinux text in the kthread", NMI_PER_PHASE / 4 },
	{ "hardirq_hrtimer", work_hardirq, hardirq_on_irq_stack,
	  "hardirq on the IRQ stack", NMI_PER_PHASE / 4, true },
	/*
	 * A timer_list fires late under TCG on a loaded host: 43 of 200
	 * NMIs landed in its softirq in one run (2026-11-24), more in most.
	 */
	{ "softirq_timer", work_softirq, in_softirq_of,
	  "a softirq", NMI_PER_PHASE / 8, true },
};

static void nmi_phase_desc(const struct nmi_phase *p, char *desc)
{
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nmi_phase, nmi_phases, nmi_phase_desc);

KUNIT_DEFINE_ACTION_WRAPPER(nmi_vfree, vfree, const void *);

/* Set up c for its phase: the handler registered, the worker running. */
static void nmi_start(struct kunit *test, struct nmi_ctx *c)
{
	int src = cpumask_first(cpu_online_mask);
	struct task_struct *t;

	c->cpu = cpumask_any_but(cpu_online_mask, src);
	/* This case's own kthread, which ends with it: never the target. */
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(src)), 0);
	c->samples = vzalloc(array_size(NMI_PER_PHASE, sizeof(*c->samples)));
	KUNIT_ASSERT_NOT_NULL(test, c->samples);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, nmi_vfree, c->samples), 0);

	WRITE_ONCE(nmi_cur, c);
	KUNIT_ASSERT_EQ(test, register_nmi_handler(NMI_LOCAL, nmi_walk_handler, 0,
						   NMI_NAME), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, nmi_unregister, c), 0);

	if (!c->phase->work)
		return;
	hrtimer_init(&c->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	c->hrtimer.function = nmi_hrtimer_fn;
	timer_setup(&c->timer, nmi_timer_fn, TIMER_PINNED);
	init_completion(&c->started);
	t = kthread_create(nmi_worker_fn, c, "kunwind_nmi_%s", c->phase->name);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	kthread_bind(t, c->cpu);
	c->worker = get_task_struct(t);
	wake_up_process(t);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, nmi_stop_worker, c), 0);
	KUNIT_ASSERT_TRUE_MSG(test, wait_for_completion_timeout(&c->started, 10 * HZ),
			      "the kthread on CPU %d never started", c->cpu);
}

struct phase_counts {
	unsigned int sent, lost, target, ips, user, idle, hardirq, softirq;
	unsigned int irq_stack, module, vmlinux, orc_first, frames, reported;
	unsigned int shown;		/* samples the oops printer ran in */
	u64 ms, max_ns, total_ns;
};

/* NMI_PER_PHASE NMIs, one at a time, while the target lives its phase. */
static void nmi_send_all(struct nmi_ctx *c, struct phase_counts *n)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < NMI_PER_PHASE; i++) {
		if (c->phase->irq_spin && (i & 1))
			nmi_wait_spinning(c);
		udelay(get_random_u32_below(NMI_GAP_US));
		n->sent++;
		n->lost += !nmi_send_one(c, i);
		cond_resched();
	}
	n->ms = (ktime_get_ns() - t0) / NSEC_PER_MSEC;
}

static void count_sample(struct phase_counts *n, const struct nmi_ctx *c,
			 const struct nmi_sample *s)
{
	const struct nmi_sample *o;

	for (o = c->samples; o < s && o->ip != s->ip; o++)
		;
	n->ips += o == s;
	n->target += c->phase->target(s);
	n->user += s->user;
	n->idle += s->idle;
	n->hardirq += in_hardirq_of(s);
	n->softirq += in_softirq_of(s);
	n->irq_stack += s->stack == STACK_TYPE_IRQ;
	n->module += in_module(s);
	n->vmlinux += in_vmlinux(s);
	/* The step from the interrupted ip by the ORC fallback: no CFI there. */
	n->orc_first += s->kun.n > 1 && (s->kun.flags[1] & KUNWIND_FRAME_ORC);
	n->max_ns = max(n->max_ns, s->ns);
	n->total_ns += s->ns;
}

/* Each sample as every suite compares; the first few that differ printed. */
static void nmi_compare_all(struct kunit *test, const struct nmi_ctx *c,
			    struct phase_counts *n)
{
	const char *name = c->phase->name;
	unsigned long diffs = kt_stats.differences;
	char what[KSYM_SYMBOL_LEN + 64];
	unsigned int i;

	for (i = 0; i < NMI_PER_PHASE; i++) {
		const struct nmi_sample *s = &c->samples[i];

		if (!s->done)		/* lost: n->lost says so */
			continue;
		count_sample(n, c, s);
		if (s->shown >= 0) {
			n->shown++;
			KUNIT_EXPECT_EQ_MSG(test, s->shown, (int)s->kun.n,
					    "%s: NMI %u at %pS: the oops printer printed %d frames, the walk gave %u",
					    name, i, (void *)s->ip, s->shown,
					    s->kun.n);
		}
		if (n->reported >= NMI_MAX_REPORTS)
			continue;
		snprintf(what, sizeof(what), "%s: NMI %u at %pS (%s%s%s)", name,
			 i, (void *)s->ip, s->user ? "user " : "",
			 s->idle ? "idle " : "",
			 in_hardirq_of(s) ? "hardirq" :
			 in_softirq_of(s) ? "softirq" : "task");
		n->frames += kt_expect_same_trace(test, what, &s->kun, &s->orc, false);
		if (kt_stats.differences != diffs) {
			diffs = kt_stats.differences;
			if (++n->reported == NMI_MAX_REPORTS)
				kunit_info(test, "%s: %u NMIs differed: those after NMI %u not compared\n",
					   name, n->reported, i);
		}
	}
}

static void nmi_walk_equals_orc(struct kunit *test)
{
	struct nmi_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	const struct nmi_phase *p = test->param_value;
	struct phase_counts n = { 0 };
	unsigned int walked;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 CPUs");
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->phase = p;
	nmi_start(test, c);
	nmi_send_all(c, &n);
	if (p->work)
		kunit_release_action(test, nmi_stop_worker, c);
	kunit_release_action(test, nmi_unregister, c);

	nmi_compare_all(test, c, &n);
	walked = n.sent - n.lost;
	kunit_info(test, "%s: %u NMIs in %llu ms, %u lost, at %u different ips; %u in %s; user %u, idle %u, hardirq %u, softirq %u, on the IRQ stack %u, in this module %u, in vmlinux %u, first step by ORC %u; %u frames compared; walks in NMI: max %llu us, mean %llu us\n",
		   p->name, n.sent, n.ms, n.lost, n.ips, n.target,
		   p->target_name, n.user, n.idle, n.hardirq, n.softirq,
		   n.irq_stack, n.module, n.vmlinux, n.orc_first, n.frames,
		   n.max_ns / NSEC_PER_USEC,
		   walked ? n.total_ns / walked / NSEC_PER_USEC : 0);
	KUNIT_EXPECT_EQ_MSG(test, n.lost, 0u, "%u NMIs to CPU %d never handled",
			    n.lost, c->cpu);
	KUNIT_EXPECT_EQ_MSG(test, n.shown, (unsigned int)NMI_OOPS_SHOWN,
			    "%s: the oops printer ran in %u NMIs, want %d",
			    p->name, n.shown, NMI_OOPS_SHOWN);
	KUNIT_EXPECT_GE_MSG(test, n.target, p->min_target,
			    "%s: %u of %u NMIs landed in %s, want >= %u",
			    p->name, n.target, n.sent, p->target_name, p->min_target);
}

/*
 * nmi_check_duration() prints "INFO: NMI handler (...) took too long to
 * run" for any NMI_LOCAL handler slower than nmi_longest_ns (1 ms) and
 * than its own slowest so far, and the console check fails on "INFO:".
 * Under TCG a handler can take that long when QEMU's vCPU thread is
 * descheduled: ours (up to 6 ms seen), and the others each of our NMIs
 * runs too (nmi_cpu_backtrace_handler() at 1.8 ms, in a handler that
 * tests one bit).  The kernel's knob for this is the debugfs file
 * x86/nmi_longest_ns: one second while the suite runs, then back.
 */
#define NMI_LONGEST	"/sys/kernel/debug/x86/nmi_longest_ns"
#define NMI_LONGEST_SAVED	"/tmp/kunwind-nmi_longest_ns"

static int nmi_suite_init(struct kunit_suite *suite)
{
	return kt_run("/bin/sh", "-c", "cat " NMI_LONGEST " > " NMI_LONGEST_SAVED
		      " && echo 1000000000 > " NMI_LONGEST);
}

static void nmi_suite_exit(struct kunit_suite *suite)
{
	kt_run("/bin/sh", "-c", "cat " NMI_LONGEST_SAVED " > " NMI_LONGEST);
}

/*
 * kunit/Kbuild builds this file for x86-64 only; the #ifdef says so to
 * tests/harness/kunit-report.py, which reads the cases of every .c file
 * with the kernel's .config.
 */
#ifdef CONFIG_X86_64
static struct kunit_case nmi_test_cases[] = {
	KUNIT_CASE_PARAM(nmi_walk_equals_orc, nmi_phase_gen_params),
	{}
};

static struct kunit_suite nmi_test_suite = {
	.name = "kunwind_nmi",
	.suite_init = nmi_suite_init,
	.suite_exit = nmi_suite_exit,
	.init = kt_steps_init,
	.exit = kt_steps_exit,
	.test_cases = nmi_test_cases,
};

kunit_test_suite(nmi_test_suite);
#endif
