// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic kunwind tables for the lookup and walk suites, built in C in
 * the layout unwind/format.h describes (the host generator is not in the
 * kernel).  Written from the format's text, not from gen/table.c, so the
 * suites check the kernel's reader against the documented format.
 */
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include "table.h"

#define SUPER_BUCKETS	(1u << (KUNWIND_SUPER_SHIFT - KUNWIND_BUCKET_SHIFT))

struct seg_rows {
	u32 *start;
	u32 *rule;
	u32 nr, nr_esc;		/* rows, and those of an escaped rule */
};

static u32 rule_index(struct kunwind_rule *dict, u32 *nr,
		      const struct kunwind_rule *r)
{
	u32 i;

	for (i = 0; i < *nr; i++)
		if (!memcmp(&dict[i], r, sizeof(*r)))
			return i;
	dict[*nr] = *r;
	return (*nr)++;
}

struct kunwind_hdr *kt_table_build(struct kunit *test, const struct kt_seg *segs,
				   unsigned int nr, size_t *len)
{
	struct kunwind_rule *dict;
	struct seg_rows *sr;
	u32 nr_rules = 1, max_rules = 1, off, str_off, str_len = 0;
	struct kunwind_hdr *t;
	struct kunwind_seg *seg;
	unsigned int i, j;
	u8 *base;

	for (i = 0; i < nr; i++) {
		max_rules += segs[i].nr_rows;
		str_len += strlen(segs[i].name) + 1;
	}
	dict = kunit_kcalloc(test, max_rules, sizeof(*dict), GFP_KERNEL);
	sr = kunit_kcalloc(test, nr, sizeof(*sr), GFP_KERNEL);
	if (!dict || !sr)
		return NULL;
	/* Rule 0 is "no information": the all-zero rule. */

	/* Rows: each given row, plus a NONE row before every gap. */
	for (i = 0; i < nr; i++) {
		const struct kt_seg *s = &segs[i];
		u32 at = 0, n = 0;

		sr[i].start = kunit_kcalloc(test, 2 * s->nr_rows + 1,
					    sizeof(u32), GFP_KERNEL);
		sr[i].rule = kunit_kcalloc(test, 2 * s->nr_rows + 1,
					   sizeof(u32), GFP_KERNEL);
		if (!sr[i].start || !sr[i].rule)
			return NULL;
		for (j = 0; j < s->nr_rows; j++) {
			const struct kt_row *r = &s->rows[j];

			if (r->start > at || (!j && r->start)) {
				sr[i].start[n] = at;
				sr[i].rule[n++] = KUNWIND_RULE_NONE;
			}
			sr[i].start[n] = r->start;
			sr[i].rule[n] = rule_index(dict, &nr_rules, &r->rule);
			if (sr[i].rule[n++] >= KUNWIND_RULE_ESCAPE)
				sr[i].nr_esc++;
			at = r->end;
		}
		if (at < s->size) {
			sr[i].start[n] = at;
			sr[i].rule[n++] = KUNWIND_RULE_NONE;
		}
		sr[i].nr = n;
	}

	/*
	 * Layout: header, segments, rules, then per segment super, bucket,
	 * rows and escapes.  Rules from KUNWIND_RULE_ESCAPE on are escaped;
	 * this builder numbers rules in order of first use, not by use as
	 * kunwind-gen does: the format does not mind.
	 */
	off = sizeof(*t) + nr * sizeof(*seg);
	off = ALIGN(off + nr_rules * sizeof(*dict), 4);
	for (i = 0; i < nr; i++) {
		u32 nb = DIV_ROUND_UP(segs[i].size, KUNWIND_BUCKET_SIZE);

		off = ALIGN(off, 4) + ((nb / SUPER_BUCKETS) + 1) * 4;
		off += (nb + 1) * 2 + sr[i].nr * KUNWIND_ROW_SIZE;
		off = ALIGN(off, 4) + sr[i].nr_esc * sizeof(struct kunwind_esc);
	}
	str_off = off;
	off = ALIGN(off + str_len, 8);

	t = kunit_kzalloc(test, off, GFP_KERNEL);
	if (!t)
		return NULL;
	base = (u8 *)t;
	t->magic = KUNWIND_MAGIC;
	t->version = KUNWIND_VERSION;
	t->flags = KUNWIND_ARCH_ID;	/* the walker's own architecture */
	t->size = off;
	t->nr_segs = nr;
	t->nr_rules = nr_rules;
	t->rules = sizeof(*t) + nr * sizeof(*seg);
	t->strings = str_off;
	memcpy(base + t->rules, dict, nr_rules * sizeof(*dict));

	off = ALIGN(t->rules + nr_rules * sizeof(*dict), 4);
	str_len = 0;
	for (i = 0; i < nr; i++) {
		u32 nb = DIV_ROUND_UP(segs[i].size, KUNWIND_BUCKET_SIZE);
		struct kunwind_esc *esc;
		u32 *super;
		u16 *bucket;
		u8 *rows;
		u32 b, row = 0;

		seg = (struct kunwind_seg *)(t + 1) + i;
		seg->base = segs[i].base;
		seg->size = segs[i].size;
		seg->name = str_len;
		memcpy((char *)base + str_off + str_len, segs[i].name,
		       strlen(segs[i].name) + 1);
		str_len += strlen(segs[i].name) + 1;

		off = ALIGN(off, 4);
		seg->super = off;
		off += ((nb / SUPER_BUCKETS) + 1) * 4;
		seg->bucket = off;
		off += (nb + 1) * 2;
		seg->rows = off;
		seg->nr_rows = sr[i].nr;
		off += sr[i].nr * KUNWIND_ROW_SIZE;
		off = ALIGN(off, 4);
		seg->esc = off;
		seg->nr_esc = sr[i].nr_esc;
		off += sr[i].nr_esc * sizeof(*esc);

		super = (u32 *)(base + seg->super);
		bucket = (u16 *)(base + seg->bucket);
		rows = base + seg->rows;
		esc = (struct kunwind_esc *)(base + seg->esc);
		/* first(b) = super[b >> 8] + bucket[b]: rows starting in b. */
		for (b = 0; b <= nb; b++) {
			while (row < sr[i].nr &&
			       sr[i].start[row] >> KUNWIND_BUCKET_SHIFT < b)
				row++;
			if (b % SUPER_BUCKETS == 0)
				super[b / SUPER_BUCKETS] = row;
			bucket[b] = row - super[b / SUPER_BUCKETS];
		}
		/* An escaped rule: byte KUNWIND_RULE_ESCAPE, an entry in row order. */
		for (row = 0; row < sr[i].nr; row++) {
			u8 *r = rows + row * KUNWIND_ROW_SIZE;
			u32 rule = sr[i].rule[row];

			r[0] = sr[i].start[row] & (KUNWIND_BUCKET_SIZE - 1);
			r[1] = rule < KUNWIND_RULE_ESCAPE ? rule : KUNWIND_RULE_ESCAPE;
			if (rule >= KUNWIND_RULE_ESCAPE)
				*esc++ = (struct kunwind_esc){ .row = row, .rule = rule };
		}
	}
	*len = t->size;
	return t;
}
