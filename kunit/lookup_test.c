// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_lookup: kunwind_table_check() and kunwind_find() of the
 * kernel build, on synthetic tables (table.c).  Mirrors tests/unit.c, the
 * host build's tests of the same code: every byte of a segment finds the
 * row it was built from, gaps and addresses outside find nothing, and
 * every kind of corruption is refused with the reason that names it.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include "kunwind_test.h"

/* A fixed pseudo-random sequence: a failure reproduces. */
static u32 lcg(u32 *state)
{
	*state = *state * 1103515245 + 12345;
	return *state >> 8;
}

/*
 * Rows of many lengths over 200 KB of text: runs longer than a bucket,
 * buckets where no row starts, gaps, more than one super-block, and
 * nr_rules distinct rules (above 256: wide rows).
 */
static struct kt_row *random_rows(struct kunit *test, unsigned int nr_rules,
				  unsigned int *nr, u32 *end)
{
	struct kt_row *rows;
	u32 a = 0x1000, i, seed = 1;
	unsigned int max = 20000;

	rows = kunit_kcalloc(test, max, sizeof(*rows), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rows);
	for (i = 0; i < max && a < 0x1000 + 200000; i++) {
		u32 len = 1 + lcg(&seed) % (i % 7 == 0 ? 900 : 40);

		if (i % 13 == 0)
			a += lcg(&seed) % 64;		/* a gap */
		rows[i].start = a;
		rows[i].end = a + len;
		/* nr_rules distinct rules: bp_off follows cfa_off. */
		rows[i].rule = kt_call(KUNWIND_REG_SP, 8 + 8 * (i % nr_rules),
				       (i % nr_rules) % 3 ? -16 : 0);
		a += len;
	}
	*nr = i;
	*end = a;
	return rows;
}

struct lookup_case {
	const char *name;
	unsigned int nr_rules;
	bool wide;
};

static const struct lookup_case lookup_cases[] = {
	{ "narrow_rows_200_rules", 200, false },
	{ "wide_rows_300_rules", 300, true },
};

static void lookup_case_desc(const struct lookup_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lookup, lookup_cases, lookup_case_desc);

static void lookup_every_byte_finds_its_row(struct kunit *test)
{
	const struct lookup_case *c = test->param_value;
	unsigned int nr, i, bad = 0, n = 0;
	unsigned long bad_at = 0;
	struct kunwind_hdr *t;
	struct kt_seg seg;
	struct kt_row *rows;
	size_t len;
	u32 end, a;

	rows = random_rows(test, c->nr_rules, &nr, &end);
	seg = (struct kt_seg){ ".text", 0x1000, end - 0x1000 + 0x100, NULL, nr };
	/* Segment-relative rows. */
	for (i = 0; i < nr; i++) {
		rows[i].start -= 0x1000;
		rows[i].end -= 0x1000;
	}
	seg.rows = rows;
	t = kt_table_build(test, &seg, 1, &len);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ_MSG(test, kunwind_table_check(t, len), KUNWIND_OK,
			    "the built table is refused: %s",
			    kunwind_bad_str(kunwind_table_check(t, len)));
	KUNIT_EXPECT_EQ(test, !!(t->flags & KUNWIND_F_WIDE), c->wide);

	for (i = 0; i < nr; i++) {
		for (a = rows[i].start; a < rows[i].end; a++, n++) {
			const struct kunwind_rule *r = kunwind_find(t, 0x1000 + a);

			if (!r || memcmp(r, &rows[i].rule, sizeof(*r))) {
				if (!bad++)
					bad_at = 0x1000 + a;
			}
		}
		/* The first byte of a gap has no information. */
		if (i + 1 < nr && rows[i + 1].start > rows[i].end) {
			const struct kunwind_rule *r =
				kunwind_find(t, 0x1000 + rows[i].end);

			if (!r || r->type != KUNWIND_TYPE_NONE) {
				if (!bad++)
					bad_at = 0x1000 + rows[i].end;
			}
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0,
			    "%u of %u bytes found the wrong rule, first at %#lx",
			    bad, n, bad_at);
	KUNIT_EXPECT_GT(test, n, 190000u);
}

static void lookup_outside_every_segment_finds_nothing(struct kunit *test)
{
	static const struct kt_row rows[] = {
		{ 0, 0x10, { 8, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
		{ 0x10, 0x300, { 16, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	};
	struct kt_seg seg = { ".text", 0xffffffffc0001000ul, 0x300, rows, 2 };
	struct kunwind_hdr *t;
	size_t len;

	t = kt_table_build(test, &seg, 1, &len);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, kunwind_table_check(t, len), KUNWIND_OK);
	KUNIT_EXPECT_NULL(test, kunwind_find(t, seg.base - 1));
	KUNIT_EXPECT_NULL(test, kunwind_find(t, seg.base + seg.size));
	KUNIT_EXPECT_NULL(test, kunwind_find(t, 0));
	KUNIT_EXPECT_NOT_NULL(test, kunwind_find(t, seg.base));
	KUNIT_EXPECT_NOT_NULL(test, kunwind_find(t, seg.base + seg.size - 1));
	KUNIT_EXPECT_EQ(test, kunwind_find(t, seg.base + 0x20)->cfa_off, 16);
}

/*
 * The segments of a module's table all start at offset 0 before the
 * loader relocates them; after relocation each must answer for its own
 * addresses only.  Three segments with the same offsets and different
 * rules at each offset, placed apart as the loader would.
 */
static void lookup_relocated_segments_answer_for_their_own_text(struct kunit *test)
{
	static const struct kt_row text[] = {
		{ 0, 0x40, { 8, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	};
	static const struct kt_row init[] = {
		{ 0, 0x40, { 24, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	};
	static const struct kt_row exit[] = {
		{ 0, 0x40, { 40, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	};
	const struct kt_seg segs[] = {
		{ ".text", 0xffffffffc0010000ul, 0x40, text, 1 },
		{ ".init.text", 0xffffffffc0200000ul, 0x40, init, 1 },
		{ ".exit.text", 0xffffffffc0010040ul, 0x40, exit, 1 },
	};
	const struct kunwind_seg *seg;
	struct kunwind_hdr *t;
	unsigned int i;
	size_t len;

	t = kt_table_build(test, segs, 3, &len);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, kunwind_table_check(t, len), KUNWIND_OK);
	for (i = 0; i < 3; i++) {
		unsigned long a = segs[i].base + 0x17;

		seg = kunwind_find_seg(t, a);
		KUNIT_ASSERT_NOT_NULL(test, seg);
		KUNIT_EXPECT_STREQ(test, kunwind_seg_name(t, seg), segs[i].name);
		KUNIT_EXPECT_EQ_MSG(test, kunwind_find(t, a)->cfa_off,
				    segs[i].rows[0].rule.cfa_off,
				    "%s + 0x17 found another section's rule",
				    segs[i].name);
	}
}

/* ---- table checks ---- */

enum corrupt_what {
	C_NONE,
	C_MAGIC,
	C_VERSION,
	C_FLAGS,
	C_SIZE,
	C_RULES,
	C_NR_ROWS,
	C_NR_SEGS,
	C_MISALIGNED,
	C_TYPE,
	C_REG,
	C_RULE0,
	C_INDEX,
	C_UNSORTED,
	C_UNCOVERED,
	C_BUCKETS,
	C_BUCKET0,
	C_EMPTY,
	C_NAME,
};

struct corruption {
	const char *name;
	enum kunwind_bad want;
	enum corrupt_what what;
};

/* tests/unit.c's corruptions of its small table, and more. */
static void corrupt(struct kunwind_hdr *c, size_t len, enum corrupt_what what)
{
	struct kunwind_seg *seg = (struct kunwind_seg *)(c + 1);
	struct kunwind_rule *rules = (struct kunwind_rule *)((u8 *)c + c->rules);
	u16 *bucket = (u16 *)((u8 *)c + seg->bucket);
	u8 *rows = (u8 *)c + seg->rows;

	switch (what) {
	case C_MAGIC:
		c->magic ^= 1;
		break;
	case C_VERSION:
		c->version++;
		break;
	case C_FLAGS:
		c->flags |= 0x100;
		break;
	case C_SIZE:
		c->size = len + 8;
		break;
	case C_RULES:
		c->rules = len - 4;
		break;
	case C_NR_ROWS:
		seg->nr_rows = 1 << 20;
		break;
	case C_NR_SEGS:
		c->nr_segs = 0xffff;
		break;
	case C_MISALIGNED:
		seg->super |= 1;
		break;
	case C_TYPE:
		rules[1].type = 99;
		break;
	case C_REG:
		rules[1].reg = 3;
		break;
	case C_RULE0:
		rules[0].type = KUNWIND_TYPE_CALL;
		rules[0].reg = KUNWIND_REG_SP;
		break;
	case C_INDEX:
		rows[1] = c->nr_rules;
		break;
	case C_UNSORTED:
		rows[2] = 0;
		break;
	case C_UNCOVERED:
		rows[0] = 4;
		break;
	case C_BUCKETS:
		bucket[2] = 0;
		break;
	case C_BUCKET0:
		/* row 0 must be in bucket 0, or bucket 0 finds row -1 */
		bucket[1] = 0;
		break;
	case C_EMPTY:
		seg->size = 0;
		break;
	case C_NAME:
		seg->name = len - c->strings - 1;
		((char *)c)[len - 1] = 'x';
		break;
	case C_NONE:
		break;
	}
}

static const struct corruption corruptions[] = {
	{ "accepts_valid_table", KUNWIND_OK, C_NONE },
	{ "refuses_bad_magic", KUNWIND_BAD_MAGIC, C_MAGIC },
	{ "refuses_newer_version", KUNWIND_BAD_VERSION, C_VERSION },
	{ "refuses_unknown_flags", KUNWIND_BAD_VERSION, C_FLAGS },
	{ "refuses_truncated", KUNWIND_BAD_SIZE, C_SIZE },
	{ "refuses_rules_out_of_bounds", KUNWIND_BAD_LAYOUT, C_RULES },
	{ "refuses_rows_out_of_bounds", KUNWIND_BAD_LAYOUT, C_NR_ROWS },
	{ "refuses_segments_out_of_bounds", KUNWIND_BAD_LAYOUT, C_NR_SEGS },
	{ "refuses_misaligned_array", KUNWIND_BAD_LAYOUT, C_MISALIGNED },
	{ "refuses_unknown_rule_type", KUNWIND_BAD_RULE, C_TYPE },
	{ "refuses_bad_cfa_register", KUNWIND_BAD_RULE, C_REG },
	{ "refuses_rule_0_not_none", KUNWIND_BAD_RULE, C_RULE0 },
	{ "refuses_rule_index_past_dictionary", KUNWIND_BAD_RULE, C_INDEX },
	{ "refuses_unsorted_rows", KUNWIND_BAD_ORDER, C_UNSORTED },
	{ "refuses_uncovered_start", KUNWIND_BAD_ORDER, C_UNCOVERED },
	{ "refuses_decreasing_buckets", KUNWIND_BAD_ORDER, C_BUCKETS },
	{ "refuses_empty_first_bucket", KUNWIND_BAD_ORDER, C_BUCKET0 },
	{ "refuses_empty_segment", KUNWIND_BAD_SEGMENT, C_EMPTY },
	{ "refuses_unterminated_name", KUNWIND_BAD_SEGMENT, C_NAME },
};

static void corruption_desc(const struct corruption *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(corruption, corruptions, corruption_desc);

/* The table of tests/unit.c's test_check_refuses_corrupt(). */
static struct kunwind_hdr *small_table(struct kunit *test, size_t *len)
{
	static const struct kt_row rows[] = {
		{ 0, 0x10, { 8, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
		{ 0x10, 0x800, { 16, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	};
	struct kt_seg seg = { ".text", 0x1000, 0x800, rows, 2 };

	return kt_table_build(test, &seg, 1, len);
}

static void check_table(struct kunit *test)
{
	const struct corruption *c = test->param_value;
	struct kunwind_hdr *t, *copy;
	enum kunwind_bad got;
	size_t len;

	t = small_table(test, &len);
	KUNIT_ASSERT_NOT_NULL(test, t);
	copy = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, t, len);
	corrupt(copy, len, c->what);
	got = kunwind_table_check(copy, len);
	KUNIT_EXPECT_EQ_MSG(test, got, c->want, "expected \"%s\", got \"%s\"",
			    kunwind_bad_str(c->want), kunwind_bad_str(got));
}

static void check_refuses_misaligned_or_short_buffer(struct kunit *test)
{
	struct kunwind_hdr *t;
	u8 *buf;
	size_t len;

	t = small_table(test, &len);
	KUNIT_ASSERT_NOT_NULL(test, t);
	buf = kunit_kmalloc(test, len + 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf + 4, t, len);
	KUNIT_EXPECT_EQ(test, kunwind_table_check(buf + 4, len), KUNWIND_BAD_SIZE);
	KUNIT_EXPECT_EQ(test, kunwind_table_check(t, len - 8), KUNWIND_BAD_SIZE);
	KUNIT_EXPECT_EQ(test, kunwind_table_check(t, 8), KUNWIND_BAD_SIZE);
}

/*
 * The row an address belongs to, by format.h's rule, computed here
 * independently of lookup.c: the last row starting in its bucket at or
 * before it, else the row before the bucket's first.  May be out of range
 * for a corrupt table (that is what the caller checks).
 */
static u32 row_by_format(const struct kunwind_hdr *t,
			 const struct kunwind_seg *s, u32 off)
{
	const u8 *base = (const u8 *)t;
	const u32 *super = (const u32 *)(base + s->super);
	const u16 *bucket = (const u16 *)(base + s->bucket);
	u32 stride = t->flags & KUNWIND_F_WIDE ? 3 : 2;
	u32 b = off >> KUNWIND_BUCKET_SHIFT, in = off & (KUNWIND_BUCKET_SIZE - 1);
	u32 lo = super[b >> 8] + bucket[b];
	u32 hi = super[(b + 1) >> 8] + bucket[b + 1];
	u32 row = lo - 1;

	for (; lo < hi && lo < s->nr_rows; lo++)
		if (base[s->rows + lo * stride] <= in)
			row = lo;
	return row;
}

/*
 * Does every address of copy (a table kunwind_table_check() accepted)
 * find a row of its segment and a rule of the dictionary?  Where the
 * format's own rule would leave the rows, the lookup is not even tried
 * (it would fault): the failure names the flipped bit instead.
 */
static bool lookups_safe(struct kunit *test, bool report,
			 const struct kunwind_hdr *copy, size_t byte,
			 unsigned int bit)
{
	const struct kunwind_rule *r0 = kunwind_rules(copy), *r;
	const struct kunwind_seg *s = kunwind_segs(copy);
	unsigned long a;
	u32 row;

	for (; s < kunwind_segs(copy) + copy->nr_segs; s++) {
		for (a = 0; a < s->size && a < 0x10000; a++) {
			row = row_by_format(copy, s, a);
			if (row >= s->nr_rows) {
				if (report)
					KUNIT_FAIL(test, "bit %u of byte %zu flipped: accepted, but offset %#lx of %s finds row %d of %u",
						   bit, byte, a,
						   kunwind_seg_name(copy, s),
						   (int)row, s->nr_rows);
				return false;
			}
			r = kunwind_find(copy, s->base + a);
			if (!r || r < r0 || r >= r0 + copy->nr_rules) {
				if (report)
					KUNIT_FAIL(test, "bit %u of byte %zu flipped: accepted, but a lookup of %#lx left the dictionary",
						   bit, byte,
						   (unsigned long)(s->base + a));
				return false;
			}
		}
	}
	return true;
}

/*
 * Every single-bit corruption of a valid table is either refused, or
 * leaves a table in which every address finds a row of its segment and a
 * rule of the dictionary: the check is what makes the lookup, which has
 * no bounds checks, safe.
 */
static void check_every_flipped_bit_is_refused_or_safe(struct kunit *test)
{
	unsigned int refused = 0, accepted = 0, unsafe = 0, bit;
	struct kunwind_hdr *t, *copy;
	size_t len, i;

	t = small_table(test, &len);
	KUNIT_ASSERT_NOT_NULL(test, t);
	copy = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			memcpy(copy, t, len);
			((u8 *)copy)[i] ^= 1 << bit;
			if (kunwind_table_check(copy, len)) {
				refused++;
				continue;
			}
			accepted++;
			/* Report the first unsafe one in full, count the rest. */
			if (!lookups_safe(test, !unsafe, copy, i, bit))
				unsafe++;
		}
	}
	kunit_info(test, "%u corruptions refused, %u accepted, %u of those unsafe\n",
		   refused, accepted, unsafe);
	KUNIT_EXPECT_EQ(test, unsafe, 0u);
	KUNIT_EXPECT_GT(test, refused, 0u);
}

static struct kunit_case lookup_test_cases[] = {
	KUNIT_CASE_PARAM(lookup_every_byte_finds_its_row, lookup_gen_params),
	KUNIT_CASE(lookup_outside_every_segment_finds_nothing),
	KUNIT_CASE(lookup_relocated_segments_answer_for_their_own_text),
	KUNIT_CASE_PARAM(check_table, corruption_gen_params),
	KUNIT_CASE(check_refuses_misaligned_or_short_buffer),
	KUNIT_CASE(check_every_flipped_bit_is_refused_or_safe),
	{}
};

static struct kunit_suite lookup_test_suite = {
	.name = "kunwind_lookup",
	.test_cases = lookup_test_cases,
};

kunit_test_suite(lookup_test_suite);
