// SPDX-License-Identifier: GPL-2.0
/*
 * The rows every stage of the pipeline passes on (cfi.c makes them,
 * hints.c cuts them, orc.c fills between them, table.c turns them into
 * runs), and the growing array they and the generator's other lists are
 * kept in.
 */
#include <stdlib.h>
#include "stages.h"

void *kgen_grow(void *p, size_t *alloc, size_t nr, size_t size, size_t first)
{
	size_t n;

	if (nr < *alloc)
		return p;
	n = *alloc ? *alloc * 2 : first;
	if (n < *alloc || n > SIZE_MAX / size)
		return NULL;
	p = realloc(p, n * size);
	if (p)
		*alloc = n;
	return p;
}

int cfi_rows_add(struct cfi_rows *r, unsigned int shndx, u64 start,
		 u64 end, const struct kunwind_rule *rule)
{
	struct cfi_row *p;

	if (end <= start)
		return 0;
	p = kgen_grow(r->row, &r->alloc, r->nr, sizeof(*p), 1024);
	if (!p)
		return -1;
	r->row = p;
	r->row[r->nr] = (struct cfi_row){
		.shndx = shndx, .start = start, .end = end, .rule = *rule,
		.seq = r->nr,
	};
	r->nr++;
	return 0;
}

static int row_cmp(const void *a, const void *b)
{
	const struct cfi_row *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void cfi_rows_sort(struct cfi_rows *r)
{
	if (r->nr)		/* qsort(NULL, 0) is undefined */
		qsort(r->row, r->nr, sizeof(*r->row), row_cmp);
}

void cfi_rows_free(struct cfi_rows *r)
{
	free(r->row);
	r->row = NULL;
	r->nr = 0;
	r->alloc = 0;
}
