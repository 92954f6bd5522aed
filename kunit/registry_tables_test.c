// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_registry (registry_test.c), its cases on synthetic
 * tables: the registry's refusals (more than KUNWIND_MAX_SEGS segments, a
 * module's table outside its read-only memory, overlapping text) and the
 * lookup among many tables, as they come and go.  The tables are built
 * by table.c over buffers of this test's, which nobody runs.
 *
 * Tables refused on purpose are named kt_refuse_*: their one console
 * line each is expected (tests/harness/kunit-report.py).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include "unwind/linux/registry.h"
#include "unwind/linux/registry_lookup.h"
#include "kunwind_test.h"
#include "registry_test.h"
#include "table.h"
#include "trace.h"

#define FAKE_SEG	256	/* bytes of each synthetic segment */

/*
 * Fake text: the addresses of a buffer of this test's, which no
 * registered table covers, and which nobody runs; the tables only need
 * distinct addresses.
 */
static unsigned long fake_text(struct kunit *test, size_t size)
{
	void *p = kunit_kzalloc(test, size, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return (unsigned long)p;
}

/* nr segments of size bytes, step bytes apart from base; CFA rsp + cfa. */
static struct kunwind_hdr *fake_sized_table(struct kunit *test, unsigned long base,
					    unsigned int nr, unsigned long step,
					    u32 size, int cfa, size_t *len)
{
	struct kt_seg *segs = kunit_kcalloc(test, nr, sizeof(*segs), GFP_KERNEL);
	struct kt_row *row = kunit_kzalloc(test, sizeof(*row), GFP_KERNEL);
	struct kunwind_hdr *t;
	unsigned int i;

	KUNIT_ASSERT_TRUE(test, segs && row);
	*row = (struct kt_row){ 0, size, kt_frame(cfa, 0) };
	for (i = 0; i < nr; i++)
		segs[i] = (struct kt_seg){ ".text", base + i * step, size, row, 1 };
	t = kt_table_build(test, segs, nr, len);
	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

static struct kunwind_hdr *fake_table(struct kunit *test, unsigned long base,
				      unsigned int nr, unsigned long step,
				      int cfa, size_t *len)
{
	return fake_sized_table(test, base, nr, step, FAKE_SEG, cfa, len);
}

/*
 * Registrations a test makes, unregistered when it ends, however it
 * ends.  Made after the test's tables: KUnit releases in reverse order,
 * so the tables are unregistered before they are freed.
 */
struct fake_entries {
	struct kunwind_registration *entry[64];
	unsigned int nr;
};

static void fake_entries_release(void *arg)
{
	struct fake_entries *f = arg;
	unsigned int i;

	for (i = 0; i < f->nr; i++)
		if (!IS_ERR_OR_NULL(f->entry[i]))
			kunwind_unregister_table(f->entry[i]);
}

static struct fake_entries *fake_entries(struct kunit *test)
{
	struct fake_entries *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fake_entries_release, f), 0);
	return f;
}

/* Register t, whose text is [start, end); kept in f. */
static struct kunwind_registration *
fake_register(struct kunit *test, struct fake_entries *f, const char *name,
	      const struct kunwind_hdr *t, size_t len, unsigned long start,
	      unsigned long end)
{
	struct kunwind_text text = { start, end, false };
	struct kunwind_registration *entry;

	KUNIT_ASSERT_LT(test, f->nr, (unsigned int)ARRAY_SIZE(f->entry));
	entry = kunwind_register_table(name, NULL, t, len, 0, &text, 1);
	f->entry[f->nr++] = entry;
	return entry;
}

static void expect_found(struct kunit *test, unsigned long ip,
			 const struct kunwind_hdr *want_t, unsigned long want_start,
			 int cfa)
{
	const struct kunwind_hdr *t = NULL;
	const struct kunwind_seg *seg;
	struct kunwind_rule r;
	unsigned long start = 0;

	rcu_read_lock();
	seg = kunwind_registry_seg(ip, &t, &start);
	rcu_read_unlock();
	KUNIT_EXPECT_TRUE_MSG(test, seg && t == want_t && start == want_start,
			      "%lx: %s, start %lx (expected %lx)", ip,
			      !seg ? "not found" : t == want_t ? "right table" :
			      "another table", start, want_start);
	KUNIT_EXPECT_TRUE_MSG(test, kunwind_find_rule(ip, &r) && r.cfa_off == cfa,
			      "%lx: no rule, or CFA rsp + %d instead of rsp + %d",
			      ip, r.cfa_off, cfa);
}

static void expect_not_found(struct kunit *test, unsigned long ip)
{
	const struct kunwind_hdr *t;
	unsigned long start;
	bool found;

	rcu_read_lock();
	found = kunwind_registry_seg(ip, &t, &start);
	rcu_read_unlock();
	KUNIT_EXPECT_FALSE_MSG(test, found, "%lx found", ip);
}

void registry_table_over_segment_cap_refused(struct kunit *test)
{
	unsigned int nr = KUNWIND_MAX_SEGS + 1;
	unsigned long base = fake_text(test, nr * FAKE_SEG);
	struct kunwind_hdr *over, *at;
	struct kunwind_registration *entry;
	struct fake_entries *f;
	size_t over_len, at_len;
	unsigned int i;

	over = fake_table(test, base, nr, FAKE_SEG, 8, &over_len);
	at = fake_table(test, base, nr - 1, FAKE_SEG, 8, &at_len);
	f = fake_entries(test);
	KUNIT_ASSERT_EQ(test, kunwind_table_check(over, over_len), KUNWIND_OK);
	entry = fake_register(test, f, "kt_refuse_cap", over, over_len, base,
			      base + nr * FAKE_SEG);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(entry), -EINVAL);
	expect_not_found(test, base);

	/* At the cap: registered, every segment found. */
	entry = fake_register(test, f, "kt_registry_cap", at, at_len, base,
			      base + nr * FAKE_SEG);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(entry), "%d segments refused: %ld",
			       KUNWIND_MAX_SEGS, PTR_ERR(entry));
	for (i = 0; i < nr - 1; i++)
		expect_found(test, base + i * FAKE_SEG + FAKE_SEG / 2, at,
			     base + i * FAKE_SEG, 8);
}

/*
 * The module path's extent check, on this module: kunwind_module_table_len()
 * is what registers every module's table.
 */
static const struct kunwind_hdr kt_hdr_too_long __aligned(8) = {
	.magic = KUNWIND_MAGIC, .version = KUNWIND_VERSION, .size = 1u << 30,
};

static struct kunwind_hdr kt_hdr_writable __aligned(8) = {
	.magic = KUNWIND_MAGIC, .version = KUNWIND_VERSION,
	.size = sizeof(struct kunwind_hdr),
};

void registry_module_table_outside_read_only_memory_refused(struct kunit *test)
{
	const char *not_ro = "not in the module's read-only memory";
	const char *past = "it extends past the module's read-only memory";
	const struct kunwind_hdr *own = NULL, *early = NULL;
	struct module *mod = THIS_MODULE;
	const char *why = NULL;
	unsigned long start;

	rcu_read_lock();
	kunwind_registry_seg((unsigned long)kt_both_here, &own, &start);
	kunwind_registry_seg((unsigned long)kt_early_chain, &early, &start);
	rcu_read_unlock();
	KUNIT_ASSERT_NOT_NULL(test, own);
	/* This module's own table: whole, in its read-only data. */
	KUNIT_EXPECT_EQ(test, kunwind_module_table_len(mod, (unsigned long)own, &why),
			(unsigned long)own->size);

	/* A header in read-only data whose size reaches past it. */
	why = NULL;
	KUNIT_EXPECT_EQ(test, kunwind_module_table_len(mod, (unsigned long)&kt_hdr_too_long,
						       &why), 0ul);
	KUNIT_EXPECT_STREQ(test, why ? why : "(none)", past);
	/* The module's memory, but writable. */
	why = NULL;
	KUNIT_EXPECT_EQ(test, kunwind_module_table_len(mod, (unsigned long)&kt_hdr_writable,
						       &why), 0ul);
	KUNIT_EXPECT_STREQ(test, why ? why : "(none)", not_ro);
	/* Another module's table. */
	if (early) {
		why = NULL;
		KUNIT_EXPECT_EQ(test, kunwind_module_table_len(mod, (unsigned long)early,
							       &why), 0ul);
		KUNIT_EXPECT_STREQ(test, why ? why : "(none)", not_ro);
	}
	/* An extent that wraps around the address space. */
	why = NULL;
	KUNIT_EXPECT_EQ(test, kunwind_module_table_len(mod, ULONG_MAX - 7, &why), 0ul);
	KUNIT_EXPECT_STREQ(test, why ? why : "(none)", not_ro);
#ifdef for_each_mod_mem_type
	/* A header sticking out of the end of the read-only data. */
	{
		const struct module_memory *ro = &mod->mem[MOD_RODATA];
		unsigned long end = (unsigned long)ro->base + ro->size;

		why = NULL;
		KUNIT_EXPECT_EQ(test, kunwind_module_table_len(mod, end - 8, &why), 0ul);
		KUNIT_EXPECT_STREQ(test, why ? why : "(none)", not_ro);
	}
#endif
}

void registry_overlapping_text_refused(struct kunit *test)
{
	unsigned long base = fake_text(test, 4 * FAKE_SEG), end = base + 4 * FAKE_SEG;
	unsigned long text = (unsigned long)kt_both_here;
	struct kunwind_hdr *self, *a, *over, *touch, *real;
	size_t self_len, a_len, over_len, touch_len, real_len;
	struct kunwind_registration *entry;
	struct fake_entries *f;

	/* text + FAKE_SEG at run time: not a relocation into a function */
	OPTIMIZER_HIDE_VAR(text);
	/* Two segments of one table sharing bytes. */
	self = fake_table(test, base, 2, FAKE_SEG / 2, 8, &self_len);
	/* a: [0, 256) and [512, 768) of the buffer */
	a = fake_table(test, base, 2, 2 * FAKE_SEG, 16, &a_len);
	/* over: [767, 1023), one byte of a's second segment */
	over = fake_table(test, base + 3 * FAKE_SEG - 1, 1, FAKE_SEG, 24, &over_len);
	/* touch: [256, 512), between a's two, touching both */
	touch = fake_table(test, base + FAKE_SEG, 1, FAKE_SEG, 32, &touch_len);
	/* real: this module's text */
	real = fake_table(test, text, 1, FAKE_SEG, 40, &real_len);
	f = fake_entries(test);

	entry = fake_register(test, f, "kt_refuse_overlap_self", self, self_len, base, end);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(entry), -EINVAL);

	entry = fake_register(test, f, "kt_registry_a", a, a_len, base, end);
	KUNIT_ASSERT_FALSE(test, IS_ERR(entry));
	entry = fake_register(test, f, "kt_refuse_overlap", over, over_len, base, end);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(entry), -EINVAL);
	entry = fake_register(test, f, "kt_registry_touch", touch, touch_len, base, end);
	KUNIT_EXPECT_FALSE(test, IS_ERR(entry));
	expect_found(test, base + FAKE_SEG - 1, a, base, 16);
	expect_found(test, base + FAKE_SEG, touch, base + FAKE_SEG, 32);
	expect_found(test, base + 2 * FAKE_SEG - 1, touch, base + FAKE_SEG, 32);
	expect_found(test, base + 2 * FAKE_SEG, a, base + 2 * FAKE_SEG, 16);
	expect_not_found(test, base + 3 * FAKE_SEG);

	entry = fake_register(test, f, "kt_refuse_overlap_text", real, real_len,
			      text, text + FAKE_SEG);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(entry), -EINVAL);
}

/*
 * 40 tables of 3 segments with gaps between them, registered out of
 * address order, each with its own CFA, many to a 16 KiB block of the
 * lookup's index; then every other one goes.  And one segment over
 * several blocks, found at each block's edges.
 */
#define MANY	40
#define BIG	(3 * 16384 + 1000)

void registry_find_picks_the_segment_among_many_tables(struct kunit *test)
{
	unsigned long span = 3 * 2 * FAKE_SEG;
	unsigned long base = fake_text(test, MANY * span);
	unsigned long big_base = fake_text(test, BIG), a;
	struct kunwind_hdr *t[MANY], *big;
	size_t len[MANY], big_len;
	struct fake_entries *f;
	unsigned int k, j, n;

	for (k = 0; k < MANY; k++)
		t[k] = fake_table(test, base + k * span, 3, 2 * FAKE_SEG,
				  8 * (k + 1), &len[k]);
	big = fake_sized_table(test, big_base, 1, 0, BIG, 1000, &big_len);
	f = fake_entries(test);
	KUNIT_ASSERT_FALSE(test, IS_ERR(fake_register(test, f, "kt_registry_big", big,
						      big_len, big_base, big_base + BIG)));
	for (a = ALIGN(big_base + 1, 16384); a < big_base + BIG; a += 16384) {
		expect_found(test, a - 1, big, big_base, 1000);
		expect_found(test, a, big, big_base, 1000);
	}
	expect_found(test, big_base, big, big_base, 1000);
	expect_found(test, big_base + BIG - 1, big, big_base, 1000);
	expect_not_found(test, big_base + BIG);
	for (n = 0; n < MANY; n++) {
		k = n * 17 % MANY;	/* 17 and 40 coprime: each once */
		KUNIT_ASSERT_FALSE(test, IS_ERR(fake_register(test, f, "kt_registry_many", t[k],
							      len[k], base, base + MANY * span)));
	}
	KUNIT_ASSERT_EQ(test, f->nr, (unsigned int)MANY + 1);
	for (k = 0; k < MANY; k++) {
		for (j = 0; j < 3; j++) {
			unsigned long s = base + k * span + j * 2 * FAKE_SEG;

			expect_found(test, s, t[k], s, 8 * (k + 1));
			expect_found(test, s + FAKE_SEG - 1, t[k], s, 8 * (k + 1));
			expect_not_found(test, s + FAKE_SEG);	/* the gap */
		}
	}
	expect_not_found(test, base - 1);

	/* Every other table goes; the rest stay found. */
	for (n = 0; n < MANY; n += 2) {
		k = n * 17 % MANY;
		kunwind_unregister_table(f->entry[n + 1]);
		f->entry[n + 1] = NULL;
		expect_not_found(test, base + k * span);
	}
	for (n = 1; n < MANY; n += 2) {
		k = n * 17 % MANY;
		expect_found(test, base + k * span + 4 * FAKE_SEG + 1, t[k],
			     base + k * span + 4 * FAKE_SEG, 8 * (k + 1));
	}
}
