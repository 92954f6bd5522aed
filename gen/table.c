// SPDX-License-Identifier: GPL-2.0
/*
 * Rows -> table: layout() turns the rows into segments of runs over a
 * dictionary of rules, number_by_use() numbers the rules most used first
 * (the rarest get escaped), place() decides where each array of the
 * table goes, emit() writes them there.  Layout and invariants are in
 * unwind/format.h; the result is checked with the same
 * kunwind_table_check() the kernel runs.
 */
#include <assert.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "stages.h"

/* One row of the table: a start and the index of its rule. */
struct run {
	u32 start;
	u32 rule;
};

struct seg_build {
	unsigned int shndx;
	const char *name;
	u64 base, size;
	u64 rel;			/* subtract from row addresses */
	struct run *run;
	size_t nr, alloc;
	size_t nr_esc;			/* runs of an escaped rule */
	/* where its arrays go in the table (place()) */
	u64 buckets;
	size_t super, bucket, rows, esc, name_off;
};

/*
 * The rules, each once; index 0 is KUNWIND_RULE_NONE.  Numbered in order
 * of first use while the runs are built, then by use (number_by_use()),
 * after which index is stale.
 */
struct rule_map {
	struct kunwind_rule *rule;
	size_t nr, alloc;
	struct kgen_map index;		/* the rule's 8 bytes -> rule[] */
};

struct layout {
	struct rule_map m;
	struct seg_build *seg;
	size_t nseg, seg_alloc;
	size_t rules, strings, len;	/* offsets in the table, its size */
};

/* A rule is its 8 bytes: the dictionary keys them as one integer. */
static_assert(sizeof(struct kunwind_rule) == sizeof(u64),
	      "struct kunwind_rule is a map key");

static long rule_index(struct rule_map *m, const struct kunwind_rule *r)
{
	struct kunwind_rule *p;
	u64 key;
	long i;

	memcpy(&key, r, sizeof(key));
	i = kgen_map_get(&m->index, key);
	if (i >= 0)
		return i;
	p = kgen_grow(m->rule, &m->alloc, m->nr, sizeof(*p), 256);
	if (!p)
		return -1;
	m->rule = p;
	m->rule[m->nr] = *r;
	if (kgen_map_put(&m->index, key, m->nr))
		return -1;
	return m->nr++;
}

static int add_run(struct seg_build *s, u32 start, u32 rule,
		   struct table_stats *st)
{
	struct run *p;

	if (s->nr && s->run[s->nr - 1].rule == rule) {
		st->merged++;
		return 0;
	}
	p = kgen_grow(s->run, &s->alloc, s->nr, sizeof(*p), 256);
	if (!p)
		return -1;
	s->run = p;
	s->run[s->nr++] = (struct run){ .start = start, .rule = rule };
	return 0;
}

/*
 * Turn the sorted rows of one section into runs covering [0, size): gaps
 * get KUNWIND_RULE_NONE, overlaps keep the first FDE (and are counted),
 * equal neighbours merge.
 */
static int build_runs(struct seg_build *s, const struct cfi_row *row,
		      size_t nr, struct rule_map *m, struct table_stats *st)
{
	u64 pos = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		u64 start = row[i].start - s->rel, end = row[i].end - s->rel;
		long idx;

		if (end > s->size) {
			st->overlaps++;
			end = s->size;
		}
		if (start < pos) {
			st->overlaps++;
			start = pos;
		}
		if (start >= end)
			continue;
		if (start > pos) {
			st->gaps++;
			if (add_run(s, pos, KUNWIND_RULE_NONE, st))
				return -1;
		}
		idx = rule_index(m, &row[i].rule);
		if (idx < 0 || add_run(s, start, idx, st))
			return -1;
		pos = end;
	}
	if (pos < s->size && add_run(s, pos, KUNWIND_RULE_NONE, st))
		return -1;
	return 0;
}

/*
 * The segment of the rows [row, row + nr) of one section: the section
 * itself, based at its address (0 in ET_REL, whose rows are section
 * offsets); without a file (e NULL: fuzzing, tests), the span of the rows.
 */
static void seg_init(struct seg_build *s, const struct kelf *e,
		     const struct ksec *sec, const struct cfi_row *row,
		     size_t nr)
{
	memset(s, 0, sizeof(*s));
	s->shndx = row->shndx;
	if (e) {
		s->name = sec->name;
		s->base = kelf_type(e) == ET_REL ? 0 : sec->addr;
		s->size = sec->size;
	} else {
		u64 hi = 0;
		size_t k;

		for (k = 0; k < nr; k++)
			if (row[k].end > hi)
				hi = row[k].end;
		s->name = ".text";
		s->base = row->start;
		s->rel = row->start;
		s->size = hi - s->base;
	}
}

/* The rows, sorted, as segments of runs and a dictionary of rules. */
static int layout(const struct kelf *e, struct cfi_rows *rows,
		  struct layout *l, struct table_stats *st,
		  unsigned int *seg_shndx)
{
	size_t i, j;

	if (rule_index(&l->m, &(struct kunwind_rule){ 0 }) != KUNWIND_RULE_NONE)
		return -1;
	cfi_rows_sort(rows);
	for (i = 0; i < rows->nr; i = j) {
		const struct ksec *sec = e ? kelf_sec(e, rows->row[i].shndx) : NULL;
		struct seg_build *s;

		for (j = i; j < rows->nr && rows->row[j].shndx == rows->row[i].shndx; j++)
			;
		/*
		 * Rows of a file are section-relative: without their section
		 * (one elf.c left out) there is no base to put them at.
		 */
		if (e && !sec)
			continue;
		s = kgen_grow(l->seg, &l->seg_alloc, l->nseg, sizeof(*s), 16);
		if (!s)
			return -1;
		l->seg = s;
		s = &l->seg[l->nseg];
		seg_init(s, e, sec, &rows->row[i], j - i);
		if (!s->size || s->size > 0xffffffffULL)
			continue;	/* nothing to describe, or not one segment */
		/* Counted before it is built: layout_free() frees its runs. */
		l->nseg++;
		if (build_runs(s, &rows->row[i], j - i, &l->m, st))
			return -1;
		st->rows += s->nr;
		if (seg_shndx)
			seg_shndx[l->nseg - 1] = s->shndx;
	}
	if (l->nseg > 0xffff || l->m.nr > 0xffff)
		return -1;
	return 0;
}

/* A rule and how many runs use it, to sort the dictionary by use. */
struct rule_use {
	size_t runs;
	u32 rule;
};

/* Most used first; equal uses in order of first use, so the order is fixed. */
static int by_use(const void *a, const void *b)
{
	const struct rule_use *x = a, *y = b;

	if (x->runs != y->runs)
		return x->runs > y->runs ? -1 : 1;
	return x->rule < y->rule ? -1 : x->rule > y->rule;
}

/*
 * Renumber the rules by how many runs use them, most used first after
 * KUNWIND_RULE_NONE, so that the rules escaped (those from
 * KUNWIND_RULE_ESCAPE on, format.h) are the rarest; count each segment's
 * escaped runs.  Equal neighbours were merged by index, which the
 * renumbering maps one to one, so merging stays correct.
 */
static int number_by_use(struct layout *l, struct table_stats *st)
{
	size_t n = l->m.nr, i, k;
	struct kunwind_rule *rule = malloc(n * sizeof(*rule));
	struct rule_use *use = calloc(n, sizeof(*use));
	u32 *to = malloc(n * sizeof(*to));
	int ret = -1;

	if (!rule || !use || !to)
		goto out;
	for (i = 0; i < n; i++)
		use[i].rule = i;
	for (i = 0; i < l->nseg; i++)
		for (k = 0; k < l->seg[i].nr; k++)
			use[l->seg[i].run[k].rule].runs++;
	qsort(use + 1, n - 1, sizeof(*use), by_use);
	for (i = 0; i < n; i++) {
		to[use[i].rule] = i;
		rule[i] = l->m.rule[use[i].rule];
	}
	for (i = 0; i < l->nseg; i++) {
		struct seg_build *s = &l->seg[i];

		for (k = 0; k < s->nr; k++) {
			s->run[k].rule = to[s->run[k].rule];
			if (s->run[k].rule >= KUNWIND_RULE_ESCAPE)
				s->nr_esc++;
		}
		st->escaped += s->nr_esc;
	}
	memcpy(l->m.rule, rule, n * sizeof(*rule));
	ret = 0;
out:
	free(rule);
	free(use);
	free(to);
	return ret;
}

static size_t align(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/*
 * Where each array goes, in the order of format.h: the header, the
 * segment headers, the rules (8-byte aligned), each segment's
 * super-buckets (u32), buckets (u16), rows and escapes (4-byte aligned),
 * then the names.  -1 if the table would outgrow its u32 offsets.
 */
static int place(struct layout *l)
{
	size_t off, names = 0, i;

	off = sizeof(struct kunwind_hdr) + l->nseg * sizeof(struct kunwind_seg);
	off = align(off, 8);
	l->rules = off;
	off += l->m.nr * sizeof(struct kunwind_rule);
	for (i = 0; i < l->nseg; i++) {
		struct seg_build *s = &l->seg[i];

		s->buckets = (s->size + KUNWIND_BUCKET_SIZE - 1) >> KUNWIND_BUCKET_SHIFT;
		off = align(off, 4);
		s->super = off;
		off += ((s->buckets >> 8) + 1) * 4;
		off = align(off, 2);
		s->bucket = off;
		off += (s->buckets + 1) * 2;
		s->rows = off;
		off += s->nr * KUNWIND_ROW_SIZE;
		off = align(off, 4);
		s->esc = off;
		off += s->nr_esc * sizeof(struct kunwind_esc);
		s->name_off = names;
		names += strlen(s->name) + 1;
	}
	l->strings = off;
	l->len = align(off + names, 8);
	return l->len > 0xffffffffULL ? -1 : 0;
}

/*
 * One segment's arrays: for each bucket b, the first run that starts at
 * or after b's start, as a super-bucket (every 256 buckets) plus a 16-bit
 * offset from it; the runs as (low byte of the start, rule byte), and an
 * escape for each run whose rule has no byte of its own.
 */
static void emit_seg(const struct seg_build *s, u8 *buf)
{
	u32 *super = (u32 *)(buf + s->super);
	u16 *bucket = (u16 *)(buf + s->bucket);
	struct kunwind_esc *esc = (struct kunwind_esc *)(buf + s->esc);
	u8 *r = buf + s->rows;
	size_t b, k = 0;

	for (b = 0; b <= s->buckets; b++) {
		while (k < s->nr && s->run[k].start < (b << KUNWIND_BUCKET_SHIFT))
			k++;
		if (!(b & 0xff))
			super[b >> 8] = k;
		bucket[b] = k - super[b >> 8];
	}
	for (k = 0; k < s->nr; k++, r += KUNWIND_ROW_SIZE) {
		u32 rule = s->run[k].rule;

		r[0] = s->run[k].start & 0xff;
		if (rule < KUNWIND_RULE_ESCAPE) {
			r[1] = rule;
		} else {
			r[1] = KUNWIND_RULE_ESCAPE;
			*esc++ = (struct kunwind_esc){ .row = k, .rule = rule };
		}
	}
}

/* Write the table where place() put everything; buf is zeroed. */
static void emit(const struct layout *l, u8 *buf, unsigned int arch)
{
	struct kunwind_hdr *h = (struct kunwind_hdr *)buf;
	struct kunwind_seg *ks = (struct kunwind_seg *)(h + 1);
	size_t i;

	h->magic = KUNWIND_MAGIC;
	h->version = KUNWIND_VERSION;
	h->flags = arch;
	h->size = l->len;
	h->nr_segs = l->nseg;
	h->nr_rules = l->m.nr;
	h->rules = l->rules;
	h->strings = l->strings;
	memcpy(buf + l->rules, l->m.rule, l->m.nr * sizeof(struct kunwind_rule));
	for (i = 0; i < l->nseg; i++) {
		const struct seg_build *s = &l->seg[i];

		ks[i].base = s->base;
		ks[i].size = s->size;
		ks[i].nr_rows = s->nr;
		ks[i].super = s->super;
		ks[i].bucket = s->bucket;
		ks[i].rows = s->rows;
		ks[i].esc = s->esc;
		ks[i].nr_esc = s->nr_esc;
		ks[i].name = s->name_off;
		emit_seg(s, buf);
		memcpy((char *)buf + l->strings + s->name_off, s->name,
		       strlen(s->name) + 1);
	}
}

static void layout_free(struct layout *l)
{
	size_t i;

	for (i = 0; i < l->nseg; i++)
		free(l->seg[i].run);
	free(l->seg);
	free(l->m.rule);
	kgen_map_free(&l->m.index);
}

void *table_build(const struct kelf *e, struct cfi_rows *rows, size_t *len,
		  struct table_stats *st, unsigned int *seg_shndx)
{
	return table_build_arch(e ? kelf_arch(e) : &kgen_arch_x86_64, e, rows,
				len, st, seg_shndx);
}

void *table_build_arch(const struct kgen_arch *arch, const struct kelf *e,
		       struct cfi_rows *rows, size_t *len,
		       struct table_stats *st, unsigned int *seg_shndx)
{
	struct layout l = { 0 };
	enum kunwind_bad bad;
	void *buf = NULL;

	memset(st, 0, sizeof(*st));
	if (layout(e, rows, &l, st, seg_shndx) || number_by_use(&l, st) ||
	    place(&l) ||
	    posix_memalign(&buf, 8, l.len)) {
		buf = NULL;
		goto out;
	}
	memset(buf, 0, l.len);
	emit(&l, buf, arch->table_arch);
	*len = l.len;
	st->rules = l.m.nr;
	st->segs = l.nseg;
	st->bytes = l.len;

	bad = kunwind_table_check(buf, l.len);
	if (bad) {
		fprintf(stderr, "kunwind: internal error: built table fails check: %s\n",
			kunwind_bad_str(bad));
		free(buf);
		buf = NULL;
	}
out:
	layout_free(&l);
	return buf;
}
