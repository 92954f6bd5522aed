/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lookup and table-check scenarios (see scenarios.h for the contract):
 * every byte of a segment finds the rule of the row it was built from,
 * gaps and addresses outside find nothing, relocated segments answer for
 * their own text, every kind of corruption is refused with the reason
 * that names it, and every single flipped bit is refused or harmless.
 *
 *   lookup_every_byte_finds_its_row.<kt_lookup_sizes>
 *   check_table.<kt_corruptions>
 *   lookup_scenario.<kt_lookup_scenarios>
 */
#ifndef _KUNWIND_TEST_LOOKUP_CASES_H
#define _KUNWIND_TEST_LOOKUP_CASES_H

#include "scenarios.h"

/* A fixed pseudo-random sequence: a failure reproduces. */
static u32 kt_lcg(u32 *state)
{
	*state = *state * 1103515245 + 12345;
	return *state >> 8;
}

static void kt_copy(void *dst, const void *src, unsigned long len)
{
	u8 *d = dst;
	const u8 *s = src;

	while (len--)
		*d++ = *s++;
}

#define KT_RANDOM_BASE	0x1000
#define KT_RANDOM_TEXT	200000
#define KT_RANDOM_MAX	20000

/*
 * Rows of many lengths over 200 KB of text, segment-relative: runs longer
 * than a bucket, buckets where no row starts, gaps (also before the first
 * row), more than one super-block, and nr_rules distinct rules.
 */
static struct kt_row *kt_random_rows(KT_TEST *test, unsigned int nr_rules,
				     unsigned int *nr, u32 *end)
{
	struct kt_row *rows;
	u32 a = 0, i, seed = 1;

	rows = KT_ZALLOC(test, KT_RANDOM_MAX * sizeof(*rows));
	if (!KT_EXPECT(test, rows, "no memory for %u rows", KT_RANDOM_MAX))
		return NULL;
	for (i = 0; i < KT_RANDOM_MAX && a < KT_RANDOM_TEXT; i++) {
		u32 len = 1 + kt_lcg(&seed) % (i % 7 == 0 ? 900 : 40);

		if (i % 13 == 0)
			a += kt_lcg(&seed) % 64;	/* a gap */
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

struct kt_lookup_size {
	const char *name;
	unsigned int nr_rules;
	bool wide;		/* above 256 rules: 3-byte rows */
};

static const struct kt_lookup_size kt_lookup_sizes[] = {
	{ "narrow_rows_200_rules", 200, false },
	{ "wide_rows_300_rules", 300, true },
};

static void kt_lookup_every_byte_finds_its_row(KT_TEST *test,
					       const struct kt_lookup_size *c)
{
	unsigned int nr, i, bad = 0, n = 0;
	unsigned long bad_at = 0;
	const struct kunwind_rule *r;
	struct kunwind_hdr *t;
	struct kt_seg seg;
	struct kt_row *rows;
	unsigned long len;
	u32 end, a;

	rows = kt_random_rows(test, c->nr_rules, &nr, &end);
	if (!rows)
		return;
	seg = (struct kt_seg){ ".text", KT_RANDOM_BASE, end + 0x100, rows, nr };
	t = kt_table_build(test, &seg, 1, &len);
	if (!KT_EXPECT(test, t, "the table of %u rows was not built", nr) ||
	    !KT_EXPECT(test, !kunwind_table_check(t, len),
		       "the built table is refused: %s",
		       kunwind_bad_str(kunwind_table_check(t, len))))
		return;
	KT_EXPECT_EQ(test, !!(t->flags & KUNWIND_F_WIDE), c->wide);

	for (i = 0; i < nr; i++) {
		for (a = rows[i].start; a < rows[i].end; a++, n++) {
			r = kunwind_table_rule(t, seg.base + a);
			if ((!r || !kt_rule_eq(r, &rows[i].rule)) && !bad++)
				bad_at = seg.base + a;
		}
		/* The first byte of a gap has no information. */
		if (i + 1 < nr && rows[i + 1].start > rows[i].end) {
			r = kunwind_table_rule(t, seg.base + rows[i].end);
			if ((!r || r->type != KUNWIND_TYPE_NONE) && !bad++)
				bad_at = seg.base + rows[i].end;
		}
	}
	KT_EXPECT(test, !bad, "%u of %u bytes found the wrong rule, first at %#lx",
		  bad, n, bad_at);
	KT_EXPECT(test, n > 190000, "only %u bytes looked up", n);
	KT_EXPECT(test, !kunwind_table_rule(t, seg.base - 1) &&
		  !kunwind_table_rule(t, seg.base + seg.size + 0x100000),
		  "an address outside the segment found a rule");
}

static void kt_lookup_outside_every_segment_finds_nothing(KT_TEST *test)
{
	static const struct kt_row rows[] = {
		{ 0, 0x10, { 8, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
		{ 0x10, 0x300, { 16, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	};
	struct kt_seg seg = { ".text", 0xffffffffc0001000ul, 0x300, rows, 2 };
	const struct kunwind_rule *r;
	struct kunwind_hdr *t;
	unsigned long len;

	t = kt_table_build(test, &seg, 1, &len);
	if (!KT_EXPECT(test, t && !kunwind_table_check(t, len),
		       "no valid table"))
		return;
	KT_EXPECT(test, !kunwind_table_rule(t, seg.base - 1), "found before the segment");
	KT_EXPECT(test, !kunwind_table_rule(t, seg.base + seg.size), "found after it");
	KT_EXPECT(test, !kunwind_table_rule(t, 0), "found at address 0");
	KT_EXPECT(test, kunwind_table_rule(t, seg.base), "nothing at its first byte");
	KT_EXPECT(test, kunwind_table_rule(t, seg.base + seg.size - 1),
		  "nothing at its last byte");
	r = kunwind_table_rule(t, seg.base + 0x20);
	if (KT_EXPECT(test, r, "nothing at +0x20"))
		KT_EXPECT_EQ(test, r->cfa_off, 16);
}

/*
 * The segments of a module's table all start at offset 0 before the
 * loader relocates them; after relocation each must answer for its own
 * addresses only.  Three segments with the same offsets and different
 * rules at each offset, placed apart as the loader would.
 */
static void kt_lookup_relocated_segments_answer_for_their_own_text(KT_TEST *test)
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
	const struct kunwind_rule *r;
	struct kunwind_hdr *t;
	unsigned long len, a;
	unsigned int i;

	t = kt_table_build(test, segs, 3, &len);
	if (!KT_EXPECT(test, t && !kunwind_table_check(t, len),
		       "no valid table"))
		return;
	for (i = 0; i < 3; i++) {
		a = segs[i].base + 0x17;
		seg = kunwind_seg_at(t, a);
		r = kunwind_table_rule(t, a);
		if (!KT_EXPECT(test, seg && r, "no segment or rule for %s + 0x17",
			       segs[i].name))
			continue;
		KT_EXPECT_EQ(test, seg->base, segs[i].base);
		KT_EXPECT(test, r->cfa_off == segs[i].rows[0].rule.cfa_off,
			  "%s + 0x17 found another section's rule (cfa_off %d)",
			  segs[i].name, r->cfa_off);
	}
}

/* ---- table checks ---- */

/* The small table every corruption starts from. */
static struct kunwind_hdr *kt_small_table(KT_TEST *test, unsigned long *len)
{
	static const struct kt_row rows[] = {
		{ 0, 0x10, { 8, 0, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
		{ 0x10, 0x800, { 16, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	};
	struct kt_seg seg = { ".text", 0x1000, 0x800, rows, 2 };
	struct kunwind_hdr *t = kt_table_build(test, &seg, 1, len);

	KT_EXPECT(test, t, "the small table was not built");
	return t;
}

enum kt_corrupt_what {
	KT_C_NONE,
	KT_C_MAGIC,
	KT_C_VERSION,
	KT_C_FLAGS,
	KT_C_SIZE,
	KT_C_RULES,
	KT_C_NR_ROWS,
	KT_C_NR_SEGS,
	KT_C_MISALIGNED,
	KT_C_NEAR_4G,
	KT_C_TYPE,
	KT_C_REG,
	KT_C_DRAP_BP_OFF,
	KT_C_RULE0,
	KT_C_INDEX,
	KT_C_UNSORTED,
	KT_C_UNCOVERED,
	KT_C_BUCKETS,
	KT_C_BUCKET0,
	KT_C_EMPTY,
	KT_C_NAME,
};

struct kt_corruption {
	const char *name;
	enum kunwind_bad want;
	enum kt_corrupt_what what;
};

static const struct kt_corruption kt_corruptions[] = {
	{ "accepts_valid_table", KUNWIND_OK, KT_C_NONE },
	{ "refuses_bad_magic", KUNWIND_BAD_MAGIC, KT_C_MAGIC },
	{ "refuses_newer_version", KUNWIND_BAD_VERSION, KT_C_VERSION },
	{ "refuses_unknown_flags", KUNWIND_BAD_VERSION, KT_C_FLAGS },
	{ "refuses_truncated", KUNWIND_BAD_SIZE, KT_C_SIZE },
	{ "refuses_rules_out_of_bounds", KUNWIND_BAD_LAYOUT, KT_C_RULES },
	{ "refuses_rows_out_of_bounds", KUNWIND_BAD_LAYOUT, KT_C_NR_ROWS },
	{ "refuses_segments_out_of_bounds", KUNWIND_BAD_LAYOUT, KT_C_NR_SEGS },
	{ "refuses_misaligned_array", KUNWIND_BAD_LAYOUT, KT_C_MISALIGNED },
	/* A size near 4 GiB must not wrap the bucket count (and read past). */
	{ "refuses_segment_near_4g", KUNWIND_BAD_LAYOUT, KT_C_NEAR_4G },
	{ "refuses_unknown_rule_type", KUNWIND_BAD_RULE, KT_C_TYPE },
	{ "refuses_bad_cfa_register", KUNWIND_BAD_RULE, KT_C_REG },
	/* rbp at rbp itself: a BP_INDIRECT rule's bp_off must be 0. */
	{ "refuses_realigned_rule_with_bp_offset", KUNWIND_BAD_RULE,
	  KT_C_DRAP_BP_OFF },
	{ "refuses_rule_0_not_none", KUNWIND_BAD_RULE, KT_C_RULE0 },
	{ "refuses_rule_index_past_dictionary", KUNWIND_BAD_RULE, KT_C_INDEX },
	{ "refuses_unsorted_rows", KUNWIND_BAD_ORDER, KT_C_UNSORTED },
	{ "refuses_uncovered_start", KUNWIND_BAD_ORDER, KT_C_UNCOVERED },
	{ "refuses_decreasing_buckets", KUNWIND_BAD_ORDER, KT_C_BUCKETS },
	{ "refuses_empty_first_bucket", KUNWIND_BAD_ORDER, KT_C_BUCKET0 },
	{ "refuses_empty_segment", KUNWIND_BAD_SEGMENT, KT_C_EMPTY },
	{ "refuses_unterminated_name", KUNWIND_BAD_SEGMENT, KT_C_NAME },
};

static void kt_corrupt(struct kunwind_hdr *c, unsigned long len,
		       enum kt_corrupt_what what)
{
	struct kunwind_seg *seg = (struct kunwind_seg *)(c + 1);
	struct kunwind_rule *rules = (struct kunwind_rule *)((u8 *)c + c->rules);
	u16 *bucket = (u16 *)((u8 *)c + seg->bucket);
	u8 *rows = (u8 *)c + seg->rows;

	switch (what) {
	case KT_C_MAGIC:
		c->magic ^= 1;
		break;
	case KT_C_VERSION:
		c->version++;
		break;
	case KT_C_FLAGS:
		c->flags |= 0x100;
		break;
	case KT_C_SIZE:
		c->size = len + 8;
		break;
	case KT_C_RULES:
		c->rules = len - 4;
		break;
	case KT_C_NR_ROWS:
		seg->nr_rows = 1 << 20;
		break;
	case KT_C_NR_SEGS:
		c->nr_segs = 0xffff;
		break;
	case KT_C_MISALIGNED:
		seg->super |= 1;
		break;
	case KT_C_NEAR_4G:
		seg->size = 0xffffffff;
		break;
	case KT_C_TYPE:
		rules[1].type = 99;
		break;
	case KT_C_REG:
		rules[1].reg = 3;
		break;
	case KT_C_DRAP_BP_OFF:
		rules[1].type = KUNWIND_TYPE_CALL;
		rules[1].reg = KUNWIND_REG_BP_INDIRECT;
		rules[1].cfa_off = -8;
		rules[1].bp_off = -16;
		break;
	case KT_C_RULE0:
		rules[0].type = KUNWIND_TYPE_CALL;
		rules[0].reg = KUNWIND_REG_SP;
		break;
	case KT_C_INDEX:
		rows[1] = c->nr_rules;
		break;
	case KT_C_UNSORTED:
		rows[2] = 0;
		break;
	case KT_C_UNCOVERED:
		rows[0] = 4;
		break;
	case KT_C_BUCKETS:
		bucket[2] = 0;
		break;
	case KT_C_BUCKET0:
		/* row 0 must be in bucket 0, or bucket 0 finds row -1 */
		bucket[1] = 0;
		break;
	case KT_C_EMPTY:
		seg->size = 0;
		break;
	case KT_C_NAME:
		seg->name = len - c->strings - 1;
		((char *)c)[len - 1] = 'x';
		break;
	case KT_C_NONE:
		break;
	}
}

static void kt_check_table(KT_TEST *test, const struct kt_corruption *c)
{
	struct kunwind_hdr *t, *copy;
	enum kunwind_bad got;
	unsigned long len;

	t = kt_small_table(test, &len);
	copy = t ? KT_ZALLOC(test, len) : NULL;
	if (!copy)
		return;
	kt_copy(copy, t, len);
	kt_corrupt(copy, len, c->what);
	got = kunwind_table_check(copy, len);
	KT_EXPECT(test, got == c->want, "expected \"%s\", got \"%s\"",
		  kunwind_bad_str(c->want), kunwind_bad_str(got));
}

static void kt_check_refuses_misaligned_or_short_buffer(KT_TEST *test)
{
	struct kunwind_hdr *t;
	unsigned long len;
	u8 *buf;

	t = kt_small_table(test, &len);
	buf = t ? KT_ZALLOC(test, len + 8) : NULL;
	if (!buf)
		return;
	kt_copy(buf + 4, t, len);
	KT_EXPECT_EQ(test, kunwind_table_check(buf + 4, len), KUNWIND_BAD_SIZE);
	KT_EXPECT_EQ(test, kunwind_table_check(buf + 4, len - 4), KUNWIND_BAD_SIZE);
	KT_EXPECT_EQ(test, kunwind_table_check(t, len - 8), KUNWIND_BAD_SIZE);
	KT_EXPECT_EQ(test, kunwind_table_check(t, 8), KUNWIND_BAD_SIZE);
}

/*
 * The row an address belongs to, by format.h's rule, computed here
 * independently of lookup.c: the last row starting in its bucket at or
 * before it, else the row before the bucket's first.  May be out of range
 * for a corrupt table (that is what the caller checks).
 */
static u32 kt_row_by_format(const struct kunwind_hdr *t,
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
static bool kt_lookups_safe(KT_TEST *test, bool report,
			    const struct kunwind_hdr *copy, unsigned long byte,
			    unsigned int bit)
{
	const struct kunwind_rule *r0 = kunwind_rules(copy), *r;
	const struct kunwind_seg *s = kunwind_segs(copy);
	unsigned long a;
	u32 row;

	for (; s < kunwind_segs(copy) + copy->nr_segs; s++) {
		for (a = 0; a < s->size && a < 0x10000; a++) {
			row = kt_row_by_format(copy, s, a);
			if (row >= s->nr_rows) {
				if (report)
					KT_EXPECT(test, false, "bit %u of byte %lu flipped: accepted, but offset %#lx of %s finds row %d of %u",
						  bit, byte, a,
						  kunwind_seg_name(copy, s),
						  (int)row, s->nr_rows);
				return false;
			}
			r = kunwind_table_rule(copy, s->base + a);
			if (!r || r < r0 || r >= r0 + copy->nr_rules) {
				if (report)
					KT_EXPECT(test, false, "bit %u of byte %lu flipped: accepted, but a lookup of %#lx left the dictionary",
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
static void kt_check_every_flipped_bit_is_refused_or_safe(KT_TEST *test)
{
	unsigned int refused = 0, accepted = 0, unsafe = 0, bit;
	struct kunwind_hdr *t, *copy;
	unsigned long len, i;

	t = kt_small_table(test, &len);
	copy = t ? KT_ZALLOC(test, len) : NULL;
	if (!copy)
		return;
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			kt_copy(copy, t, len);
			((u8 *)copy)[i] ^= 1 << bit;
			if (kunwind_table_check(copy, len)) {
				refused++;
				continue;
			}
			accepted++;
			/* Report the first unsafe one in full, count the rest. */
			if (!kt_lookups_safe(test, !unsafe, copy, i, bit))
				unsafe++;
		}
	}
	KT_NOTE(test, "%u corruptions refused, %u accepted, %u of those unsafe",
		refused, accepted, unsafe);
	KT_EXPECT_EQ(test, unsafe, 0);
	KT_EXPECT(test, refused > 0, "no corruption refused");
}

static const struct kt_scenario kt_lookup_scenarios[] = {
	{ "lookup_outside_every_segment_finds_nothing",
	  kt_lookup_outside_every_segment_finds_nothing },
	{ "lookup_relocated_segments_answer_for_their_own_text",
	  kt_lookup_relocated_segments_answer_for_their_own_text },
	{ "check_refuses_misaligned_or_short_buffer",
	  kt_check_refuses_misaligned_or_short_buffer },
	{ "check_every_flipped_bit_is_refused_or_safe",
	  kt_check_every_flipped_bit_is_refused_or_safe },
};

#endif /* _KUNWIND_TEST_LOOKUP_CASES_H */
