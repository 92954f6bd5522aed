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
		rows[i].rule = kt_frame(8 + 8 * (i % nr_rules),
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
	bool escaped;		/* above 255 rules: some rows escape theirs */
};

static const struct kt_lookup_size kt_lookup_sizes[] = {
	{ "rule_bytes_200_rules", 200, false },
	{ "escaped_rules_300_rules", 300, true },
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
	KT_EXPECT(test, (kunwind_segs(t)->nr_esc > 0) == c->escaped,
		  "%u escaped rows of %u, %u rules", kunwind_segs(t)->nr_esc,
		  kunwind_segs(t)->nr_rows, t->nr_rules);

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
		{ 0, 0x10, { 8, KT_BP_NONE, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
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
		{ 0, 0x40, { 8, KT_BP_NONE, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	};
	static const struct kt_row init[] = {
		{ 0, 0x40, { 24, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	};
	static const struct kt_row exit[] = {
		{ 0, 0x40, { 40, KT_BP_NONE, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
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
		{ 0, 0x10, { 8, KT_BP_NONE, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
		{ 0x10, 0x800, { 16, -16, KUNWIND_TYPE_CALL, KUNWIND_REG_SP } },
	};
	struct kt_seg seg = { ".text", 0x1000, 0x800, rows, 2 };
	struct kunwind_hdr *t = kt_table_build(test, &seg, 1, len);

	KT_EXPECT(test, t, "the small table was not built");
	return t;
}

#define KT_ESC_ROWS	300

/*
 * A table of KT_ESC_ROWS rows of 2 bytes, each of its own rule: rules 1
 * to 300, rows 0 to 299, whoever numbers them (both builders keep the
 * order of first use among rules used as often); the rows of rules 255
 * on, 254 to 299, are escaped.
 */
static struct kunwind_hdr *kt_escape_table(KT_TEST *test, unsigned long *len)
{
	struct kt_row *rows = KT_ZALLOC(test, KT_ESC_ROWS * sizeof(*rows));
	struct kt_seg seg = { ".text", 0x1000, 2 * KT_ESC_ROWS, rows, KT_ESC_ROWS };
	struct kunwind_hdr *t;
	unsigned int i;

	if (!KT_EXPECT(test, rows, "no memory for %u rows", KT_ESC_ROWS))
		return NULL;
	for (i = 0; i < KT_ESC_ROWS; i++)
		rows[i] = (struct kt_row){ 2 * i, 2 * i + 2,
					   kt_frame(8 + 8 * i, 0) };
	t = kt_table_build(test, &seg, 1, len);
	if (!KT_EXPECT(test, t, "the escape table was not built") ||
	    !KT_EXPECT(test, kunwind_segs(t)->nr_esc == KT_ESC_ROWS + 1 -
		       KUNWIND_RULE_ESCAPE, "%u escaped rows, not %u",
		       kunwind_segs(t)->nr_esc, KT_ESC_ROWS + 1 - KUNWIND_RULE_ESCAPE))
		return NULL;
	return t;
}

enum kt_corrupt_what {
	KT_C_NONE,
	KT_C_MAGIC,
	KT_C_VERSION,
	KT_C_VERSION_1,
	KT_C_FLAGS,
	KT_C_ARCH,
	KT_C_X86_LR,
	KT_C_ARM64,
	KT_C_ARM64_NO_RECORD,
	KT_C_ARM64_RECORD_AT_CFA,
	KT_C_ARM64_PLT,
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
	/* From here on, on kt_escape_table(). */
	KT_C_ESC_NONE,
	KT_C_ESC_BOUNDS,
	KT_C_ESC_MISALIGNED,
	KT_C_ESC_UNSORTED,
	KT_C_ESC_ROW_NOT_ESCAPED,
	KT_C_ESC_ROW_PAST_ROWS,
	KT_C_ESC_MISSING,
	KT_C_ESC_RULE_PAST_DICTIONARY,
	KT_C_ESC_RULE_WITH_BYTE,
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
	{ "refuses_version_1", KUNWIND_BAD_VERSION, KT_C_VERSION_1 },
	{ "refuses_unknown_flags", KUNWIND_BAD_ARCH, KT_C_FLAGS },
	{ "refuses_unknown_architecture", KUNWIND_BAD_ARCH, KT_C_ARCH },
	/* Rules by the table's architecture: x86-64 has no LR, arm64 no PLT. */
	{ "refuses_lr_rule_on_x86", KUNWIND_BAD_RULE, KT_C_X86_LR },
	{ "accepts_arm64_table", KUNWIND_OK, KT_C_ARM64 },
	/* arm64's return address is in the frame record: bp_off says where. */
	{ "refuses_arm64_call_without_record", KUNWIND_BAD_RULE,
	  KT_C_ARM64_NO_RECORD },
	/* ... and the record must lie below the CFA, as the walker assumes */
	{ "refuses_arm64_record_not_below_cfa", KUNWIND_BAD_RULE,
	  KT_C_ARM64_RECORD_AT_CFA },
	{ "refuses_plt_rule_on_arm64", KUNWIND_BAD_RULE, KT_C_ARM64_PLT },
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
	{ "accepts_valid_escapes", KUNWIND_OK, KT_C_ESC_NONE },
	{ "refuses_escapes_out_of_bounds", KUNWIND_BAD_LAYOUT, KT_C_ESC_BOUNDS },
	{ "refuses_misaligned_escapes", KUNWIND_BAD_LAYOUT, KT_C_ESC_MISALIGNED },
	{ "refuses_unsorted_escapes", KUNWIND_BAD_ESCAPE, KT_C_ESC_UNSORTED },
	{ "refuses_escape_of_unescaped_row", KUNWIND_BAD_ESCAPE,
	  KT_C_ESC_ROW_NOT_ESCAPED },
	{ "refuses_escape_past_rows", KUNWIND_BAD_ESCAPE, KT_C_ESC_ROW_PAST_ROWS },
	{ "refuses_escaped_row_without_escape", KUNWIND_BAD_ESCAPE,
	  KT_C_ESC_MISSING },
	{ "refuses_escape_rule_past_dictionary", KUNWIND_BAD_RULE,
	  KT_C_ESC_RULE_PAST_DICTIONARY },
	/* A rule below 255 has a byte: one encoding per table. */
	{ "refuses_escape_of_rule_with_byte", KUNWIND_BAD_RULE,
	  KT_C_ESC_RULE_WITH_BYTE },
};

static void kt_corrupt(struct kunwind_hdr *c, unsigned long len,
		       enum kt_corrupt_what what)
{
	struct kunwind_seg *seg = (struct kunwind_seg *)(c + 1);
	struct kunwind_rule *rules = (struct kunwind_rule *)((u8 *)c + c->rules);
	u16 *bucket = (u16 *)((u8 *)c + seg->bucket);
	u8 *rows = (u8 *)c + seg->rows;
	struct kunwind_esc *esc = (struct kunwind_esc *)((u8 *)c + seg->esc);
	struct kunwind_esc tmp;

	switch (what) {
	case KT_C_MAGIC:
		c->magic ^= 1;
		break;
	case KT_C_VERSION:
		c->version++;
		break;
	case KT_C_VERSION_1:
		c->version = 1;
		break;
	case KT_C_FLAGS:
		c->flags |= 0x100;
		break;
	case KT_C_ARCH:
		c->flags = (c->flags & ~KUNWIND_FLAG_ARCH_MASK) | 2;
		break;
	case KT_C_X86_LR:
		c->flags = KUNWIND_ARCH_ID_X86_64;
		rules[1].type = KUNWIND_TYPE_LR;
		break;
	case KT_C_ARM64:	/* rule 1 is CALL sp+8, a record or not */
		c->flags = KUNWIND_ARCH_ID_ARM64;
		rules[1].cfa_off = 16;
		rules[1].bp_off = -16;
		break;
	case KT_C_ARM64_RECORD_AT_CFA:	/* its x30 would be the CFA's word */
		c->flags = KUNWIND_ARCH_ID_ARM64;
		rules[1].bp_off = -8;
		break;
	case KT_C_ARM64_NO_RECORD:
		c->flags = KUNWIND_ARCH_ID_ARM64;
		rules[1].bp_off = 0;
		break;
	case KT_C_ARM64_PLT:
		c->flags = KUNWIND_ARCH_ID_ARM64;
		rules[1].bp_off = -8;
		rules[1].type = KUNWIND_TYPE_PLT;
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
	case KT_C_ESC_BOUNDS:
		seg->esc = c->size - 4;
		break;
	case KT_C_ESC_MISALIGNED:
		seg->esc += 2;
		break;
	case KT_C_ESC_UNSORTED:
		tmp = esc[0];
		esc[0] = esc[1];
		esc[1] = tmp;
		break;
	case KT_C_ESC_ROW_NOT_ESCAPED:
		esc[0].row = 0;		/* still sorted, and as many */
		break;
	case KT_C_ESC_ROW_PAST_ROWS:
		/* The last, so still sorted; rows[] far beyond the table. */
		esc[seg->nr_esc - 1].row = 0x7fffffff;
		break;
	case KT_C_ESC_MISSING:
		seg->nr_esc--;
		break;
	case KT_C_ESC_RULE_PAST_DICTIONARY:
		esc[0].rule = c->nr_rules;
		break;
	case KT_C_ESC_RULE_WITH_BYTE:
		esc[0].rule = 1;
		break;
	case KT_C_NONE:
	case KT_C_ESC_NONE:
		break;
	}
}

static void kt_check_table(KT_TEST *test, const struct kt_corruption *c)
{
	struct kunwind_hdr *t, *copy;
	enum kunwind_bad got;
	unsigned long len;

	t = c->what >= KT_C_ESC_NONE ? kt_escape_table(test, &len) :
				       kt_small_table(test, &len);
	copy = t ? KT_ZALLOC(test, len) : NULL;
	if (!copy)
		return;
	kt_copy(copy, t, len);
	kt_corrupt(copy, len, c->what);
	got = kunwind_table_check(copy, len);
	KT_EXPECT(test, got == c->want, "expected \"%s\", got \"%s\"",
		  kunwind_bad_str(c->want), kunwind_bad_str(got));
}

/*
 * A table of another architecture is valid (tools read it) but no table
 * for this walker's registries (kunwind_table_check_own()).
 */
static void kt_check_own_refuses_another_architecture(KT_TEST *test)
{
	struct kunwind_hdr *t, *copy;
	unsigned long len;
	enum kunwind_bad got;

	t = kt_small_table(test, &len);
	copy = t ? KT_ZALLOC(test, len) : NULL;
	if (!copy)
		return;
	kt_copy(copy, t, len);
	KT_EXPECT(test, !kunwind_table_check_own(copy, len),
		  "its own table refused");
	kt_corrupt(copy, len, KT_C_ARM64);
	if (KUNWIND_ARCH_ID == KUNWIND_ARCH_ID_ARM64)
		copy->flags = KUNWIND_ARCH_ID_X86_64;
	got = kunwind_table_check_own(copy, len);
	KT_EXPECT(test, !kunwind_table_check(copy, len) &&
		  got == KUNWIND_BAD_ARCH,
		  "another architecture's valid table: \"%s\"",
		  kunwind_bad_str(got));
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
	u32 b = off >> KUNWIND_BUCKET_SHIFT, in = off & (KUNWIND_BUCKET_SIZE - 1);
	u32 lo = super[b >> 8] + bucket[b];
	u32 hi = super[(b + 1) >> 8] + bucket[b + 1];
	u32 row = lo - 1;

	for (; lo < hi && lo < s->nr_rows; lo++)
		if (base[s->rows + lo * KUNWIND_ROW_SIZE] <= in)
			row = lo;
	return row;
}

/*
 * The rule of a row by format.h, as kt_row_by_format() finds the row: its
 * rule byte, or the rule of its entry in the escape list; ~0 if no entry
 * inside the table has its row.
 */
static u32 kt_rule_by_format(const struct kunwind_hdr *t,
			     const struct kunwind_seg *s, u32 row)
{
	const u8 *base = (const u8 *)t;
	const struct kunwind_esc *esc =
		(const struct kunwind_esc *)(base + s->esc);
	u32 rule = base[s->rows + row * KUNWIND_ROW_SIZE + 1], i;

	if (rule != KUNWIND_RULE_ESCAPE)
		return rule;
	for (i = 0; i < s->nr_esc &&
	     s->esc + (u64)(i + 1) * sizeof(*esc) <= t->size; i++)
		if (esc[i].row == row)
			return esc[i].rule;
	return ~0u;
}

/*
 * Does every address of copy (a table kunwind_table_check() accepted)
 * find a row of its segment and the rule format.h gives it?  Where the
 * format's own rule would leave the rows or the escapes, the lookup is
 * not even tried (it would fault): the failure names the flipped bit
 * instead.
 */
static bool kt_lookups_safe(KT_TEST *test, bool report,
			    const struct kunwind_hdr *copy, unsigned long byte,
			    unsigned int bit)
{
	const struct kunwind_rule *r0 = kunwind_rules(copy), *r;
	const struct kunwind_seg *s = kunwind_segs(copy);
	unsigned long a;
	u32 row, rule;

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
			rule = kt_rule_by_format(copy, s, row);
			if (rule >= copy->nr_rules) {
				if (report)
					KT_EXPECT(test, false, "bit %u of byte %lu flipped: accepted, but row %u of %s has no rule (%#x)",
						  bit, byte, row,
						  kunwind_seg_name(copy, s), rule);
				return false;
			}
			r = kunwind_table_rule(copy, s->base + a);
			if (r != r0 + rule) {
				if (report)
					KT_EXPECT(test, false, "bit %u of byte %lu flipped: accepted, but a lookup of %#lx found rule %ld, not %u",
						  bit, byte,
						  (unsigned long)(s->base + a),
						  r ? (long)(r - r0) : -1L, rule);
				return false;
			}
		}
	}
	return true;
}

struct kt_flips {
	unsigned int refused, accepted, unsafe;
};

/* Flip each bit of t's bytes [from, to) in turn, in copy, and count. */
static void kt_flip_bits(KT_TEST *test, const struct kunwind_hdr *t,
			 struct kunwind_hdr *copy, unsigned long len,
			 unsigned long from, unsigned long to,
			 struct kt_flips *f)
{
	unsigned long i;
	unsigned int bit;

	for (i = from; i < to && i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			kt_copy(copy, t, len);
			((u8 *)copy)[i] ^= 1 << bit;
			if (kunwind_table_check(copy, len)) {
				f->refused++;
				continue;
			}
			f->accepted++;
			/* Report the first unsafe one in full, count the rest. */
			if (!kt_lookups_safe(test, !f->unsafe, copy, i, bit))
				f->unsafe++;
		}
	}
}

static void kt_flips_report(KT_TEST *test, const struct kt_flips *f)
{
	KT_NOTE(test, "%u corruptions refused, %u accepted, %u of those unsafe",
		f->refused, f->accepted, f->unsafe);
	KT_EXPECT_EQ(test, f->unsafe, 0);
	KT_EXPECT(test, f->refused > 0, "no corruption refused");
}

/*
 * Every single-bit corruption of a valid table is either refused, or
 * leaves a table in which every address finds a row of its segment and
 * the rule the format gives it: the check is what makes the lookup,
 * which has no bounds checks, safe.
 */
static void kt_check_every_flipped_bit_is_refused_or_safe(KT_TEST *test)
{
	struct kt_flips f = { 0, 0, 0 };
	struct kunwind_hdr *t, *copy;
	unsigned long len;

	t = kt_small_table(test, &len);
	copy = t ? KT_ZALLOC(test, len) : NULL;
	if (!copy)
		return;
	kt_flip_bits(test, t, copy, len, 0, len, &f);
	kt_flips_report(test, &f);
}

/*
 * The same for the bytes an escaped lookup follows: the segment, its rows
 * and its escape list (not the 301 rules: the case above flips rules).
 */
static void kt_check_every_flipped_escape_bit_is_refused_or_safe(KT_TEST *test)
{
	struct kt_flips f = { 0, 0, 0 };
	struct kunwind_hdr *t, *copy;
	const struct kunwind_seg *s;
	unsigned long len;

	t = kt_escape_table(test, &len);
	copy = t ? KT_ZALLOC(test, len) : NULL;
	if (!copy)
		return;
	s = kunwind_segs(t);
	kt_flip_bits(test, t, copy, len, (const u8 *)s - (const u8 *)t,
		     (const u8 *)(s + 1) - (const u8 *)t, &f);
	kt_flip_bits(test, t, copy, len, s->rows,
		     s->esc + s->nr_esc * sizeof(struct kunwind_esc), &f);
	kt_flips_report(test, &f);
}

static const struct kt_scenario kt_lookup_scenarios[] = {
	{ "lookup_outside_every_segment_finds_nothing",
	  kt_lookup_outside_every_segment_finds_nothing },
	{ "lookup_relocated_segments_answer_for_their_own_text",
	  kt_lookup_relocated_segments_answer_for_their_own_text },
	{ "check_refuses_misaligned_or_short_buffer",
	  kt_check_refuses_misaligned_or_short_buffer },
	{ "check_own_refuses_another_architecture",
	  kt_check_own_refuses_another_architecture },
	{ "check_every_flipped_bit_is_refused_or_safe",
	  kt_check_every_flipped_bit_is_refused_or_safe },
	{ "check_every_flipped_escape_bit_is_refused_or_safe",
	  kt_check_every_flipped_escape_bit_is_refused_or_safe },
};

#endif /* _KUNWIND_TEST_LOOKUP_CASES_H */
