// SPDX-License-Identifier: GPL-2.0
/*
 * The kunwind_api suite: the exported calls a user such as kunwind_prof.ko
 * is built on (unwind/linux/kunwind_api.h), held to what their kernel-doc
 * promises.
 *
 *   - kunwind_save_frames() stores exactly the frames kunwind_walk() passes
 *     to its callback (ip, sp, bp, flags, fallback reason), and says
 *     KUNWIND_STOP_NONE when the store is full before the walk's end, END
 *     when the walk ended with room to spare or exactly at the brim;
 *   - kunwind_addr_info() says TEXT for code, TABLE exactly where a
 *     registered table has a row (kunwind_find_rule()), CALL exactly where
 *     that row is an ordinary frame's, TRAMPOLINE at function_graph's
 *     return_to_handler, and nothing for data or 0.
 *
 * The walks are of a kthread parked asleep in this module (trace.c), whose
 * stack stays still while it is walked twice.
 */
#include <linux/hrtimer.h>
#include <linux/slab.h>
#include "unwind/linux/registry_lookup.h"
#include "unwind/linux/symbols.h"
#ifdef CONFIG_X86_64
#include "asm_frames.h"
#endif
#include "trace.h"

struct api_frames {
	struct kunwind_frame f[KT_MAX_FRAMES];
	unsigned int n;
};

static bool api_add(void *cookie, const struct kunwind_frame *f)
{
	struct api_frames *a = cookie;

	if (a->n == KT_MAX_FRAMES)
		return false;
	a->f[a->n++] = *f;
	return true;
}

static void expect_same_frames(struct kunit *test, const char *what,
			       const struct kunwind_frame *a,
			       const struct kunwind_frame *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ_MSG(test, a[i].ip, b[i].ip,
				    "%s: frame %u: %pS / %pS", what, i,
				    (void *)a[i].ip, (void *)b[i].ip);
		KUNIT_EXPECT_EQ_MSG(test, a[i].sp, b[i].sp, "%s: frame %u sp",
				    what, i);
		KUNIT_EXPECT_EQ_MSG(test, a[i].bp, b[i].bp, "%s: frame %u bp",
				    what, i);
		KUNIT_EXPECT_EQ_MSG(test, a[i].flags, b[i].flags,
				    "%s: frame %u flags", what, i);
		KUNIT_EXPECT_EQ_MSG(test, a[i].fallback, b[i].fallback,
				    "%s: frame %u fallback", what, i);
	}
}

/* The sleeper's walk by the callback API, and a store for the other. */
struct api_case {
	struct kt_sleeper s;
	struct api_frames walk, saved;
	int walk_stop;
};

static struct task_struct *api_start(struct kunit *test, struct api_case **c)
{
	struct task_struct *t;

	*c = kunit_kzalloc(test, sizeof(**c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *c);
	t = kt_sleeper_start(test, &(*c)->s, 3);
	if (!t)
		return NULL;
	(*c)->walk_stop = kunwind_walk(t, NULL, api_add, &(*c)->walk);
	KUNIT_EXPECT_EQ_MSG(test, (*c)->walk_stop, KUNWIND_STOP_END,
			    "kunwind_walk() of the sleeper stopped: %s",
			    kunwind_stop_str((*c)->walk_stop));
	/* sleeper_bottom, sleeper_recurse x 4, sleeper_fn, and the kthread's */
	KUNIT_EXPECT_GE(test, (*c)->walk.n, 7u);
	return t;
}

static void api_save_frames_equals_walk(struct kunit *test)
{
	struct task_struct *t;
	struct api_case *c;
	int stop;

	t = api_start(test, &c);
	if (!t)
		return;
	stop = kunwind_save_frames(t, NULL, c->saved.f, KT_MAX_FRAMES,
				   &c->saved.n);
	kt_sleeper_stop(&c->s);

	KUNIT_EXPECT_EQ_MSG(test, stop, c->walk_stop, "%s / %s",
			    kunwind_stop_str(stop),
			    kunwind_stop_str(c->walk_stop));
	KUNIT_ASSERT_EQ(test, c->saved.n, c->walk.n);
	expect_same_frames(test, "kunwind_save_frames / kunwind_walk",
			   c->saved.f, c->walk.f, c->walk.n);
}

static void api_save_frames_stops_when_full(struct kunit *test)
{
	unsigned int sizes[5], i, nr;
	struct task_struct *t;
	struct api_case *c;
	int stop, want;

	t = api_start(test, &c);
	if (!t)
		return;
	sizes[0] = 0;
	sizes[1] = 1;
	sizes[2] = 2;
	sizes[3] = c->walk.n - 1;
	sizes[4] = c->walk.n;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		memset(&c->saved, 0, sizeof(c->saved));
		nr = 12345;
		stop = kunwind_save_frames(t, NULL, c->saved.f, sizes[i], &nr);
		/* At the brim the walk has no frame more: it ended. */
		want = sizes[i] < c->walk.n ? KUNWIND_STOP_NONE : c->walk_stop;
		KUNIT_EXPECT_EQ_MSG(test, stop, want, "size %u: %s", sizes[i],
				    kunwind_stop_str(stop));
		KUNIT_EXPECT_EQ_MSG(test, nr, sizes[i], "size %u", sizes[i]);
		expect_same_frames(test, "a short store", c->saved.f,
				   c->walk.f, min(nr, sizes[i]));
		/* Nothing written past @size. */
		if (sizes[i] < KT_MAX_FRAMES)
			KUNIT_EXPECT_EQ_MSG(test, c->saved.f[sizes[i]].ip, 0ul,
					    "size %u: a frame past the store",
					    sizes[i]);
	}
	kt_sleeper_stop(&c->s);
}

static int api_data_word;

/* Every address of [from, to): info against kunwind_find_rule(). */
static void expect_info_is_the_table(struct kunit *test, unsigned long from,
				     unsigned long to, unsigned int *nr_type)
{
	struct kunwind_rule rule;
	unsigned long addr;
	unsigned int info;
	bool found;

	for (addr = from; addr < to; addr++) {
		info = kunwind_addr_info(addr);
		found = kunwind_find_rule(addr, &rule);
		KUNIT_EXPECT_TRUE_MSG(test, info & KUNWIND_ADDR_TEXT,
				      "%pS: not text", (void *)addr);
		KUNIT_EXPECT_EQ_MSG(test, !!(info & KUNWIND_ADDR_TABLE), found,
				    "%pS: info %#x", (void *)addr, info);
		KUNIT_EXPECT_EQ_MSG(test, !!(info & KUNWIND_ADDR_CALL),
				    found && rule.type == KUNWIND_TYPE_CALL,
				    "%pS: info %#x, rule type %u", (void *)addr,
				    info, found ? rule.type : 0);
		KUNIT_EXPECT_FALSE_MSG(test, info & KUNWIND_ADDR_TRAMPOLINE,
				       "%pS: info %#x", (void *)addr, info);
		if (found && rule.type <= KUNWIND_TYPE_MAX)
			nr_type[rule.type]++;
	}
}

#ifdef CONFIG_X86_64
/*
 * kt_asm_regs (asm_frames.S): ordinary rows, then from its "call", ~70
 * bytes past kt_asm_regs_ip, a register frame's, to its end (and maybe
 * the next function's start: text all the same).
 */
static void api_regs_rows(struct kunit *test, unsigned long *from,
			  unsigned long *to)
{
	*from = (unsigned long)kt_asm_regs;
	*to = (unsigned long)kt_asm_regs_ip + 96;
}
#else
/*
 * arm64 has no assembly hints: its register frames' rows are the entry
 * code's, in vmlinux (gen/arm64.c).  The one an interrupt of this CPU
 * goes through (el1h_64_irq) is found by walking from an hrtimer's
 * callback: the frame before the first register frame; the function
 * around it, whole, by its symbol's offset and size.
 */
struct api_irq {
	struct hrtimer timer;
	struct api_frames a;
	bool done;
};

static enum hrtimer_restart api_irq_walk(struct hrtimer *timer)
{
	struct api_irq *q = container_of(timer, struct api_irq, timer);

	kunwind_walk(NULL, NULL, api_add, &q->a);
	WRITE_ONCE(q->done, true);
	return HRTIMER_NORESTART;
}

static void api_regs_rows(struct kunit *test, unsigned long *from,
			  unsigned long *to)
{
	struct api_irq *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	char sym[KSYM_SYMBOL_LEN], *plus;
	unsigned long off, size, ip = 0;
	unsigned int i;
	u64 end;

	KUNIT_ASSERT_NOT_NULL(test, q);
	hrtimer_init(&q->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	q->timer.function = api_irq_walk;
	preempt_disable();
	hrtimer_start(&q->timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	/* Spin in this kthread, so that the interrupt comes from EL1. */
	end = ktime_get_ns() + NSEC_PER_SEC;
	while (!READ_ONCE(q->done) && ktime_get_ns() < end)
		cpu_relax();
	preempt_enable();
	hrtimer_cancel(&q->timer);
	KUNIT_ASSERT_TRUE_MSG(test, READ_ONCE(q->done), "the hrtimer never fired");
	for (i = 0; i + 1 < q->a.n && !ip; i++)
		if (q->a.f[i + 1].flags & KUNWIND_FRAME_REGS)
			ip = q->a.f[i].ip;
	KUNIT_ASSERT_NE_MSG(test, ip, 0ul, "no register frame in the %u frames walked from the hrtimer",
			    q->a.n);
	sprint_symbol(sym, ip - 1);
	plus = strchr(sym, '+');
	KUNIT_ASSERT_TRUE_MSG(test, plus && sscanf(plus, "+%lx/%lx", &off, &size) == 2,
			      "%pS: no offset and size", (void *)ip);
	kunit_info(test, "the register frame's function: %s\n", sym);
	*from = ip - 1 - off;
	*to = *from + size;
}
#endif

static void api_addr_info_is_the_tables(struct kunit *test)
{
	unsigned int nr_type[KUNWIND_TYPE_MAX + 1] = { 0 };
	unsigned long sleeper = (unsigned long)kt_sleeper_start;
	unsigned long from, to;

	/* Code with a register frame's rows (and ordinary ones). */
	api_regs_rows(test, &from, &to);
	expect_info_is_the_table(test, from, to, nr_type);
	/* A C function of this module: its first 64 bytes. */
	expect_info_is_the_table(test, sleeper, sleeper + 64, nr_type);
	KUNIT_EXPECT_GT_MSG(test, nr_type[KUNWIND_TYPE_CALL], 0u,
			    "no ordinary frame's row: this module's table?");
	KUNIT_EXPECT_GT_MSG(test, nr_type[KUNWIND_TYPE_REGS], 0u,
			    "no register frame's row in %pS", (void *)from);
}

static void api_addr_info_outside_text(struct kunit *test)
{
	void *heap = kunit_kzalloc(test, 64, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, heap);
	KUNIT_EXPECT_EQ(test, kunwind_addr_info(0), 0u);
	KUNIT_EXPECT_EQ(test, kunwind_addr_info(1), 0u);
	KUNIT_EXPECT_EQ(test, kunwind_addr_info(-1ul), 0u);
	KUNIT_EXPECT_EQ(test, kunwind_addr_info((unsigned long)&api_data_word),
			0u);
	KUNIT_EXPECT_EQ(test, kunwind_addr_info((unsigned long)heap), 0u);
	KUNIT_EXPECT_EQ(test, kunwind_addr_info((unsigned long)current), 0u);
}

static void api_addr_info_trampoline(struct kunit *test)
{
	unsigned long rth = kunwind_sym.return_to_handler;
	unsigned int info;

	KUNIT_ASSERT_NE_MSG(test, rth, 0ul,
			    "no return_to_handler: function_graph missing");
	info = kunwind_addr_info(rth);
	KUNIT_EXPECT_EQ_MSG(test, info & (KUNWIND_ADDR_TEXT |
					  KUNWIND_ADDR_TRAMPOLINE),
			    (unsigned int)(KUNWIND_ADDR_TEXT |
					   KUNWIND_ADDR_TRAMPOLINE),
			    "return_to_handler: info %#x", info);
	/* One byte on is no trampoline: it is the address, not the function. */
	KUNIT_EXPECT_FALSE(test, kunwind_addr_info(rth + 1) &
			   KUNWIND_ADDR_TRAMPOLINE);
}

static struct kunit_case api_test_cases[] = {
	KUNIT_CASE(api_save_frames_equals_walk),
	KUNIT_CASE(api_save_frames_stops_when_full),
	KUNIT_CASE(api_addr_info_is_the_tables),
	KUNIT_CASE(api_addr_info_outside_text),
	KUNIT_CASE(api_addr_info_trampoline),
	{}
};

static struct kunit_suite api_test_suite = {
	.name = "kunwind_api",
	.test_cases = api_test_cases,
};

kunit_test_suite(api_test_suite);
