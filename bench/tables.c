// SPDX-License-Identifier: GPL-2.0
/*
 * What kunwind-bench walks with kunwind: the objects whose code is on the
 * stack (the executable and libc, found with dl_iterate_phdr()), their
 * tables built by the generator (kgen_table()), and kunwind's walk over
 * them, without and with a lookup cache.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kunwind_bench.h"

/*
 * A table built by kgen_table(), moved to 64-byte aligned memory: where a
 * table's arrays fall relative to cache lines then depends on the table
 * alone, not on malloc, and the line counts below are reproducible (the
 * kernel places tables in sections aligned at least as much).
 */
void *table_gen(const char *path, size_t *len, struct cfi_stats *cs,
		       struct table_stats *ts)
{
	void *t = kgen_table(path, len, cs, ts), *a;

	if (!t)
		return NULL;
	a = aligned_alloc(64, (*len + 63) & ~63UL);
	if (a)
		memcpy(a, t, *len);
	free(t);
	return a;
}

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct bench *b = data;
	static int nth;
	struct object *o = NULL;
	int i;

	/* The first object dl_iterate_phdr() reports is the executable. */
	if (nth++ == 0)
		o = &b->obj[OBJ_EXE];
	else if (strstr(info->dlpi_name, "/libc.so"))
		o = &b->obj[OBJ_LIBC];
	if (!o)
		return 0;
	if (o == &b->obj[OBJ_LIBC])
		snprintf(o->path, sizeof(o->path), "%s", info->dlpi_name);
	o->bias = info->dlpi_addr;
	o->lo = ~0UL;
	o->hi = 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		unsigned long start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (start < o->lo)
			o->lo = start;
		if (start + ph->p_memsz > o->hi)
			o->hi = start + ph->p_memsz;
	}
	return 0;
}

int load_tables(struct bench *b, bool symbols)
{
	ssize_t n;
	int i;

	b->obj[OBJ_EXE].what = "exe";
	b->obj[OBJ_LIBC].what = "libc";
	n = readlink("/proc/self/exe", b->obj[OBJ_EXE].path,
		     sizeof(b->obj[OBJ_EXE].path) - 1);
	if (n < 0) {
		perror("kunwind-bench: /proc/self/exe");
		return -1;
	}
	b->obj[OBJ_EXE].path[n] = 0;
	dl_iterate_phdr(phdr_cb, b);

	for (i = 0; i < NR_OBJS; i++) {
		struct object *o = &b->obj[i];
		double t0 = now_ns();
		enum kunwind_bad bad;

		if (!o->path[0] || o->lo >= o->hi) {
			fprintf(stderr, "kunwind-bench: no %s mapping found\n",
				o->what);
			return -1;
		}
		o->table = table_gen(o->path, &o->len, &o->cs, &o->ts);
		if (!o->table) {
			fprintf(stderr, "kunwind-bench: %s: no table\n", o->path);
			return -1;
		}
		bad = kunwind_table_check(o->table, o->len);
		if (bad) {
			fprintf(stderr, "kunwind-bench: %s: table refused: %s\n",
				o->path, kunwind_bad_str(bad));
			return -1;
		}
		printf("table   %-4s %-40s %7zu bytes %6zu rows %4zu rules  (%.1f ms)\n",
		       o->what, o->path, o->len, o->ts.rows, o->ts.rules,
		       (now_ns() - t0) / 1e6);
		if (symbols)
			o->elf = kelf_open(o->path);
	}
	return 0;
}

/* The top of the main thread's stack, from /proc/self/maps. */
unsigned long stack_top(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long lo, hi = 0;

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "[stack]") &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			break;
	if (f)
		fclose(f);
	return hi;
}

const struct object *object_at(const struct bench *b, unsigned long ip)
{
	int i;

	for (i = 0; i < NR_OBJS; i++)
		if (ip - b->obj[i].lo < b->obj[i].hi - b->obj[i].lo)
			return &b->obj[i];
	return NULL;
}

/* ---- kunwind on the live stack ---- */

static const struct kunwind_seg *k_find_seg(void *ctx, unsigned long ip,
					    const struct kunwind_hdr **table,
					    unsigned long *start)
{
	const struct object *o = object_at(ctx, ip);

	if (!o)
		return NULL;
	*table = o->table;
	return kunwind_table_seg(o->table, o->bias, ip, start);
}

static bool k_stack(void *ctx, unsigned long sp, unsigned long *lo,
		    unsigned long *hi)
{
	const struct bench_stack *s = ctx;

	if (sp - s->regs.sp >= s->hi - s->regs.sp)
		return false;
	*lo = s->regs.sp;
	*hi = s->hi;
	return true;
}

/*
 * The walker bounds-checks every read against the stack bounds stack()
 * gave it ([sp, top of stack), as for every other walker), so an
 * in-process walk needs no read hook: direct loads.
 */
static const struct kunwind_ops k_ops = {
	.find_seg = k_find_seg,
	.stack = k_stack,
};

static struct kunwind_cache k_cache;

void k_cache_clear(void)
{
	kunwind_cache_clear(&k_cache);
}

int k_walk(void *ctx, unsigned long *pc, int max)
{
	struct bench *b = ctx;
	const struct bench_regs *r = &b->stack.regs;
	struct kunwind_state s;
	int n = 0;

	kunwind_start(&s, &k_ops, b, r->ip, r->sp, r->bp, max, 0);
	n = kunwind_trace(&s, pc, max);
	b->stop = s.stop;
	return n;
}

/* The same with the lookup cache a profiler would keep (warm). */
int k_cached_walk(void *ctx, unsigned long *pc, int max)
{
	struct bench *b = ctx;
	const struct bench_regs *r = &b->stack.regs;
	struct kunwind_state s;

	kunwind_start(&s, &k_ops, b, r->ip, r->sp, r->bp, max, 0);
	s.cache = &k_cache;
	return kunwind_trace(&s, pc, max);
}
