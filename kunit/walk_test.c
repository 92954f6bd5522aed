// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_walk: the walker of the kernel build (kunwind_start(),
 * kunwind_next()) over synthetic stacks: fake stack memory behind
 * struct kunwind_ops hooks with bounds, and a synthetic program table.
 * Every stop reason of enum kunwind_stop is reached, plus the rules a
 * real walk depends on (ip - 1, register, iret and signal frames, stack
 * switches, the rbp fallback).  Mirrors tests/unit.c's test_walks().
 */
#include <linux/slab.h>
#include <linux/string.h>
#include "kunwind_test.h"

#define STACK	0x7000ul
#define STACK2	0x20000ul
#define WORDS	64

struct fake {
	unsigned long lo, hi, lo2, hi2;
	unsigned long mem[WORDS], mem2[WORDS];
	bool two;			/* the second stack exists */
	const struct kunwind_hdr *t;
	unsigned int reads;
};

static const struct kunwind_seg *f_find(void *ctx, unsigned long ip,
				       const struct kunwind_hdr **table,
				       unsigned long *start)
{
	struct fake *f = ctx;

	*table = f->t;
	return kunwind_table_seg(f->t, 0, ip, start);
}

static bool f_read(void *ctx, unsigned long addr, unsigned long *val)
{
	struct fake *f = ctx;

	f->reads++;
	if (addr & 7)
		return false;
	if (addr >= f->lo && addr + 8 <= f->hi) {
		*val = f->mem[(addr - f->lo) / 8];
		return true;
	}
	if (f->two && addr >= f->lo2 && addr + 8 <= f->hi2) {
		*val = f->mem2[(addr - f->lo2) / 8];
		return true;
	}
	return false;
}

static bool f_stack(void *ctx, unsigned long sp, unsigned long *lo,
		    unsigned long *hi)
{
	struct fake *f = ctx;

	if (sp >= f->lo && sp <= f->hi) {
		*lo = f->lo;
		*hi = f->hi + 1;	/* an empty stack's sp may equal its top */
		return true;
	}
	if (f->two && sp >= f->lo2 && sp <= f->hi2) {
		*lo = f->lo2;
		*hi = f->hi2 + 1;
		return true;
	}
	return false;
}

/* The synthetic program's text, [0x1000, 0x1e00): nothing else is code. */
static bool f_text_ok(void *ctx, unsigned long ip)
{
	return ip >= 0x1000 && ip < 0x1e00;
}

static const struct kunwind_ops fake_ops = {
	.find_seg = f_find,
	.read = f_read,
	.stack = f_stack,
	.text_ok = f_text_ok,
};

/*
 * The synthetic program, one function per 0x100 bytes (as tests/unit.c):
 *   0x1000 leaf: CFA rsp+8          0x1100 mid: CFA rsp+24, rbp at c-16
 *   0x1200 fp:   CFA rbp+16, c-16   0x1300 end: end of stack
 *   0x1400 regs: pt_regs at rsp     0x1500 unsupported
 *   0x1600 signal: ucontext at rsp  0x1700 iret frame at rsp
 *   0x1800 gap (no row)             0x1900 a no-return caller's tail
 *   0x1a00 CFA rsp+64 (right after 0x19ff)
 *   0x1b00 stack switch: CFA *(rsp)+16, rbp at c-16
 *   0x1c00 undefined                0x1d00 PLT (threshold 11)
 */
static const struct kt_row program_rows[] = {
	{ 0x000, 0x100, { 8, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	{ 0x100, 0x200, { 24, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	{ 0x200, 0x300, { 16, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_BP } },
	{ 0x300, 0x400, { 8, 0, KUNWIND_TYPE_END, KUNWIND_REG_SP } },
	{ 0x400, 0x500, { 0, 0, KUNWIND_TYPE_REGS, KUNWIND_REG_SP } },
	{ 0x500, 0x600, { 0, 0, KUNWIND_TYPE_UNSUPPORTED, 0 } },
	{ 0x600, 0x700, { 0, 0, KUNWIND_TYPE_SIGNAL, KUNWIND_REG_SP } },
	{ 0x700, 0x800, { 0, 0, KUNWIND_TYPE_IRET, KUNWIND_REG_SP } },
	{ 0x900, 0xa00, { 16, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	{ 0xa00, 0xb00, { 64, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	{ 0xb00, 0xc00, { 16, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP_INDIRECT } },
	{ 0xc00, 0xd00, { 0, 0, KUNWIND_TYPE_UNDEFINED, 0 } },
	{ 0xd00, 0xe00, { 8, 0, KUNWIND_TYPE_PLT, 11 } },
};

static struct fake *fake_new(struct kunit *test)
{
	struct kt_seg seg = { ".text", 0x1000, 0xe00, program_rows,
			      ARRAY_SIZE(program_rows) };
	struct fake *f;
	size_t len;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f);
	f->lo = STACK;
	f->hi = STACK + 8 * WORDS;
	f->lo2 = STACK2;
	f->hi2 = STACK2 + 8 * WORDS;
	f->t = kt_table_build(test, &seg, 1, &len);
	KUNIT_ASSERT_NOT_NULL(test, f->t);
	KUNIT_ASSERT_EQ(test, kunwind_table_check(f->t, len), KUNWIND_OK);
	return f;
}

static void put(struct fake *f, unsigned long addr, unsigned long val)
{
	if (addr >= f->lo2 && addr < f->hi2)
		f->mem2[(addr - f->lo2) / 8] = val;
	else
		f->mem[(addr - f->lo) / 8] = val;
}

struct walked {
	struct kunwind_state s;
	unsigned long ip[40];
	unsigned int n;
};

static void walk(struct fake *f, struct walked *w, unsigned long ip,
		 unsigned long sp, unsigned long bp, unsigned int flags)
{
	kunwind_start(&w->s, &fake_ops, f, ip, sp, bp, 32, flags);
	w->n = 0;
	w->ip[w->n++] = w->s.ip;
	while (kunwind_next(&w->s) && w->n < ARRAY_SIZE(w->ip))
		w->ip[w->n++] = w->s.ip;
}

#define EXPECT_STOP(test, w, want)					\
	KUNIT_EXPECT_EQ_MSG(test, (w)->s.stop, want,			\
			    "expected stop \"%s\", got \"%s\" after %u frames", \
			    kunwind_stop_str(want), kunwind_stop_str((w)->s.stop), \
			    (w)->n)

/* ---- every stop reason ---- */

struct stop_case {
	const char *name;
	enum kunwind_stop want;
	unsigned int frames;
	void (*run)(struct fake *f, struct walked *w);
};

/* leaf -> mid -> end: complete, rbp restored from mid's frame. */
static void s_end(struct fake *f, struct walked *w)
{
	put(f, STACK + 0x00, 0x1150);		/* leaf's RA into mid */
	put(f, STACK + 0x10, 0xbbbb);		/* mid's saved rbp at CFA-16 */
	put(f, STACK + 0x18, 0x1310);		/* mid's RA into end */
	walk(f, w, 0x1010, STACK, 0x1234, 0);
}

static void s_no_row(struct fake *f, struct walked *w)
{
	walk(f, w, 0x1810, STACK, STACK + 0x20, 0);
}

static void s_no_table(struct fake *f, struct walked *w)
{
	walk(f, w, 0x9000, STACK, 0, 0);
}

static void s_undefined(struct fake *f, struct walked *w)
{
	walk(f, w, 0x1c10, STACK, 0, 0);
}

static void s_bad_read(struct fake *f, struct walked *w)
{
	/* leaf's RA is read at sp, which is the top of the stack. */
	walk(f, w, 0x1010, STACK + 8 * WORDS, 0, 0);
}

static void s_unknown_stack(struct fake *f, struct walked *w)
{
	put(f, STACK + KUNWIND_PT_REGS_IP, 0x1010);
	put(f, STACK + KUNWIND_PT_REGS_SP, 0x90000);	/* no such stack */
	walk(f, w, 0x1410, STACK, 0, 0);
}

static void s_sp_direction(struct fake *f, struct walked *w)
{
	put(f, STACK + 0x28, 0x1010);		/* rbp-based: RA at rbp + 8 */
	walk(f, w, 0x1210, STACK + 0x100, STACK + 0x20, 0);
}

static void s_depth(struct fake *f, struct walked *w)
{
	unsigned int i;

	for (i = 0; i < WORDS; i++)
		f->mem[i] = 0x1010;		/* a recursion that never ends */
	walk(f, w, 0x1010, STACK, 0, 0);
}

static void s_unsupported(struct fake *f, struct walked *w)
{
	walk(f, w, 0x1510, STACK, 0, 0);
}

static void s_bad_start(struct fake *f, struct walked *w)
{
	walk(f, w, 0x1010, 0x50000, 0, 0);	/* sp on no stack at all */
}

static void s_bad_ra(struct fake *f, struct walked *w)
{
	put(f, STACK + 0x00, STACK + 0x40);	/* leaf's RA: a stack address */
	walk(f, w, 0x1010, STACK, 0, 0);
}

static void s_user_regs(struct fake *f, struct walked *w)
{
	put(f, STACK + KUNWIND_PT_REGS_IP, 0x1010);
	put(f, STACK + KUNWIND_PT_REGS_SP, STACK + 0x100);
	put(f, STACK + KUNWIND_PT_REGS_CS, 0x33);	/* user mode */
	walk(f, w, 0x1410, STACK, 0, 0);
}

static const struct stop_case stop_cases[] = {
	{ "end_of_stack", KUNWIND_STOP_END, 3, s_end },
	{ "no_row_in_a_gap", KUNWIND_STOP_NO_ROW, 1, s_no_row },
	{ "no_row_without_table", KUNWIND_STOP_NO_ROW, 1, s_no_table },
	{ "no_row_where_undefined", KUNWIND_STOP_NO_ROW, 1, s_undefined },
	{ "bad_read_off_the_stack", KUNWIND_STOP_BAD_READ, 1, s_bad_read },
	{ "bad_read_on_unknown_stack", KUNWIND_STOP_BAD_READ, 1, s_unknown_stack },
	{ "bad_read_when_sp_is_on_no_stack", KUNWIND_STOP_BAD_READ, 1, s_bad_start },
	{ "sp_direction_when_sp_goes_down", KUNWIND_STOP_SP_DIRECTION, 1, s_sp_direction },
	{ "depth_limit", KUNWIND_STOP_DEPTH, 32, s_depth },
	{ "unsupported_rule", KUNWIND_STOP_UNSUPPORTED, 1, s_unsupported },
	{ "bad_return_address_not_text", KUNWIND_STOP_BAD_RA, 1, s_bad_ra },
	{ "end_at_user_mode_register_frame", KUNWIND_STOP_END, 1, s_user_regs },
};

static void stop_case_desc(const struct stop_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(stop, stop_cases, stop_case_desc);

static void walk_reaches_stop_reason(struct kunit *test)
{
	const struct stop_case *c = test->param_value;
	struct fake *f = fake_new(test);
	struct walked w;

	c->run(f, &w);
	EXPECT_STOP(test, &w, c->want);
	KUNIT_EXPECT_EQ(test, w.n, c->frames);
	KUNIT_EXPECT_TRUE(test, kunwind_done(&w.s));
	/* A stopped walk stays stopped. */
	KUNIT_EXPECT_FALSE(test, kunwind_next(&w.s));
	KUNIT_EXPECT_EQ(test, w.s.stop, c->want);
}

/* Every reason but "not stopped" is in stop_cases. */
static void walk_stop_cases_cover_every_reason(struct kunit *test)
{
	unsigned int seen = 0, i;

	for (i = 0; i < ARRAY_SIZE(stop_cases); i++)
		seen |= 1u << stop_cases[i].want;
	for (i = KUNWIND_STOP_NONE + 1; i < KUNWIND_STOP_NR; i++)
		KUNIT_EXPECT_TRUE_MSG(test, seen & (1u << i),
				      "no case reaches \"%s\"", kunwind_stop_str(i));
}

/* ---- the rules of a walk ---- */

static void walk_end_restores_rbp(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	s_end(f, &w);
	KUNIT_ASSERT_EQ(test, w.n, 3u);
	KUNIT_EXPECT_EQ(test, w.ip[1], 0x1150ul);
	KUNIT_EXPECT_EQ(test, w.ip[2], 0x1310ul);
	KUNIT_EXPECT_EQ(test, w.s.bp, 0xbbbbul);
	KUNIT_EXPECT_FALSE(test, w.s.unreliable);
}

static void walk_follows_rbp_based_cfa(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	put(f, STACK + 0x20, 0x5555);		/* saved rbp at rbp */
	put(f, STACK + 0x28, 0x1320);		/* RA at rbp + 8 */
	walk(f, &w, 0x1210, STACK, STACK + 0x20, 0);
	EXPECT_STOP(test, &w, KUNWIND_STOP_END);
	KUNIT_ASSERT_EQ(test, w.n, 2u);
	KUNIT_EXPECT_EQ(test, w.ip[1], 0x1320ul);
	KUNIT_EXPECT_EQ(test, w.s.sp, STACK + 0x30);
	KUNIT_EXPECT_EQ(test, w.s.bp, 0x5555ul);
}

static void walk_fp_fallback_is_unreliable(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	put(f, STACK + 0x20, 0x5555);
	put(f, STACK + 0x28, 0x1320);
	walk(f, &w, 0x1810, STACK, STACK + 0x20, KUNWIND_FP_FALLBACK);
	EXPECT_STOP(test, &w, KUNWIND_STOP_END);
	KUNIT_ASSERT_EQ(test, w.n, 2u);
	KUNIT_EXPECT_EQ(test, w.ip[1], 0x1320ul);
	KUNIT_EXPECT_TRUE(test, w.s.unreliable);
}

/*
 * A return address 0x1a00 is the first byte of the next function (a call
 * to a no-return function ended the caller at 0x19ff): the caller's rule
 * (rsp+16) must be used, not 0x1a00's (rsp+64).
 */
static void walk_looks_up_return_address_minus_one(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	put(f, STACK + 0x00, 0x1a00);		/* leaf returns to 0x1a00 */
	put(f, STACK + 0x10, 0x1310);		/* 0x19xx frame: CFA rsp+16 */
	walk(f, &w, 0x1010, STACK, 0, 0);
	EXPECT_STOP(test, &w, KUNWIND_STOP_END);
	KUNIT_ASSERT_EQ(test, w.n, 3u);
	KUNIT_EXPECT_EQ(test, w.ip[2], 0x1310ul);
}

static void walk_first_frame_uses_exact_ip(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	put(f, STACK + 0x38, 0x1310);
	walk(f, &w, 0x1a00, STACK, 0, 0);
	EXPECT_STOP(test, &w, KUNWIND_STOP_END);
	KUNIT_EXPECT_EQ(test, w.n, 2u);
	KUNIT_EXPECT_EQ(test, w.s.sp, STACK + 64);
}

/* KUNWIND_FIRST_CALLED: a sleeping task's first ip is a return address. */
static void walk_first_called_uses_ip_minus_one(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	put(f, STACK + 0x08, 0x1310);		/* 0x19xx: RA at rsp + 8 */
	walk(f, &w, 0x1a00, STACK, 0, KUNWIND_FIRST_CALLED);
	EXPECT_STOP(test, &w, KUNWIND_STOP_END);
	KUNIT_ASSERT_EQ(test, w.n, 2u);
	KUNIT_EXPECT_EQ(test, w.ip[1], 0x1310ul);
	KUNIT_EXPECT_EQ(test, w.s.sp, STACK + 16);
}

static void walk_regs_frame_then_exact_ip(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	put(f, STACK + KUNWIND_PT_REGS_IP, 0x1a00);
	put(f, STACK + KUNWIND_PT_REGS_SP, STACK + 0x1c0);
	put(f, STACK + KUNWIND_PT_REGS_BP, 0x7777);
	put(f, STACK + 0x1c0 + 56, 0x1310);	/* 0x1a00: RA at CFA - 8 */
	walk(f, &w, 0x1410, STACK, 0, 0);
	EXPECT_STOP(test, &w, KUNWIND_STOP_END);
	KUNIT_ASSERT_EQ(test, w.n, 3u);
	KUNIT_EXPECT_EQ(test, w.ip[1], 0x1a00ul);
	KUNIT_EXPECT_EQ(test, w.ip[2], 0x1310ul);
	KUNIT_EXPECT_EQ(test, w.s.bp, 0x7777ul);
}

static void walk_signal_frame(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	put(f, STACK + KUNWIND_UC_IP, 0x1a00);
	put(f, STACK + KUNWIND_UC_SP, STACK + 0x1c0);
	put(f, STACK + KUNWIND_UC_BP, 0x6666);
	put(f, STACK + 0x1c0 + 56, 0x1310);
	walk(f, &w, 0x1610, STACK, 0, 0);
	EXPECT_STOP(test, &w, KUNWIND_STOP_END);
	KUNIT_ASSERT_EQ(test, w.n, 3u);
	KUNIT_EXPECT_EQ(test, w.ip[1], 0x1a00ul);
	KUNIT_EXPECT_EQ(test, w.s.bp, 0x6666ul);
}

static void walk_iret_frame_keeps_rbp(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	put(f, STACK + KUNWIND_IRET_IP, 0x1a00);
	put(f, STACK + KUNWIND_IRET_SP, STACK + 0x1c0);
	put(f, STACK + 0x1c0 + 56, 0x1310);
	walk(f, &w, 0x1710, STACK, 0x4444, 0);
	EXPECT_STOP(test, &w, KUNWIND_STOP_END);
	KUNIT_ASSERT_EQ(test, w.n, 3u);
	KUNIT_EXPECT_EQ(test, w.ip[1], 0x1a00ul);
	KUNIT_EXPECT_EQ(test, w.s.bp, 0x4444ul);
}

static void walk_regs_frame_switches_to_another_known_stack(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	f->two = true;
	put(f, STACK + KUNWIND_PT_REGS_IP, 0x1010);
	put(f, STACK + KUNWIND_PT_REGS_SP, STACK2);
	put(f, STACK2, 0x1310);			/* leaf's RA on the other stack */
	walk(f, &w, 0x1410, STACK, 0, 0);
	EXPECT_STOP(test, &w, KUNWIND_STOP_END);
	KUNIT_EXPECT_EQ(test, w.n, 3u);
	KUNIT_EXPECT_EQ(test, w.s.stack_lo, STACK2);
}

/* A stack switch hint: the old sp was saved at [rsp] of the new stack. */
static void walk_stack_switch_reads_saved_sp(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	f->two = true;
	put(f, STACK2, STACK + 0x20);		/* saved sp on the new stack */
	put(f, STACK + 0x20, 0xabcd);		/* rbp at CFA - 16 */
	put(f, STACK + 0x28, 0x1310);		/* RA at CFA - 8 */
	walk(f, &w, 0x1b10, STACK2, 0, 0);
	EXPECT_STOP(test, &w, KUNWIND_STOP_END);
	KUNIT_ASSERT_EQ(test, w.n, 2u);
	KUNIT_EXPECT_EQ(test, w.ip[1], 0x1310ul);
	KUNIT_EXPECT_EQ(test, w.s.sp, STACK + 0x30);
	KUNIT_EXPECT_EQ(test, w.s.bp, 0xabcdul);
}

/*
 * A call frame may not leave its stack: the return address of a frame
 * whose CFA lies beyond the top is never read, even if the memory there
 * could be read.
 */
static void walk_never_reads_outside_known_stacks(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	put(f, STACK + 8 * WORDS - 8, 0x1010);
	/* mid: CFA = sp + 24 lands 16 bytes past the top */
	walk(f, &w, 0x1110, STACK + 8 * WORDS - 8, 0, 0);
	EXPECT_STOP(test, &w, KUNWIND_STOP_BAD_READ);
	KUNIT_EXPECT_EQ(test, w.n, 1u);
}

static void walk_plt_rule_depends_on_ip(struct kunit *test)
{
	struct fake *f = fake_new(test);
	struct walked w;

	put(f, STACK + 0x00, 0x1310);		/* (ip & 15) < 11: rsp + 8 */
	put(f, STACK + 0x08, 0x1320);		/* (ip & 15) >= 11: rsp + 16 */
	walk(f, &w, 0x1d02, STACK, 0, 0);
	KUNIT_ASSERT_EQ(test, w.n, 2u);
	KUNIT_EXPECT_EQ(test, w.ip[1], 0x1310ul);
	walk(f, &w, 0x1d0c, STACK, 0, 0);
	KUNIT_ASSERT_EQ(test, w.n, 2u);
	KUNIT_EXPECT_EQ(test, w.ip[1], 0x1320ul);
}

/* The optional lookup cache returns what the table says, twice. */
static void walk_cache_gives_the_same_frames(struct kunit *test)
{
	struct kunwind_cache *cache;
	struct fake *f = fake_new(test);
	struct walked *a, *b;
	unsigned int round;

	/* Off the stack: two walks would pass the 1024-byte frame limit. */
	cache = kunit_kzalloc(test, sizeof(*cache), GFP_KERNEL);
	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cache);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	kunwind_cache_clear(cache);
	s_end(f, a);
	for (round = 0; round < 2; round++) {
		kunwind_start(&b->s, &fake_ops, f, 0x1010, STACK, 0x1234, 32, 0);
		b->s.cache = cache;
		b->n = 0;
		b->ip[b->n++] = b->s.ip;
		while (kunwind_next(&b->s))
			b->ip[b->n++] = b->s.ip;
		KUNIT_EXPECT_EQ(test, b->s.stop, a->s.stop);
		KUNIT_ASSERT_EQ(test, b->n, a->n);
		KUNIT_EXPECT_EQ(test, memcmp(a->ip, b->ip, a->n * sizeof(a->ip[0])), 0);
	}
}

static struct kunit_case walk_test_cases[] = {
	KUNIT_CASE_PARAM(walk_reaches_stop_reason, stop_gen_params),
	KUNIT_CASE(walk_stop_cases_cover_every_reason),
	KUNIT_CASE(walk_end_restores_rbp),
	KUNIT_CASE(walk_follows_rbp_based_cfa),
	KUNIT_CASE(walk_fp_fallback_is_unreliable),
	KUNIT_CASE(walk_looks_up_return_address_minus_one),
	KUNIT_CASE(walk_first_frame_uses_exact_ip),
	KUNIT_CASE(walk_first_called_uses_ip_minus_one),
	KUNIT_CASE(walk_regs_frame_then_exact_ip),
	KUNIT_CASE(walk_signal_frame),
	KUNIT_CASE(walk_iret_frame_keeps_rbp),
	KUNIT_CASE(walk_regs_frame_switches_to_another_known_stack),
	KUNIT_CASE(walk_stack_switch_reads_saved_sp),
	KUNIT_CASE(walk_never_reads_outside_known_stacks),
	KUNIT_CASE(walk_plt_rule_depends_on_ip),
	KUNIT_CASE(walk_cache_gives_the_same_frames),
	{}
};

static struct kunit_suite walk_test_suite = {
	.name = "kunwind_walk",
	.test_cases = walk_test_cases,
};

kunit_test_suite(walk_test_suite);
