// SPDX-License-Identifier: GPL-2.0
/*
 * Lookups alone, without the walk: kunwind_table_rule() on the addresses
 * a walk looked up (timed by bench.c) and on uniformly random addresses
 * of a big table (kunwind-bench lookup FILE), and for each lookup the
 * cache lines it reads, from a model of kunwind_seg_row().
 */
#include <stdlib.h>
#include "kunwind_bench.h"

#define LINE_SHIFT	6	/* 64-byte cache lines */

/* ---- lookup only, and the cache lines a lookup touches ---- */

/* The addresses the walker looked up: ip for frame 0, ip - 1 above. */
void lookup_set(struct bench *b, const unsigned long *pc, int n)
{
	int i;

	b->nr_lk = 0;
	for (i = 0; i < n; i++) {
		unsigned long addr = i ? pc[i] - 1 : pc[i];
		const struct object *o = object_at(b, addr);

		if (!o)
			continue;
		b->lk_table[b->nr_lk] = o->table;
		b->lk_addr[b->nr_lk++] = addr - o->bias;
	}
}

static volatile unsigned long lookup_sink;

int lookup_walk(void *ctx, unsigned long *pc, int max)
{
	const struct bench *b = ctx;
	unsigned long acc = 0;
	int i;

	for (i = 0; i < b->nr_lk; i++)
		acc += (unsigned long)kunwind_table_rule(b->lk_table[i], b->lk_addr[i]);
	lookup_sink = acc;
	return b->nr_lk;
}

struct line_set {
	unsigned long line[32];
	int n;
};

static void lines_add(struct line_set *ls, const void *p, unsigned long len)
{
	unsigned long l, first = (unsigned long)p >> LINE_SHIFT;
	unsigned long last = ((unsigned long)p + len - 1) >> LINE_SHIFT;
	int i;

	for (l = first; l <= last; l++) {
		for (i = 0; i < ls->n && ls->line[i] != l; i++)
			;
		if (i == ls->n && ls->n < (int)(sizeof(ls->line) /
						 sizeof(ls->line[0])))
			ls->line[ls->n++] = l;
	}
}

/*
 * The distinct cache lines of the bucket and row arrays that a lookup of
 * addr reads, following kunwind_seg_row() in unwind/lookup.c: bucket[b] and
 * bucket[b + 1], then rows.  With whole_range, all the rows starting in
 * bucket b count (the format's promise: "the few rows of one bucket, one
 * cache line"); without, only the rows the binary search probes.  Both
 * add the rule byte of the row found, which may precede the bucket's
 * first row, and, if it is KUNWIND_RULE_ESCAPE, the escape entries
 * esc_rule()'s binary search reads.  The super-block array and the rule
 * dictionary are left out: a few hundred bytes for a whole kernel, they
 * stay cached.  -1 if no segment holds addr.
 */
int lookup_lines(const struct kunwind_hdr *t, unsigned long addr,
			bool whole_range)
{
	const struct kunwind_seg *seg = kunwind_seg_at(t, addr);
	const u8 *base = (const u8 *)t, *rows;
	const u32 *super;
	const u16 *bucket;
	const struct kunwind_esc *esc;
	u32 off, b, lo, hi, in, row;
	struct line_set ls = { .n = 0 };

	if (!seg)
		return -1;
	super = (const u32 *)(base + seg->super);
	bucket = (const u16 *)(base + seg->bucket);
	rows = base + seg->rows;
	off = addr - seg->base;
	b = off >> KUNWIND_BUCKET_SHIFT;
	in = off & (KUNWIND_BUCKET_SIZE - 1);
	lo = super[b >> (KUNWIND_SUPER_SHIFT - KUNWIND_BUCKET_SHIFT)] + bucket[b];
	hi = super[(b + 1) >> (KUNWIND_SUPER_SHIFT - KUNWIND_BUCKET_SHIFT)] +
	     bucket[b + 1];
	lines_add(&ls, &bucket[b], 2);
	lines_add(&ls, &bucket[b + 1], 2);
	if (whole_range && hi > lo)
		lines_add(&ls, rows + lo * KUNWIND_ROW_SIZE,
			  (hi - lo) * KUNWIND_ROW_SIZE);
	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		lines_add(&ls, rows + mid * KUNWIND_ROW_SIZE, 1);
		if (rows[mid * KUNWIND_ROW_SIZE] <= in)
			lo = mid + 1;
		else
			hi = mid;
	}
	row = kunwind_seg_row(t, seg, off);
	if (row != lo - 1)
		fprintf(stderr, "kunwind-bench: lookup model disagrees with kunwind_seg_row at %#lx: row %u vs %u\n",
			addr, lo - 1, row);
	lines_add(&ls, rows + row * KUNWIND_ROW_SIZE + 1, 1);
	if (rows[row * KUNWIND_ROW_SIZE + 1] != KUNWIND_RULE_ESCAPE)
		return ls.n;
	/* esc_rule(): the lower bound of row among the sorted entries */
	esc = (const struct kunwind_esc *)(base + seg->esc);
	lo = 0;
	hi = seg->nr_esc - 1;
	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		lines_add(&ls, &esc[mid], sizeof(esc[mid].row));
		if (esc[mid].row < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	lines_add(&ls, &esc[lo], sizeof(esc[lo]));
	if (esc[lo].row != row)
		fprintf(stderr, "kunwind-bench: lookup model finds no escape for row %u at %#lx\n",
			row, addr);
	return ls.n;
}

void hist_add(struct line_hist *h, int lines)
{
	if (lines < 0) {
		h->missing++;
		return;
	}
	h->n[lines >= 5 ? 4 : lines - 1]++;
	h->total++;
}

double hist_le2(const struct line_hist *h)
{
	return h->total ? 100.0 * (h->n[0] + h->n[1]) / h->total : 0;
}

static void hist_print(const char *what, const struct line_hist *h)
{
	double t = h->total ? h->total : 1;

	printf("lines   %-22s %lu lookups: 1 line %.1f%%, 2 %.1f%%, 3 %.1f%%, 4 %.1f%%, 5+ %.1f%%; <= 2: %.1f%%\n",
	       what, h->total, 100 * h->n[0] / t, 100 * h->n[1] / t,
	       100 * h->n[2] / t, 100 * h->n[3] / t, 100 * h->n[4] / t,
	       hist_le2(h));
}

void report_lines(const char *what, struct line_hist *range,
			 struct line_hist *read)
{
	char name[64];

	snprintf(name, sizeof(name), "%s, range", what);
	hist_print(name, range);
	snprintf(name, sizeof(name), "%s, probed", what);
	hist_print(name, read);
}

/* ---- lookups on a big table (vmlinux) ---- */

static unsigned long xorshift(unsigned long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

struct random_lookups {
	const struct kunwind_hdr *t;
	unsigned long *addr;
	int n;
};

static int random_walk(void *ctx, unsigned long *pc, int max)
{
	const struct random_lookups *r = ctx;
	unsigned long acc = 0;
	int i;

	for (i = 0; i < r->n; i++)
		acc += (unsigned long)kunwind_table_rule(r->t, r->addr[i]);
	lookup_sink = acc;
	return r->n;
}

/*
 * Uniformly random text addresses: what a sampling profiler sees, roughly
 * (it samples where time is spent, which is hotter and so cheaper).
 */
int lookup_main(const char *path)
{
	struct random_lookups r = { .n = 1 << 20 };
	const struct kunwind_seg *seg;
	struct line_hist range = { .total = 0 }, read = { .total = 0 };
	struct table_stats ts;
	struct cfi_stats cs;
	unsigned long seed = 0x2545f4914f6cdd1dUL, text = 0;
	struct timing tm;
	size_t len;
	int i, j;

	r.t = table_gen(path, &len, &cs, &ts);
	if (!r.t || kunwind_table_check(r.t, len)) {
		fprintf(stderr, "kunwind-bench: %s: no valid table\n", path);
		return 1;
	}
	seg = kunwind_segs(r.t);
	for (j = 0; j < r.t->nr_segs; j++)
		text += seg[j].size;
	r.addr = malloc(r.n * sizeof(*r.addr));
	if (!r.addr || !text)
		return 1;
	for (i = 0; i < r.n; i++) {
		unsigned long x = xorshift(&seed) % text;

		for (j = 0; x >= seg[j].size; j++)
			x -= seg[j].size;
		r.addr[i] = seg[j].base + x;
		hist_add(&range, lookup_lines(r.t, r.addr[i], true));
		hist_add(&read, lookup_lines(r.t, r.addr[i], false));
	}
	printf("table   %s: %zu bytes, %zu rows, %zu rules, %u segments, %lu text bytes\n",
	       path, len, ts.rows, ts.rules, r.t->nr_segs, text);
	report_lines("uniform", &range, &read);
	tm = time_it(random_walk, &r);
	printf("lookup  kunwind_table_rule %6.2f ns/lookup, %d random addresses (rounds %.2f..%.2f)\n",
	       tm.med / r.n, r.n, tm.min / r.n, tm.max / r.n);
	printf("result: biglookup ns=%.3f le2_lines=%.1f le2_lines_probed=%.1f bytes=%zu\n",
	       tm.med / r.n, hist_le2(&range), hist_le2(&read), len);
	return 0;
}
