// SPDX-License-Identifier: GPL-2.0
/*
 * Table checks and address lookup.  Freestanding: see env.h.
 *
 * kunwind_table_check() runs once, when a table is registered; it proves
 * every offset and index the lookup will follow, so the lookup itself has
 * no bounds checks and may run in any context, NMI included: it takes no
 * locks, allocates nothing and only reads the table.
 */
#include "kunwind.h"

/* One name for each enum kunwind_bad, in its order. */
static const char *const bad_str[] = {
	[KUNWIND_OK]		= "valid",
	[KUNWIND_BAD_SIZE]	= "truncated table",
	[KUNWIND_BAD_MAGIC]	= "bad magic",
	[KUNWIND_BAD_VERSION]	= "unknown format version",
	[KUNWIND_BAD_LAYOUT]	= "array outside the table or misaligned",
	[KUNWIND_BAD_RULE]	= "invalid rule",
	[KUNWIND_BAD_SEGMENT]	= "invalid segment",
	[KUNWIND_BAD_ORDER]	= "rows not sorted or not covering",
	[KUNWIND_BAD_ESCAPE]	= "escape list not one entry per escaped row, in order",
	[KUNWIND_BAD_ARCH]	= "unknown architecture or flags",
};

KUNWIND_STATIC_ASSERT(ARRAY_SIZE(bad_str) == KUNWIND_BAD_NR);

const char *kunwind_bad_str(enum kunwind_bad why)
{
	return (unsigned int)why < KUNWIND_BAD_NR ? bad_str[why] : "?";
}

static __kunwind_walk inline u32 nr_buckets(const struct kunwind_seg *seg)
{
	/* In 64 bits: a size near 4 GiB must not wrap to 0 buckets. */
	return ((u64)seg->size + KUNWIND_BUCKET_SIZE - 1) >> KUNWIND_BUCKET_SHIFT;
}

/* Index of the first row starting in bucket b (b may be nr_buckets). */
static __kunwind_walk inline u32 first_row(const u32 *super, const u16 *bucket, u32 b)
{
	return super[b >> (KUNWIND_SUPER_SHIFT - KUNWIND_BUCKET_SHIFT)] +
	       bucket[b];
}

static __kunwind_walk inline const u8 *
seg_rows(const struct kunwind_hdr *t, const struct kunwind_seg *seg)
{
	return (const u8 *)t + seg->rows;
}

/*
 * The rule of escaped row i: the entry for i in the segment's escape
 * list, sorted by row.  The check proved that the list holds one entry
 * for each escaped row, so the search cannot miss, and lo stays inside
 * the list.
 */
static __kunwind_walk u32 esc_rule(const struct kunwind_hdr *t,
				   const struct kunwind_seg *seg, u32 i)
{
	const struct kunwind_esc *esc =
		(const struct kunwind_esc *)((const u8 *)t + seg->esc);
	u32 lo = 0, hi = seg->nr_esc - 1;

	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		if (esc[mid].row < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return esc[lo].rule;
}

/*
 * The rule of row i, for every reader of rows: its rule byte, unless that
 * is KUNWIND_RULE_ESCAPE (the rarest rules of a table of more than 255:
 * format.h), which costs the common path one compare.
 */
static __kunwind_walk inline u32 row_rule(const struct kunwind_hdr *t,
					  const struct kunwind_seg *seg, u32 i)
{
	u32 rule = seg_rows(t, seg)[i * KUNWIND_ROW_SIZE + 1];

	if (unlikely(rule == KUNWIND_RULE_ESCAPE))
		return esc_rule(t, seg, i);
	return rule;
}

/* Is [off, off + len) inside a table of size bytes, aligned to align? */
static bool span_ok(u32 size, u32 off, u64 len, u32 align)
{
	return !(off & (align - 1)) && off <= size && len <= size - off;
}

/* The registers an sp- or bp-based rule may name. */
static bool sp_or_bp(const struct kunwind_rule *r)
{
	return r->reg == KUNWIND_REG_SP || r->reg == KUNWIND_REG_BP;
}

/* Is r a rule the walker of a table of architecture arch can follow? */
static bool rule_ok(const struct kunwind_rule *r, unsigned int arch)
{
	switch (r->type) {
	case KUNWIND_TYPE_NONE:
	case KUNWIND_TYPE_END:
	case KUNWIND_TYPE_UNDEFINED:
	case KUNWIND_TYPE_UNSUPPORTED:
		return true;
	case KUNWIND_TYPE_REGS:
		return sp_or_bp(r);
	}
	if (arch == KUNWIND_ARCH_ID_ARM64) {
		switch (r->type) {
		case KUNWIND_TYPE_CALL:	/* the record holds the return address */
			return sp_or_bp(r) &&
			       r->bp_off <= -KUNWIND_FRAME_RECORD_SIZE;
		case KUNWIND_TYPE_LR:
			return sp_or_bp(r) &&
			       (!r->bp_off ||
				r->bp_off <= -KUNWIND_FRAME_RECORD_SIZE / 2);
		}
		return false;
	}
	switch (r->type) {
	case KUNWIND_TYPE_CALL:
		return sp_or_bp(r) || r->reg == KUNWIND_REG_SP_INDIRECT ||
		       (r->reg == KUNWIND_REG_BP_INDIRECT && !r->bp_off);
	case KUNWIND_TYPE_IRET:
	case KUNWIND_TYPE_SIGNAL:
		return sp_or_bp(r);
	case KUNWIND_TYPE_PLT:
		return r->reg < 16;
	}
	return false;
}

/*
 * The escape list against the rows: strictly sorted entries, each on a
 * row whose byte is KUNWIND_RULE_ESCAPE, as many as there are such rows
 * (nr_escaped), so one for each and esc_rule() cannot miss; each names a
 * rule that only an escape can name (a byte names the others), so a
 * table of at most 255 rules has none.
 */
static enum kunwind_bad esc_check(const struct kunwind_hdr *t,
				  const struct kunwind_seg *seg, u32 nr_escaped)
{
	const struct kunwind_esc *esc =
		(const struct kunwind_esc *)((const u8 *)t + seg->esc);
	const u8 *rows = seg_rows(t, seg);
	u32 i;

	if (seg->nr_esc != nr_escaped)
		return KUNWIND_BAD_ESCAPE;
	for (i = 0; i < seg->nr_esc; i++) {
		if ((i && esc[i].row <= esc[i - 1].row) ||
		    esc[i].row >= seg->nr_rows ||
		    rows[esc[i].row * KUNWIND_ROW_SIZE + 1] != KUNWIND_RULE_ESCAPE)
			return KUNWIND_BAD_ESCAPE;
		if (esc[i].rule < KUNWIND_RULE_ESCAPE || esc[i].rule >= t->nr_rules)
			return KUNWIND_BAD_RULE;
	}
	return KUNWIND_OK;
}

static enum kunwind_bad seg_check(const struct kunwind_hdr *t,
				  const struct kunwind_seg *seg, u32 str_len)
{
	const u8 *base = (const u8 *)t;
	const u32 *super;
	const u16 *bucket;
	const u8 *rows;
	u32 nb, ns, b, prev = 0, nr_escaped = 0;
	const char *name;
	u32 i;

	if (!seg->size || seg->name >= str_len)
		return KUNWIND_BAD_SEGMENT;
	name = (const char *)base + t->strings;
	for (i = seg->name; name[i]; i++)
		if (i + 1 >= str_len)
			return KUNWIND_BAD_SEGMENT;

	nb = nr_buckets(seg);
	ns = (nb >> (KUNWIND_SUPER_SHIFT - KUNWIND_BUCKET_SHIFT)) + 1;
	if (!span_ok(t->size, seg->super, (u64)ns * 4, 4) ||
	    !span_ok(t->size, seg->bucket, ((u64)nb + 1) * 2, 2) ||
	    !span_ok(t->size, seg->rows, (u64)seg->nr_rows * KUNWIND_ROW_SIZE, 1) ||
	    !span_ok(t->size, seg->esc,
		     (u64)seg->nr_esc * sizeof(struct kunwind_esc), 4))
		return KUNWIND_BAD_LAYOUT;

	super = (const u32 *)(base + seg->super);
	bucket = (const u16 *)(base + seg->bucket);
	rows = seg_rows(t, seg);

	/*
	 * Row 0 must start at offset 0, in bucket 0, so every byte is covered
	 * and a lookup never steps before the first row.
	 */
	if (!seg->nr_rows || first_row(super, bucket, 0) != 0 ||
	    first_row(super, bucket, 1) == 0 || rows[0] != 0 ||
	    first_row(super, bucket, nb) != seg->nr_rows)
		return KUNWIND_BAD_ORDER;

	for (b = 0; b < nb; b++) {
		u32 lo = first_row(super, bucket, b);
		u32 hi = first_row(super, bucket, b + 1);
		int last = -1;

		if (lo < prev || hi < lo || hi > seg->nr_rows)
			return KUNWIND_BAD_ORDER;
		prev = lo;
		for (i = lo; i < hi; i++) {
			const u8 *row = rows + i * KUNWIND_ROW_SIZE;

			if ((int)row[0] <= last ||
			    ((b << KUNWIND_BUCKET_SHIFT) | row[0]) >= seg->size)
				return KUNWIND_BAD_ORDER;
			if (row[1] == KUNWIND_RULE_ESCAPE)
				nr_escaped++;
			else if (row[1] >= t->nr_rules)
				return KUNWIND_BAD_RULE;
			last = row[0];
		}
	}
	return esc_check(t, seg, nr_escaped);
}

enum kunwind_bad kunwind_table_check(const void *table, unsigned long len)
{
	const struct kunwind_hdr *t = table;
	const struct kunwind_rule *rules;
	enum kunwind_bad bad;
	u32 i, str_len, arch;

	if (len < sizeof(*t) || ((unsigned long)table & 7))
		return KUNWIND_BAD_SIZE;
	if (t->magic != KUNWIND_MAGIC)
		return KUNWIND_BAD_MAGIC;
	if (t->version != KUNWIND_VERSION)
		return KUNWIND_BAD_VERSION;
	arch = kunwind_table_arch(t);
	if (t->flags & ~KUNWIND_FLAG_ARCH_MASK ||
	    (arch != KUNWIND_ARCH_ID_X86_64 && arch != KUNWIND_ARCH_ID_ARM64))
		return KUNWIND_BAD_ARCH;
	if (t->size > len || t->size < sizeof(*t))
		return KUNWIND_BAD_SIZE;
	if (!span_ok(t->size, sizeof(*t), (u64)t->nr_segs * sizeof(struct kunwind_seg), 8) ||
	    !span_ok(t->size, t->rules, (u64)t->nr_rules * sizeof(*rules), 4) ||
	    !t->nr_rules || t->strings > t->size)
		return KUNWIND_BAD_LAYOUT;

	rules = kunwind_rules(t);
	if (rules[KUNWIND_RULE_NONE].type != KUNWIND_TYPE_NONE)
		return KUNWIND_BAD_RULE;
	for (i = 0; i < t->nr_rules; i++)
		if (!rule_ok(&rules[i], arch))
			return KUNWIND_BAD_RULE;

	str_len = t->size - t->strings;
	for (i = 0; i < t->nr_segs; i++) {
		bad = seg_check(t, &kunwind_segs(t)[i], str_len);
		if (bad)
			return bad;
	}
	return KUNWIND_OK;
}

/*
 * Segments of one table may overlap before relocation (every section of a
 * .ko starts at 0); after relocation they do not, and there are few of
 * them (one per text section), so a scan is cheapest.
 */
__kunwind_walk const struct kunwind_seg *
kunwind_seg_at(const struct kunwind_hdr *t, unsigned long addr)
{
	const struct kunwind_seg *seg = kunwind_segs(t);
	u32 i;

	for (i = 0; i < t->nr_segs; i++, seg++)
		if (addr - seg->base < seg->size)
			return seg;
	return NULL;
}

/*
 * The pure search: the row describing offset off of seg.  Bucket b holds
 * the rows starting in it; the answer is the last of them starting at or
 * before off, or, if none does, the row before the bucket's first.  Row 0
 * starts at 0 (checked), so the result is always a valid row.
 */
__kunwind_walk u32 kunwind_seg_row(const struct kunwind_hdr *t,
				   const struct kunwind_seg *seg, u32 off)
{
	const u8 *base = (const u8 *)t;
	const u32 *super = (const u32 *)(base + seg->super);
	const u16 *bucket = (const u16 *)(base + seg->bucket);
	const u8 *rows = seg_rows(t, seg);
	u32 b = off >> KUNWIND_BUCKET_SHIFT;
	u32 lo = first_row(super, bucket, b);
	u32 hi = first_row(super, bucket, b + 1);
	u32 in = off & (KUNWIND_BUCKET_SIZE - 1);

	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		if (rows[mid * KUNWIND_ROW_SIZE] <= in)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

__kunwind_walk const struct kunwind_rule *
kunwind_seg_rule(const struct kunwind_hdr *t, const struct kunwind_seg *seg,
		 u32 off)
{
	return &kunwind_rules(t)[row_rule(t, seg, kunwind_seg_row(t, seg, off))];
}

__kunwind_walk const struct kunwind_rule *
kunwind_table_rule(const struct kunwind_hdr *t, unsigned long addr)
{
	const struct kunwind_seg *seg = kunwind_seg_at(t, addr);

	return seg ? kunwind_seg_rule(t, seg, addr - seg->base) : NULL;
}

void kunwind_row_iter_init(struct kunwind_row_iter *it,
			   const struct kunwind_hdr *t,
			   const struct kunwind_seg *seg)
{
	it->t = t;
	it->seg = seg;
	it->row = 0;
	it->bucket = 0;
	it->start = 0;
	it->end = 0;
	it->rule = 0;
}

/* Step to the next row; its range ends where the next row starts. */
bool kunwind_row_next(struct kunwind_row_iter *it)
{
	const struct kunwind_hdr *t = it->t;
	const struct kunwind_seg *seg = it->seg;
	const u8 *base = (const u8 *)t;
	const u32 *super = (const u32 *)(base + seg->super);
	const u16 *bucket = (const u16 *)(base + seg->bucket);
	const u8 *rows = seg_rows(t, seg);
	u32 nb = nr_buckets(seg), i = it->row;

	if (i >= seg->nr_rows)
		return false;
	while (first_row(super, bucket, it->bucket + 1) <= i)
		it->bucket++;
	it->start = it->bucket << KUNWIND_BUCKET_SHIFT | rows[i * KUNWIND_ROW_SIZE];
	it->rule = row_rule(t, seg, i);
	if (i + 1 == seg->nr_rows) {
		it->end = seg->size;
	} else {
		u32 b = it->bucket;

		while (b < nb && first_row(super, bucket, b + 1) <= i + 1)
			b++;
		it->end = b << KUNWIND_BUCKET_SHIFT |
			  rows[(i + 1) * KUNWIND_ROW_SIZE];
	}
	it->row++;
	return true;
}
