/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The invariants every table that kunwind_table_check() accepted must
 * satisfy, checked by the fuzz targets that build or mutate tables
 * (cfi_fuzz, elf_fuzz, table_fuzz): the row lookup and the row iterator
 * agree, the iterator's rules are the rows' bytes and escapes, and
 * lookups anywhere give a rule of the table or NULL.  A broken one is a
 * fuzz_fail() (fuzz.h).
 */
#ifndef _KUNWIND_FUZZ_TABLE_INVARIANTS_H
#define _KUNWIND_FUZZ_TABLE_INVARIANTS_H

#include "fuzz.h"

/*
 * The rule of row, read as format.h describes it, for rows read in order:
 * its rule byte, or, if that is KUNWIND_RULE_ESCAPE, the rule of the next
 * escape entry (*escaped counts the escaped rows so far), which must name
 * this row.
 */
static inline uint32_t fuzz_row_rule(const struct kunwind_hdr *t,
				     const struct kunwind_seg *seg,
				     uint32_t row, uint32_t *escaped)
{
	const uint8_t *r = (const uint8_t *)t + seg->rows +
			   (size_t)row * KUNWIND_ROW_SIZE;
	const struct kunwind_esc *esc =
		(const struct kunwind_esc *)((const uint8_t *)t + seg->esc);

	if (r[1] != KUNWIND_RULE_ESCAPE)
		return r[1];
	if (*escaped >= seg->nr_esc || esc[*escaped].row != row)
		fuzz_fail("row %u: escape %u of %u does not name it", row,
			  *escaped, seg->nr_esc);
	return esc[(*escaped)++].rule;
}

/*
 * The row lookup and the row iterator are two independent readings of the
 * same arrays: they must agree at every offset we probe, and the iterator
 * must cut the segment into contiguous, non-empty rows covering [0, size).
 * Segments up to full_limit bytes are probed at every offset, larger ones
 * at the first, middle and last byte of every row.
 */
static inline void fuzz_check_seg(const struct kunwind_hdr *t,
				  const struct kunwind_seg *seg,
				  uint32_t full_limit)
{
	const struct kunwind_rule *rules = kunwind_rules(t);
	struct kunwind_row_iter it;
	uint32_t n = 0, prev_end = 0, escaped = 0;

	kunwind_row_iter_init(&it, t, seg);
	while (kunwind_row_next(&it)) {
		uint32_t row = n++, probe[3], i, rule;

		if (n > seg->nr_rows)
			fuzz_fail("iterator returned %u rows, nr_rows %u", n,
				  seg->nr_rows);
		if (it.start != prev_end || it.end <= it.start ||
		    it.end > seg->size)
			fuzz_fail("row %u is [%#x, %#x), expected to start at "
				  "%#x and end after it, at most at %#x", row,
				  it.start, it.end, prev_end, seg->size);
		rule = fuzz_row_rule(t, seg, row, &escaped);
		if (it.rule >= t->nr_rules || it.rule != rule)
			fuzz_fail("row %u: iterator rule %u, row bytes say %u "
				  "(nr_rules %u)", row, it.rule, rule,
				  t->nr_rules);
		prev_end = it.end;

		probe[0] = it.start;
		probe[1] = it.start + (it.end - it.start) / 2;
		probe[2] = it.end - 1;
		for (i = 0; i < 3; i++) {
			uint32_t got = kunwind_seg_row(t, seg, probe[i]);

			if (got != row)
				fuzz_fail("offset %#x of [%#x, %#x): lookup "
					  "found row %u, iterator says %u",
					  probe[i], it.start, it.end, got, row);
		}
		if (seg->size <= full_limit) {
			for (i = it.start; i < it.end; i++)
				if (kunwind_seg_row(t, seg, i) != row)
					fuzz_fail("offset %#x: lookup row %u, "
						  "iterator row %u", i,
						  kunwind_seg_row(t, seg, i),
						  row);
		}
		/* The policy lookup: the first segment holding addr wins. */
		if (kunwind_seg_at(t, seg->base + it.start) == seg &&
		    kunwind_table_rule(t, seg->base + it.start) != &rules[it.rule])
			fuzz_fail("kunwind_table_rule(%#llx) is not rule %u",
				  (unsigned long long)(seg->base + it.start),
				  it.rule);
	}
	if (n != seg->nr_rows || prev_end != seg->size)
		fuzz_fail("iterator: %u rows up to %#x, segment has %u rows "
			  "and %#x bytes", n, prev_end, seg->nr_rows,
			  seg->size);
	if (escaped != seg->nr_esc)
		fuzz_fail("%u escaped rows, %u escape entries", escaped,
			  seg->nr_esc);
}

/* A load bias for kunwind_table_seg(): a KASLR-like offset. */
#define FUZZ_BIAS	0x2a000000UL

/*
 * Lookups anywhere: NULL, or a rule of this table; and the one-table
 * ops->find_seg() helper finds the same segment at any load bias.
 */
static inline void fuzz_check_addr(const struct kunwind_hdr *t,
				   unsigned long addr)
{
	const struct kunwind_rule *r = kunwind_table_rule(t, addr);
	const struct kunwind_seg *seg = kunwind_seg_at(t, addr), *biased;
	unsigned long start = 0;

	if (!seg != !r)
		fuzz_fail("addr %#lx: segment %p but rule %p", addr,
			  (const void *)seg, (const void *)r);
	if (seg && addr - seg->base >= seg->size)
		fuzz_fail("addr %#lx outside its segment [%#llx, +%#x)", addr,
			  (unsigned long long)seg->base, seg->size);
	if (r && (r < kunwind_rules(t) || r >= kunwind_rules(t) + t->nr_rules))
		fuzz_fail("addr %#lx: rule pointer outside the dictionary",
			  addr);
	biased = kunwind_table_seg(t, FUZZ_BIAS, addr + FUZZ_BIAS, &start);
	if (biased != seg || (seg && start != seg->base + FUZZ_BIAS))
		fuzz_fail("addr %#lx at bias %#lx: segment %p start %#lx, "
			  "unbiased %p", addr, FUZZ_BIAS, (const void *)biased,
			  start, (const void *)seg);
}

/* Every invariant of an accepted table; extra is one more address to try. */
static inline void fuzz_check_table(const struct kunwind_hdr *t,
				    unsigned long extra, uint32_t full_limit)
{
	const struct kunwind_seg *seg = kunwind_segs(t);
	unsigned int i;

	for (i = 0; i < t->nr_segs; i++, seg++) {
		/* Plain lookups first: their crash is the one that matters. */
		fuzz_check_addr(t, seg->base);
		fuzz_check_addr(t, seg->base + extra % seg->size);
		fuzz_check_seg(t, seg, full_limit);
		fuzz_check_addr(t, seg->base - 1);
		fuzz_check_addr(t, seg->base + seg->size);
		fuzz_check_addr(t, seg->base + seg->size - 1);
	}
	fuzz_check_addr(t, 0);
	fuzz_check_addr(t, ~0UL);
	fuzz_check_addr(t, extra);
}

#endif /* _KUNWIND_FUZZ_TABLE_INVARIANTS_H */
