// SPDX-License-Identifier: GPL-2.0
/*
 * Rows -> table.  Layout and invariants are in unwind/format.h; the
 * result is checked with the same kunwind_table_check() the kernel runs.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"

struct run {
	uint32_t start;
	uint32_t rule;
};

struct seg_build {
	unsigned int shndx;
	const char *name;
	uint64_t base, size;
	uint64_t rel;			/* subtract from row addresses */
	struct run *run;
	size_t nr, alloc;
};

struct rule_map {
	struct kunwind_rule *rule;
	size_t nr, alloc;
	uint32_t *slot;			/* open addressing: index + 1, 0 free */
	size_t slots;
};

static int row_cmp(const void *a, const void *b)
{
	const struct cfi_row *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

static uint64_t rule_hash(const struct kunwind_rule *r)
{
	uint64_t v;

	memcpy(&v, r, sizeof(v));
	return v * 0x9e3779b97f4a7c15ULL;
}

static long rule_index(struct rule_map *m, const struct kunwind_rule *r)
{
	size_t i;

	if (m->nr * 2 >= m->slots) {
		size_t n = m->slots ? m->slots * 2 : 1024, j;
		uint32_t *s = calloc(n, sizeof(*s));

		if (!s)
			return -1;
		for (j = 0; j < m->nr; j++) {
			i = rule_hash(&m->rule[j]) % n;
			while (s[i])
				i = (i + 1) % n;
			s[i] = j + 1;
		}
		free(m->slot);
		m->slot = s;
		m->slots = n;
	}
	for (i = rule_hash(r) % m->slots; m->slot[i]; i = (i + 1) % m->slots)
		if (!memcmp(&m->rule[m->slot[i] - 1], r, sizeof(*r)))
			return m->slot[i] - 1;
	if (m->nr == m->alloc) {
		size_t n = m->alloc ? m->alloc * 2 : 256;
		struct kunwind_rule *p = realloc(m->rule, n * sizeof(*p));

		if (!p)
			return -1;
		m->rule = p;
		m->alloc = n;
	}
	m->rule[m->nr] = *r;
	m->slot[i] = ++m->nr;
	return m->nr - 1;
}

static int add_run(struct seg_build *s, uint32_t start, uint32_t rule,
		   struct table_stats *st)
{
	if (s->nr && s->run[s->nr - 1].rule == rule) {
		st->merged++;
		return 0;
	}
	if (s->nr == s->alloc) {
		size_t n = s->alloc ? s->alloc * 2 : 256;
		struct run *p = realloc(s->run, n * sizeof(*p));

		if (!p)
			return -1;
		s->run = p;
		s->alloc = n;
	}
	s->run[s->nr].start = start;
	s->run[s->nr].rule = rule;
	s->nr++;
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
	uint64_t pos = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		uint64_t start = row[i].start - s->rel, end = row[i].end - s->rel;
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

static size_t align(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

void *table_build(const struct kelf *e, struct cfi_rows *rows, size_t *len,
		  struct table_stats *st, unsigned int *seg_shndx)
{
	struct rule_map m = { 0 };
	struct seg_build *seg = NULL;
	size_t nseg = 0, i, j, off, strings_len = 0, stride;
	struct kunwind_hdr *h = NULL;
	uint8_t *buf = NULL;

	memset(st, 0, sizeof(*st));
	if (rule_index(&m, &(struct kunwind_rule){ 0 }) != KUNWIND_RULE_NONE)
		goto out;
	if (rows->nr)
		qsort(rows->row, rows->nr, sizeof(*rows->row), row_cmp);

	for (i = 0; i < rows->nr; i = j) {
		struct seg_build *s, *p;
		const struct ksec *sec = e ? kelf_sec(e, rows->row[i].shndx) : NULL;

		for (j = i; j < rows->nr && rows->row[j].shndx == rows->row[i].shndx; j++)
			;
		/*
		 * Rows of a file are section-relative: without their section
		 * (one elf.c left out) there is no base to put them at.
		 */
		if (e && !sec)
			continue;
		p = realloc(seg, (nseg + 1) * sizeof(*seg));
		if (!p)
			goto out;
		seg = p;
		s = memset(&seg[nseg], 0, sizeof(*s));
		s->shndx = rows->row[i].shndx;
		if (sec) {
			s->name = sec->name;
			/* ET_REL: rows are section offsets, whatever sh_addr says */
			s->base = kelf_type(e) == ET_REL ? 0 : sec->addr;
			s->size = sec->size;
		} else {
			uint64_t hi = 0;
			size_t k;

			for (k = i; k < j; k++)
				if (rows->row[k].end > hi)
					hi = rows->row[k].end;
			s->name = ".text";
			s->base = s->rel = rows->row[i].start;
			s->size = hi - s->base;
		}
		if (!s->size || s->size > 0xffffffffULL)
			continue;	/* nothing to describe, or not one segment */
		if (build_runs(s, &rows->row[i], j - i, &m, st))
			goto out;
		strings_len += strlen(s->name) + 1;
		st->rows += s->nr;
		if (seg_shndx)
			seg_shndx[nseg] = s->shndx;
		nseg++;
	}
	if (nseg > 0xffff || m.nr > 0xffff)
		goto out;

	stride = m.nr > 256 ? 3 : 2;
	off = sizeof(*h) + nseg * sizeof(struct kunwind_seg);
	off = align(off, 8) + m.nr * sizeof(struct kunwind_rule);
	for (i = 0; i < nseg; i++) {
		uint64_t nb = (seg[i].size + KUNWIND_BUCKET_SIZE - 1) >> KUNWIND_BUCKET_SHIFT;

		off = align(off, 4) + ((nb >> 8) + 1) * 4;
		off = align(off, 2) + (nb + 1) * 2;
		off += seg[i].nr * stride;
	}
	off += strings_len;
	*len = align(off, 8);
	if (*len > 0xffffffffULL)
		goto out;
	if (posix_memalign((void **)&buf, 8, *len))
		goto out;
	memset(buf, 0, *len);

	h = (struct kunwind_hdr *)buf;
	h->magic = KUNWIND_MAGIC;
	h->version = KUNWIND_VERSION;
	h->flags = stride == 3 ? KUNWIND_F_WIDE : 0;
	h->size = *len;
	h->nr_segs = nseg;
	h->nr_rules = m.nr;
	off = align(sizeof(*h) + nseg * sizeof(struct kunwind_seg), 8);
	h->rules = off;
	memcpy(buf + off, m.rule, m.nr * sizeof(struct kunwind_rule));
	off += m.nr * sizeof(struct kunwind_rule);

	{
		size_t str_off = 0;
		char *strings;

		for (i = 0; i < nseg; i++) {
			struct kunwind_seg *ks = (struct kunwind_seg *)(h + 1) + i;
			uint64_t nb = (seg[i].size + KUNWIND_BUCKET_SIZE - 1) >> KUNWIND_BUCKET_SHIFT;
			uint32_t *super;
			uint16_t *bucket;
			uint8_t *r;
			size_t b, k = 0;

			ks->base = seg[i].base;
			ks->size = seg[i].size;
			ks->nr_rows = seg[i].nr;
			off = align(off, 4);
			ks->super = off;
			super = (uint32_t *)(buf + off);
			off += ((nb >> 8) + 1) * 4;
			off = align(off, 2);
			ks->bucket = off;
			bucket = (uint16_t *)(buf + off);
			off += (nb + 1) * 2;
			ks->rows = off;
			r = buf + off;
			off += seg[i].nr * stride;

			for (b = 0; b <= nb; b++) {
				while (k < seg[i].nr &&
				       seg[i].run[k].start < (b << KUNWIND_BUCKET_SHIFT))
					k++;
				if (!(b & 0xff))
					super[b >> 8] = k;
				bucket[b] = k - super[b >> 8];
			}
			for (k = 0; k < seg[i].nr; k++) {
				r[k * stride] = seg[i].run[k].start & 0xff;
				r[k * stride + 1] = seg[i].run[k].rule & 0xff;
				if (stride == 3)
					r[k * stride + 2] = seg[i].run[k].rule >> 8;
			}
			ks->name = str_off;
			str_off += strlen(seg[i].name) + 1;
		}
		h->strings = off;
		strings = (char *)buf + off;
		for (i = 0; i < nseg; i++) {
			struct kunwind_seg *ks = (struct kunwind_seg *)(h + 1) + i;

			strcpy(strings + ks->name, seg[i].name);
		}
	}
	st->rules = m.nr;
	st->segs = nseg;
	st->bytes = *len;

	if (kunwind_table_check(buf, *len)) {
		fprintf(stderr, "kunwind: internal error: built table fails check: %s\n",
			kunwind_bad_str(kunwind_table_check(buf, *len)));
		free(buf);
		buf = NULL;
	}
out:
	for (i = 0; i < nseg; i++)
		free(seg[i].run);
	free(seg);
	free(m.rule);
	free(m.slot);
	return buf;
}
