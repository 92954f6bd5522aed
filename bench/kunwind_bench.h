/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind's side of kunwind-bench, shared by bench.c (the harness: timing,
 * the walk benchmark, main), tables.c (the objects on the stack, their
 * tables, kunwind's walks over them) and lookup.c (lookups alone, and the
 * cache lines a lookup reads).  They see unwind/ and gen/; peers.c cannot
 * (bench.h says why), so what it shares is in bench.h.
 */
#ifndef _KUNWIND_BENCH_KUNWIND_H
#define _KUNWIND_BENCH_KUNWIND_H

#include <limits.h>
#include "../gen/gen.h"
#include "bench.h"

#define MAX_FRAMES	256

/* An object whose text may appear on the stack: the executable, libc. */
struct object {
	const char *what;
	char path[PATH_MAX];
	unsigned long bias;		/* runtime - link-time address */
	unsigned long lo, hi;		/* runtime span of its PF_X loads */
	const struct kunwind_hdr *table;
	size_t len;
	struct cfi_stats cs;
	struct table_stats ts;
	struct kelf *elf;		/* symbols, for -v */
};

enum { OBJ_EXE, OBJ_LIBC, NR_OBJS };

struct bench {
	struct bench_stack stack;	/* first: the peers take it as ctx */
	struct object obj[NR_OBJS];
	enum kunwind_stop stop;		/* of the last kunwind walk */
	/* lookup-only: the (table, address) pairs the walk looked up */
	const struct kunwind_hdr *lk_table[MAX_FRAMES];
	unsigned long lk_addr[MAX_FRAMES];
	int nr_lk;
};

/* bench.c: the clock every figure is taken with, in ns */
double now_ns(void);

struct timing {
	double med, min, max;		/* ns per call, over the rounds */
	long iters;			/* calls per round */
};

/* bench.c: calibrate to round_s a round, then the median of ROUNDS rounds. */
struct timing time_it(bench_walk_fn fn, void *ctx);

/* tables.c */
void *table_gen(const char *path, size_t *len, struct cfi_stats *cs,
		struct table_stats *ts);
/* The executable's and libc's tables; with symbols, their kelf for -v. */
int load_tables(struct bench *b, bool symbols);
unsigned long stack_top(void);
const struct object *object_at(const struct bench *b, unsigned long ip);
/* kunwind's walk of b->stack, without and with the lookup cache */
int k_walk(void *ctx, unsigned long *pc, int max);
int k_cached_walk(void *ctx, unsigned long *pc, int max);
void k_cache_clear(void);

/* lookup.c */
struct line_hist {
	unsigned long n[5];		/* 1, 2, 3, 4, 5+ lines */
	unsigned long total, missing;
};

void lookup_set(struct bench *b, const unsigned long *pc, int n);
int lookup_walk(void *ctx, unsigned long *pc, int max);
int lookup_lines(const struct kunwind_hdr *t, unsigned long addr,
		 bool whole_range);
void hist_add(struct line_hist *h, int lines);
double hist_le2(const struct line_hist *h);
void report_lines(const char *what, struct line_hist *range,
		  struct line_hist *read);
/* kunwind-bench lookup FILE */
int lookup_main(const char *path);

#endif /* _KUNWIND_BENCH_KUNWIND_H */
