// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_arm64: kunwind.ko's walks on arm64 against the kernel's
 * own unwinder, the frame-record walk of arch/arm64/kernel/stacktrace.c
 * (stack_trace_save(), _tsk(), _regs()), which is right wherever every
 * frame has saved its record: called frames.
 *
 *   arm64_current_equals_frame_records
 *	from module frames 1 to 24 deep (recursion: a frame record each),
 *	kunwind_save() and stack_trace_save() through one call site: equal,
 *	every step by tables
 *   arm64_sleeping_tasks_equal_frame_records
 *	every task asleep (not current, not on a CPU): kunwind_save_tsk()
 *	and stack_trace_save_tsk(), both without the scheduler's frames:
 *	equal, every step by tables; a task that woke between the walks
 *	(the first walk not the same again) is counted, not compared
 *   arm64_interrupted_code_gets_its_caller
 *	a hard hrtimer interrupting this module's code, in a leaf that
 *	spins with its return address in x30 and in a loop that calls (its
 *	record saved): kunwind_save_regs() and stack_trace_save_regs() (not
 *	exported: trace.c's kt_kernel_save_regs()) of the interrupt's
 *	registers.  Equal, but where the interrupted function had not saved
 *	its record: there the frame-record walk goes on from x29, its
 *	caller's record, and loses the caller, which kunwind gives (x30 of
 *	the registers, the oracle).  The leaf's case must have happened.
 *   arm64_pseudo_nmi_walks_equal_frame_records
 *	the PMU's pseudo-NMIs sampling module code with interrupts masked
 *	and not (below): the same comparison, at every interrupted frame
 *	of the sample; every sample in the leaf must give its caller
 *
 * Module code only where the test controls it; the walks' frames above
 * are vmlinux's (the vmlinux table).  tests/arm64.test runs the suite
 * (tests/harness/arm64-kunit.sh).
 */
#include <kunit/test.h>
#include <linux/hrtimer.h>
#include <linux/kallsyms.h>
#include <linux/ktime.h>
#include <linux/perf_event.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/vmalloc.h>
#include <asm/irq_regs.h>
#include <asm/pointer_auth.h>
#include "unwind/linux/arch/arm64_calls.h"
#include "unwind/linux/kunwind_api.h"
#include "trace.h"

#define A64_FRAMES	64

struct a64_trace {
	unsigned long ip[A64_FRAMES];
	unsigned int n;
	struct kunwind_steps steps;
};

static bool a64_same(const struct a64_trace *a, const struct a64_trace *b)
{
	return a->n == b->n && !memcmp(a->ip, b->ip, a->n * sizeof(long));
}

static void a64_print(struct kunit *test, const char *who,
		      const struct a64_trace *t)
{
	unsigned int i;

	kunit_info(test, "%s, %u frames:", who, t->n);
	for (i = 0; i < t->n; i++)
		kunit_info(test, "  #%-2u %pS", i, (void *)t->ip[i]);
}

/* ---- current ---------------------------------------------------------- */

typedef void (*a64_save_fn)(struct a64_trace *t);

/* Each skips its own frame: both start at the return into a64_here(). */
static noinline void a64_save_kunwind(struct a64_trace *t)
{
	t->n = kunwind_save(t->ip, A64_FRAMES, 1, &t->steps);
	barrier();
}

static noinline void a64_save_kernel(struct a64_trace *t)
{
	t->n = stack_trace_save(t->ip, A64_FRAMES, 1);
	barrier();
}

/* One call instruction for both: the frames above it are the same. */
static noinline void a64_here(a64_save_fn fn, struct a64_trace *t)
{
	fn(t);
	barrier();
}

static noinline int a64_recurse(int depth, a64_save_fn fn,
				struct a64_trace *t)
{
	int r = 0;

	if (depth > 1)
		r = a64_recurse(depth - 1, fn, t);
	else
		a64_here(fn, t);
	barrier();
	return r + depth;
}

static void arm64_current_equals_frame_records(struct kunit *test)
{
	static const a64_save_fn fn[] = { a64_save_kunwind, a64_save_kernel };
	struct a64_trace *t = kunit_kzalloc(test, 2 * sizeof(*t), GFP_KERNEL);
	unsigned int frames = 0, tables = 0, depth, i, n = ARRAY_SIZE(fn);

	KUNIT_ASSERT_NOT_NULL(test, t);
	/* one call site of a64_recurse() for both: n is opaque, no unrolling */
	OPTIMIZER_HIDE_VAR(n);
	for (depth = 1; depth <= 24; depth++) {
		memset(t, 0, 2 * sizeof(*t));
		for (i = 0; i < n; i++)
			a64_recurse(depth, fn[i], &t[i]);
		if (!a64_same(&t[0], &t[1])) {
			a64_print(test, "kunwind", &t[0]);
			a64_print(test, "frame records", &t[1]);
			KUNIT_FAIL(test, "depth %u: the traces differ", depth);
			return;
		}
		KUNIT_EXPECT_GE(test, t[0].n, depth + 2);
		KUNIT_EXPECT_EQ(test, kunwind_steps_fallback(&t[0].steps), 0);
		frames += t[0].n;
		tables += t[0].steps.tables;
	}
	kunit_info(test, "24 depths, %u frames equal; steps: %u by tables, 0 by the fallback",
		   frames, tables);
}

/* ---- sleeping tasks --------------------------------------------------- */

static bool a64_asleep(struct task_struct *t)
{
	return t != current && !READ_ONCE(t->on_cpu) &&
	       READ_ONCE(t->__state) != TASK_RUNNING;
}

static void arm64_sleeping_tasks_equal_frame_records(struct kunit *test)
{
	struct a64_trace *t = kunit_kzalloc(test, 3 * sizeof(*t), GFP_KERNEL);
	unsigned int tasks = 0, moved = 0, frames = 0, tables = 0, fallback = 0;
	struct task_struct *g, *p;
	int bad = 0;

	KUNIT_ASSERT_NOT_NULL(test, t);
	rcu_read_lock();
	for_each_process_thread(g, p) {
		if (!a64_asleep(p))
			continue;
		memset(t, 0, 3 * sizeof(*t));
		t[0].n = kunwind_save_tsk(p, t[0].ip, A64_FRAMES, 0, &t[0].steps);
		t[1].n = stack_trace_save_tsk(p, t[1].ip, A64_FRAMES, 0);
		t[2].n = kunwind_save_tsk(p, t[2].ip, A64_FRAMES, 0, &t[2].steps);
		if (!a64_asleep(p) || !a64_same(&t[0], &t[2])) {
			moved++;
			continue;
		}
		tasks++;
		frames += t[0].n;
		tables += t[0].steps.tables;
		fallback += kunwind_steps_fallback(&t[0].steps);
		if (!a64_same(&t[0], &t[1]) && bad++ < 3) {
			kunit_info(test, "task %d (%s):", p->pid, p->comm);
			a64_print(test, "kunwind", &t[0]);
			a64_print(test, "frame records", &t[1]);
		}
	}
	rcu_read_unlock();
	kunit_info(test, "%u sleeping tasks compared (%u woke meanwhile), %u frames; steps: %u by tables, %u by the fallback; %d differ",
		   tasks, moved, frames, tables, fallback, bad);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, fallback, 0);
	KUNIT_EXPECT_GE(test, tasks, 10);
}

/* ---- interrupted code ------------------------------------------------- */

struct a64_irq {
	struct hrtimer timer;
	const char *fn;			/* the function to be interrupted in */
	int tries;
	bool done;
	unsigned long lr, pc;		/* of the registers walked */
	struct a64_trace t[2];		/* kunwind, frame records */
};

static struct a64_irq *a64_irq;

static noinline void a64_tick(void)
{
	barrier();
}

/* A leaf: no frame record, its return address in x30 all along. */
static noinline void a64_spin_leaf(const bool *done)
{
	while (!READ_ONCE(*done))
		cpu_relax();
}

/* A loop that calls: its record saved, x29 its own. */
static noinline void a64_spin_calls(const bool *done)
{
	while (!READ_ONCE(*done))
		a64_tick();
	barrier();
}

static enum hrtimer_restart a64_irq_fn(struct hrtimer *timer)
{
	struct a64_irq *a = container_of(timer, struct a64_irq, timer);
	struct pt_regs *regs = get_irq_regs();

	if (regs && !user_mode(regs) && kt_ip_in(regs->pc, a->fn)) {
		a->pc = regs->pc;
		a->lr = ptrauth_strip_kernel_insn_pac(regs->regs[30]);
		a->t[0].n = kunwind_save_regs(regs, a->t[0].ip, A64_FRAMES, 0,
					      &a->t[0].steps);
		a->t[1].n = kt_kernel_save_regs(regs, a->t[1].ip, A64_FRAMES);
		WRITE_ONCE(a->done, true);
		return HRTIMER_NORESTART;
	}
	if (++a->tries >= 200) {
		WRITE_ONCE(a->done, true);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ns_to_ktime(200 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* The caller of the spinning function: a frame record of its own. */
static noinline void a64_interrupted(struct a64_irq *a,
				     void (*spin)(const bool *))
{
	hrtimer_start(&a->timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	spin(&a->done);
	hrtimer_cancel(&a->timer);
	barrier();
}

/*
 * kunwind's trace k against the frame records' f of the same registers:
 * equal, or k has one frame more at 1, the caller in x30 (lr), which f
 * lost (its frame 1 is k's frame 2).  Returns 1 if k gave the lost
 * caller, 0 if equal, -1 otherwise.
 */
static int a64_regs_compare(const struct a64_trace *k, const struct a64_trace *f,
			    unsigned long lr)
{
	if (a64_same(k, f))
		return 0;
	if (k->n == f->n + 1 && k->n >= 2 && k->ip[0] == f->ip[0] &&
	    k->ip[1] == lr &&
	    !memcmp(k->ip + 2, f->ip + 1, (f->n - 1) * sizeof(long)))
		return 1;
	return -1;
}

static void a64_run_interrupted(struct kunit *test, void (*spin)(const bool *),
				const char *name, int *gained, int *equal)
{
	struct a64_irq *a = a64_irq;
	int r;

	memset(a, 0, sizeof(*a));
	hrtimer_init(&a->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	a->timer.function = a64_irq_fn;
	a->fn = name;
	preempt_disable();
	a64_interrupted(a, spin);
	preempt_enable();
	if (!a->pc) {
		kunit_info(test, "%s: never interrupted there in %d tries", name,
			   a->tries);
		return;
	}
	r = a64_regs_compare(&a->t[0], &a->t[1], a->lr);
	/*
	 * The caller kunwind gave must be the spinning function's own,
	 * a64_interrupted(): x30 still its return address, not one the
	 * function's own calls left there (a64_spin_calls()'s, after
	 * a64_tick() returned).
	 */
	if (r > 0 && !kt_ip_in(a->t[0].ip[1], "a64_interrupted")) {
		a64_print(test, "kunwind", &a->t[0]);
		KUNIT_FAIL(test, "%s: the frame kunwind gave, %pS, is no caller of the spinning function",
			   name, (void *)a->t[0].ip[1]);
	}
	kunit_info(test, "%s: interrupted at %pS, x30 %pS: %s; steps: %u by tables, %u by the fallback",
		   name, (void *)a->pc, (void *)a->lr,
		   r > 0 ? "kunwind gave the caller the frame records lost" :
		   r == 0 ? "equal" : "DIFFER", a->t[0].steps.tables,
		   kunwind_steps_fallback(&a->t[0].steps));
	if (r < 0) {
		a64_print(test, "kunwind", &a->t[0]);
		a64_print(test, "frame records", &a->t[1]);
		KUNIT_FAIL(test, "%s: the traces differ", name);
	}
	KUNIT_EXPECT_EQ(test, kunwind_steps_fallback(&a->t[0].steps), 0);
	*gained += r > 0;
	*equal += r == 0;
}

static void arm64_interrupted_code_gets_its_caller(struct kunit *test)
{
	int i, gained = 0, equal = 0, leaf_gained = 0;

	a64_irq = kunit_kzalloc(test, sizeof(*a64_irq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a64_irq);
	for (i = 0; i < 5; i++) {
		int g = gained;

		a64_run_interrupted(test, a64_spin_leaf, "a64_spin_leaf",
				    &gained, &equal);
		leaf_gained += gained > g;
		a64_run_interrupted(test, a64_spin_calls, "a64_spin_calls",
				    &gained, &equal);
	}
	kunit_info(test, "10 interrupts: %d equal, %d where kunwind gave the caller the frame records lost (%d of them in the leaf)",
		   equal, gained, leaf_gained);
	/* In the leaf the caller is only in x30: the frame records lose it. */
	KUNIT_EXPECT_GE(test, leaf_gained, 1);
}

/* ---- pseudo-NMIs ------------------------------------------------------ */

/*
 * With irqchip.gicv3_pseudo_nmi=1 on a GICv3 (tests/harness/arm64-kunit.sh)
 * the PMU's overflow interrupt is a pseudo-NMI: it lands wherever this CPU
 * is, where interrupts are masked too, and runs in NMI context there
 * (__el1_pnmi()).  A CPU-cycles counter of this CPU samples while this
 * thread runs module code, in a leaf and in a loop that calls, with
 * interrupts masked and not; the overflow handler walks the interrupted
 * registers by kunwind and by the frame records into a preallocated slot
 * (nothing else in NMI).  Afterwards each pair is compared: equal, or
 * kunwind has callers the records lost (x30) at the interrupted frames,
 * an NMI's or an interrupt's below it (a64_gains()).
 */
#define A64_NMI_SLOTS	96

struct a64_nmi_slot {
	unsigned long pc;
	bool nmi;			/* in_nmi() in the handler */
	bool masked;			/* interrupts masked where it hit */
	struct a64_trace t[2];		/* kunwind, frame records */
};

struct a64_nmi {
	atomic_t next, user;
	struct a64_nmi_slot slot[A64_NMI_SLOTS];
};

static struct a64_nmi *a64_nmi;

static void a64_nmi_overflow(struct perf_event *event,
			     struct perf_sample_data *data,
			     struct pt_regs *regs)
{
	struct a64_nmi_slot *s;
	int i;

	if (user_mode(regs)) {
		atomic_inc(&a64_nmi->user);
		return;
	}
	i = atomic_inc_return(&a64_nmi->next) - 1;
	if (i >= A64_NMI_SLOTS)
		return;
	s = &a64_nmi->slot[i];
	s->nmi = in_nmi();
	s->masked = !interrupts_enabled(regs);
	s->pc = regs->pc;
	s->t[0].n = kunwind_save_regs(regs, s->t[0].ip, A64_FRAMES, 0,
				      &s->t[0].steps);
	s->t[1].n = kt_kernel_save_regs(regs, s->t[1].ip, A64_FRAMES);
}

static noinline unsigned long a64_nmi_leaf(unsigned long n)
{
	unsigned long i, x = 0;

	for (i = 0; i < n; i++) {
		x += i;
		barrier();
	}
	return x;
}

static noinline unsigned long a64_nmi_calls(unsigned long n)
{
	unsigned long i, x = 0;

	for (i = 0; i < n; i++)
		x += a64_nmi_leaf(32);
	return x;
}

/*
 * An exception vector's frame (entry.S, e.g. el1h_64_irq; not its C
 * handler): the next frame is an interrupted pc.
 */
static bool a64_is_vector(unsigned long ip)
{
	char sym[KSYM_SYMBOL_LEN];
	size_t n;

	sprint_symbol_no_offset(sym, ip);
	n = strlen(sym);
	return (!strncmp(sym, "el1h_64_", 8) || !strncmp(sym, "el0t_64_", 8)) &&
	       (n < 8 || strcmp(sym + n - 8, "_handler"));
}

/*
 * kunwind's trace k against the frame records' f of the same registers:
 * equal but for frames only k has, each right after an interrupted pc
 * (frame 0, or the frame after a vector's) and the return of a call into
 * its function (kunwind_called_into()): a caller the records lost there
 * (x30).  Returns how many, adding to *blr those after an indirect call,
 * or -1 if k and f differ otherwise.
 */
static int a64_gains(const struct a64_trace *k, const struct a64_trace *f,
		     int *blr)
{
	unsigned int i = 0, j = 0, indirect = 0;
	int gains = 0, c;

	while (i < k->n && j < f->n) {
		if (k->ip[i] == f->ip[j]) {
			i++;
			j++;
			continue;
		}
		if (!i || (i > 1 && !a64_is_vector(k->ip[i - 2])))
			return -1;
		c = kunwind_called_into(k->ip[i], k->ip[i - 1]);
		if (c < 0)
			return -1;
		indirect += !c;
		gains++;
		i++;
	}
	if (i != k->n || j != f->n)
		return -1;
	*blr += indirect;
	return gains;
}

static void a64_vfree(void *p)
{
	vfree(p);
}

static void arm64_pseudo_nmi_walks_equal_frame_records(struct kunit *test)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.size = sizeof(attr),
		.sample_period = 2000000,
		.pinned = 1,
	};
	unsigned int i, nmi = 0, masked = 0, equal = 0, gained = 0, bad = 0;
	unsigned int gains = 0, leaf = 0, leaf_gained = 0;
	unsigned int tables = 0, fallback = 0, n;
	int blr = 0;
	struct perf_event *event;
	unsigned long flags, sink = 0;
	u64 end;

	a64_nmi = vzalloc(sizeof(*a64_nmi));
	KUNIT_ASSERT_NOT_NULL(test, a64_nmi);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, a64_vfree, a64_nmi), 0);
	KUNIT_ASSERT_TRUE_MSG(test, system_uses_irq_prio_masking(),
			      "no pseudo-NMIs: boot a GICv3 with irqchip.gicv3_pseudo_nmi=1");
	migrate_disable();
	event = perf_event_create_kernel_counter(&attr, smp_processor_id(),
						 NULL, a64_nmi_overflow, NULL);
	if (IS_ERR(event)) {
		migrate_enable();
		KUNIT_FAIL(test, "no CPU-cycles counter: %ld", PTR_ERR(event));
		return;
	}
	end = ktime_get_ns() + 4 * NSEC_PER_SEC;
	while (atomic_read(&a64_nmi->next) < A64_NMI_SLOTS &&
	       ktime_get_ns() < end) {
		local_irq_save(flags);
		sink += a64_nmi_calls(2000);
		sink += a64_nmi_leaf(100000);
		local_irq_restore(flags);
		sink += a64_nmi_calls(2000);
		sink += a64_nmi_leaf(100000);
	}
	perf_event_release_kernel(event);
	migrate_enable();

	n = min_t(unsigned int, atomic_read(&a64_nmi->next), A64_NMI_SLOTS);
	for (i = 0; i < n; i++) {
		struct a64_nmi_slot *s = &a64_nmi->slot[i];
		int r = a64_gains(&s->t[0], &s->t[1], &blr);

		nmi += s->nmi;
		masked += s->masked;
		equal += r == 0;
		gained += r > 0;
		gains += max(r, 0);
		/* a64_nmi_leaf() never saves x30: its caller is a gain */
		if (kt_ip_in(s->pc, "a64_nmi_leaf")) {
			leaf++;
			leaf_gained += r > 0;
		}
		tables += s->t[0].steps.tables;
		fallback += kunwind_steps_fallback(&s->t[0].steps);
		if (r < 0 && bad++ < 3) {
			kunit_info(test, "sample %u at %pS%s:", i,
				   (void *)s->pc, s->nmi ? ", in NMI" : "");
			a64_print(test, "kunwind", &s->t[0]);
			a64_print(test, "frame records", &s->t[1]);
		}
	}
	kunit_info(test, "%u kernel samples (%u in NMI, %u masked), %d in user mode: %u equal, %u where kunwind gave %u callers the frame records lost (%d after an indirect call), %u differ; steps: %u by tables, %u by the fallback (sink %lu)",
		   n, nmi, masked, atomic_read(&a64_nmi->user), equal, gained,
		   gains, blr, bad, tables, fallback, sink & 1);
	kunit_info(test, "%u samples in a64_nmi_leaf(), %u with its caller gained",
		   leaf, leaf_gained);
	KUNIT_EXPECT_EQ(test, bad, 0u);
	KUNIT_EXPECT_EQ(test, fallback, 0u);
	KUNIT_EXPECT_EQ(test, leaf_gained, leaf);
	/* It must have sampled, masked code in NMI context, and the leaf. */
	KUNIT_EXPECT_GE(test, n, 32u);
	KUNIT_EXPECT_GE(test, masked, 8u);
	KUNIT_EXPECT_GE(test, nmi, masked);
	KUNIT_EXPECT_GE(test, leaf, 8u);
}

/*
 * kunit/Kbuild builds this file on arm64 only; the #ifdef says so to
 * tests/harness/kunit-report.py, which reads the cases of every .c file
 * with the kernel's .config.
 */
#ifdef CONFIG_ARM64
static struct kunit_case arm64_test_cases[] = {
	KUNIT_CASE(arm64_current_equals_frame_records),
	KUNIT_CASE(arm64_sleeping_tasks_equal_frame_records),
	KUNIT_CASE(arm64_interrupted_code_gets_its_caller),
	KUNIT_CASE(arm64_pseudo_nmi_walks_equal_frame_records),
	{}
};

static struct kunit_suite arm64_test_suite = {
	.name = "kunwind_arm64",
	.test_cases = arm64_test_cases,
};

kunit_test_suite(arm64_test_suite);
#endif
