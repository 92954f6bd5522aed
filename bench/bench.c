// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind-bench: kunwind's walker against its peers on one live stack.
 *
 *   kunwind-bench [-v]          walks: kunwind, rbp chain, libunwind, libdw
 *   kunwind-bench lookup FILE   lookups on FILE's table (e.g. a vmlinux):
 *                               cache lines touched, ns per random lookup
 *
 * The walk benchmark builds kunwind tables for its own executable and for
 * libc with the generator's kgen_table(), recurses BENCH_DEPTH frames deep
 * (deep_stack.c), captures rip/rsp/rbp there and, with that frame still live,
 * walks the stack above it again and again with each method.  All four
 * must report the same pcs for the frames they have in common.  Lines
 * starting with "result:" are for bench/run.sh; the rest is for people.
 *
 * Timing: a method is calibrated to run round_s seconds (default 0.2 s,
 * KUNWIND_BENCH_ROUND_S), then timed for 5 such rounds; the median round
 * is reported, with the spread.  The clock is the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), so that time spent descheduled on a busy
 * machine is not charged to whichever method was running;
 * KUNWIND_BENCH_CLOCK=monotonic uses wall time instead.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/callgrind.h>
#include "../gen/gen.h"
#include "bench.h"

#define BENCH_DEPTH	64	/* recursion frames below bench_deep_stack() */
#define MAX_FRAMES	256
#define ROUNDS		5
#define LINE_SHIFT	6	/* 64-byte cache lines */

static bool verbose;
static double round_s = 0.2;
static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;

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

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(clock_id, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ---- objects and tables ---- */

/*
 * A table built by kgen_table(), moved to 64-byte aligned memory: where a
 * table's arrays fall relative to cache lines then depends on the table
 * alone, not on malloc, and the line counts below are reproducible (the
 * kernel places tables in sections aligned at least as much).
 */
static void *table_gen(const char *path, size_t *len, struct cfi_stats *cs,
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

static int load_tables(struct bench *b)
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
		if (verbose)
			o->elf = kelf_open(o->path);
	}
	return 0;
}

/* The top of the main thread's stack, from /proc/self/maps. */
static unsigned long stack_top(void)
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

static const struct object *object_at(const struct bench *b, unsigned long ip)
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

static int kunwind_walk(void *ctx, unsigned long *pc, int max)
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
static int kunwind_cached_walk(void *ctx, unsigned long *pc, int max)
{
	struct bench *b = ctx;
	const struct bench_regs *r = &b->stack.regs;
	struct kunwind_state s;

	kunwind_start(&s, &k_ops, b, r->ip, r->sp, r->bp, max, 0);
	s.cache = &k_cache;
	return kunwind_trace(&s, pc, max);
}

/* ---- lookup only, and the cache lines a lookup touches ---- */

/* The addresses the walker looked up: ip for frame 0, ip - 1 above. */
static void lookup_set(struct bench *b, const unsigned long *pc, int n)
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

static int lookup_walk(void *ctx, unsigned long *pc, int max)
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
 * add the rule bytes of the row found, which may precede the bucket's
 * first row.  The super-block array and the rule dictionary are left out:
 * a few hundred bytes for a whole kernel, they stay cached.  -1 if no
 * segment holds addr.
 */
static int lookup_lines(const struct kunwind_hdr *t, unsigned long addr,
			bool whole_range)
{
	const struct kunwind_seg *seg = kunwind_seg_at(t, addr);
	const u8 *base = (const u8 *)t, *rows;
	const u32 *super;
	const u16 *bucket;
	u32 off, b, lo, hi, in, row, stride = t->flags & KUNWIND_F_WIDE ? 3 : 2;
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
		lines_add(&ls, rows + lo * stride, (hi - lo) * stride);
	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		lines_add(&ls, rows + mid * stride, 1);
		if (rows[mid * stride] <= in)
			lo = mid + 1;
		else
			hi = mid;
	}
	row = kunwind_seg_row(t, seg, off);
	if (row != lo - 1)
		fprintf(stderr, "kunwind-bench: lookup model disagrees with kunwind_seg_row at %#lx: row %u vs %u\n",
			addr, lo - 1, row);
	lines_add(&ls, rows + row * stride + 1, stride - 1);
	return ls.n;
}

struct line_hist {
	unsigned long n[5];		/* 1, 2, 3, 4, 5+ lines */
	unsigned long total, missing;
};

static void hist_add(struct line_hist *h, int lines)
{
	if (lines < 0) {
		h->missing++;
		return;
	}
	h->n[lines >= 5 ? 4 : lines - 1]++;
	h->total++;
}

static double hist_le2(const struct line_hist *h)
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

/* ---- timing ---- */

static double run_batch(bench_walk_fn fn, void *ctx, unsigned long *pc,
			long iters)
{
	double t0 = now_ns();
	long i;

	for (i = 0; i < iters; i++)
		fn(ctx, pc, MAX_FRAMES);
	return now_ns() - t0;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct timing {
	double med, min, max;		/* ns per call, over the rounds */
	long iters;			/* calls per round */
};

/* Calibrate to round_s a round, then the median of ROUNDS rounds. */
static struct timing time_it(bench_walk_fn fn, void *ctx)
{
	unsigned long pc[MAX_FRAMES];
	double res[ROUNDS], t;
	struct timing tm;
	long iters = 1;
	int r;

	while ((t = run_batch(fn, ctx, pc, iters)) < round_s * 1e9 / 8)
		iters *= 2;
	tm.iters = (long)(iters * (round_s * 1e9 / t)) + 1;
	for (r = 0; r < ROUNDS; r++)
		res[r] = run_batch(fn, ctx, pc, tm.iters) / tm.iters;
	qsort(res, ROUNDS, sizeof(res[0]), dbl_cmp);
	tm.med = res[ROUNDS / 2];
	tm.min = res[0];
	tm.max = res[ROUNDS - 1];
	return tm;
}

/* ---- the walk benchmark ---- */

struct method {
	const char *name;
	bench_walk_fn walk;
	void *ctx;
	unsigned long pc[MAX_FRAMES];
	int n;
	int skip;	/* pc[skip + i] is the reference's pc[i], for i >= 1 */
	bool off;	/* not run on this stack */
	struct timing tm;
	const char *note;
};

enum { M_KUNWIND, M_KUNWIND_CACHED, M_FP, M_LIBUNWIND, M_LIBUNWIND_PT,
       M_LIBUNWIND_FAST, M_LIBDW, NR_METHODS };

static void print_frames(const struct bench *b, const struct method *m)
{
	int i;

	printf("frames  %s:\n", m->name);
	for (i = 0; i < m->n; i++) {
		const struct object *o = object_at(b, i ? m->pc[i] - 1 : m->pc[i]);
		const char *sym = NULL;
		uint64_t off = 0;

		if (o && o->elf)
			sym = kelf_symbol(o->elf, m->pc[i] - o->bias, &off);
		printf("  #%-3d %#014lx %s+%#llx (%s)\n", i, m->pc[i],
		       sym ? sym : "?", (unsigned long long)off,
		       o ? o->what : "?");
	}
}

static struct method methods[NR_METHODS] = {
	[M_KUNWIND]	= { .name = "kunwind",	    .walk = kunwind_walk },
	[M_KUNWIND_CACHED] = { .name = "kunwind-cache", .walk = kunwind_cached_walk },
	[M_FP]		= { .name = "fp",	    .walk = fp_walk },
	[M_LIBUNWIND]	= { .name = "libunwind",    .walk = libunwind_walk },
	[M_LIBUNWIND_PT] = { .name = "libunwind-pt", .walk = libunwind_walk },
	[M_LIBUNWIND_FAST] = { .name = "libunwind-fast", .walk = libunwind_fast_walk },
	[M_LIBDW]	= { .name = "libdw",	    .walk = libdw_walk },
};

/* Where m's own stack reaches the reference's frame 1; -1 if never. */
static int align(const struct method *ref, const struct method *m)
{
	int i;

	for (i = 0; ref->n > 1 && i < m->n; i++)
		if (m->pc[i] == ref->pc[1])
			return i - 1;
	return -1;
}

/*
 * How many frames m must report, given kunwind's (the reference's): all
 * of them, but for the rbp chain, which ends at the first frame outside
 * the executable (libc has no frame pointers) and for unw_backtrace(),
 * which walks its own stack, m->skip frames more.
 */
static int frames_due(const struct bench *b, const struct method *ref,
		      const struct method *m)
{
	int i;

	if (m != &methods[M_FP])
		return ref->n + m->skip;
	for (i = 0; i < ref->n; i++)
		if (object_at(b, i ? ref->pc[i] - 1 : ref->pc[i]) !=
		    &b->obj[OBJ_EXE])
			return i + 1;
	return ref->n;
}

/*
 * m against the reference: the same count (frames_due()) and the same pcs
 * frame for frame.  A walker of its own stack (m->skip > 0) is compared
 * from the bottom frame's return address on: its frame 0 is elsewhere in
 * the bottom function.  Any difference is an error: a ratio of walks that
 * do not report the same frames means nothing.
 */
static int compare(const struct bench *b, const struct method *ref,
		   const struct method *m)
{
	int i, from = m->skip ? 1 : 0, due = frames_due(b, ref, m);
	int common = ref->n < m->n - m->skip ? ref->n : m->n - m->skip;

	if (m->n != due) {
		printf("bench: error: %s reports %d frames, %s %d (%d due)\n",
		       m->name, m->n - m->skip, ref->name, ref->n,
		       due - m->skip);
		return 1;
	}
	for (i = from; i < common; i++)
		if (ref->pc[i] != m->pc[m->skip + i]) {
			printf("bench: error: %s and %s differ at frame #%d: %#lx vs %#lx\n",
			       ref->name, m->name, i, ref->pc[i],
			       m->pc[m->skip + i]);
			return 1;
		}
	return 0;
}

/*
 * The two stacks: bench/deep_stack.c built twice (bench.mk), the same code
 * with frame pointers, so that the rbp chain has something to walk, and
 * without, as a kernel built without them, where only tables can.
 */
static const struct stack_kind {
	const char *name;
	int (*deep)(int depth, bench_bottom_fn fn, void *arg);
	bool fp;
	const char *what;
} stacks[] = {
	{ "fp", bench_deep_stack, true, "built -fno-omit-frame-pointer" },
	{ "nofp", bench_deep_stack_nofp, false, "built -fomit-frame-pointer: no rbp chain" },
};

static const struct stack_kind *cur_stack;

/*
 * libunwind's caching policy is global to its local address space: the
 * per-thread variant is timed after the global one, with the policy
 * switched (which flushes the cache) and one warming walk.  The global
 * cache takes a lock that blocks signals around every step (two
 * sigprocmask system calls); the per-thread cache does not.
 */
static void prepare(struct method *m)
{
	if (m != &methods[M_LIBUNWIND] && m != &methods[M_LIBUNWIND_PT])
		return;
	if (libunwind_setup(m == &methods[M_LIBUNWIND_PT]))
		m->note = "unw_set_caching_policy failed";
	m->walk(m->ctx, m->pc, MAX_FRAMES);
}

/*
 * Each method's walk against ref: the same frames, as many (compare()),
 * kunwind's own walk against ref too unless it is ref.  On any
 * difference the frames are listed and the bench ends: no ratio of walks
 * that differ.
 */
static void check_walks(const struct bench *b, const struct method *ref,
			const char *what)
{
	int i, bad = 0;

	for (i = 0; i < NR_METHODS; i++)
		if (!methods[i].off && &methods[i] != ref)
			bad += compare(b, ref, &methods[i]);
	if (verbose || bad)
		for (i = 0; i < NR_METHODS; i++)
			if (!methods[i].off)
				print_frames(b, &methods[i]);
	if (bad) {
		printf("bench: error: the walkers disagree on the %s stack%s: no ratio\n",
		       cur_stack->name, what);
		exit(1);
	}
}

static void report_lines(const char *what, struct line_hist *range,
			 struct line_hist *read)
{
	char name[64];

	snprintf(name, sizeof(name), "%s, range", what);
	hist_print(name, range);
	snprintf(name, sizeof(name), "%s, probed", what);
	hist_print(name, read);
}

static void at_bottom(const struct bench_regs *regs, void *arg)
{
	struct bench *b = arg;
	const struct stack_kind *sk = cur_stack;
	struct method *k = &methods[M_KUNWIND];
	struct line_hist range = { .total = 0 }, read = { .total = 0 };
	static struct method first;	/* kunwind's first walk */
	struct timing lk;
	char err[256], what[32];
	int i;

	b->stack.regs = *regs;
	if (regs->sp >= b->stack.hi) {
		fprintf(stderr, "kunwind-bench: sp %#lx not below stack top %#lx\n",
			regs->sp, b->stack.hi);
		exit(1);
	}

	for (i = 0; i < NR_METHODS; i++) {
		methods[i].n = 0;
		methods[i].skip = 0;
		methods[i].off = i == M_FP && !sk->fp;
	}
	methods[M_KUNWIND_CACHED].note = "256-entry lookup cache, warm";
	kunwind_cache_clear(&k_cache);
	methods[M_FP].note = sk->fp ? "rbp chain; ends in libc" :
				      "no frame pointers: not walked";
	methods[M_LIBUNWIND].note = "UNW_CACHE_GLOBAL, warm";
	methods[M_LIBUNWIND_PT].note = "UNW_CACHE_PER_THREAD, warm";
	methods[M_LIBUNWIND_FAST].note = "unw_backtrace(), trace cache warm, own frames above the bottom counted";
	if (libunwind_setup(0))
		methods[M_LIBUNWIND].note = "unw_set_caching_policy failed";
	if (libdw_setup(&b->stack, err, sizeof(err))) {
		fprintf(stderr, "kunwind-bench: libdw: %s\n", err);
		exit(1);
	}

	/* A first walk each: the frames, and warm caches (libunwind's). */
	for (i = 0; i < NR_METHODS; i++)
		if (!methods[i].off)
			methods[i].n = methods[i].walk(methods[i].ctx,
						       methods[i].pc, MAX_FRAMES);
	k->note = kunwind_stop_str(b->stop);
	methods[M_LIBUNWIND_FAST].skip = align(k, &methods[M_LIBUNWIND_FAST]);
	if (methods[M_LIBUNWIND_FAST].skip < 0) {
		fprintf(stderr, "kunwind-bench: unw_backtrace() never reaches the bottom frame's return address %#lx\n",
			k->n > 1 ? k->pc[1] : 0);
		exit(1);
	}
	methods[M_LIBDW].note = libdw_last_error(err, sizeof(err)) ?
				strdup(err) : "end of stack";
	if (b->stop != KUNWIND_STOP_END) {
		printf("bench: error: kunwind stopped early: %s\n", k->note);
		exit(1);
	}
	check_walks(b, k, "");
	printf("check   every walker reports kunwind's %d frames, pc for pc%s\n",
	       k->n, sk->fp ? " (the rbp chain up to libc)" : "");
	first = *k;

	for (i = 0; i < NR_METHODS; i++) {
		struct method *m = &methods[i];

		if (m->off) {
			printf("walk    %-14s n/a (%s)\n", m->name, m->note);
			continue;
		}
		prepare(m);
		m->tm = time_it(m->walk, m->ctx);
		printf("walk    %-14s %3d frames %9.1f ns/walk %8.2f ns/frame  (rounds %.1f..%.1f ns/walk, %ld walks each; %s)\n",
		       m->name, m->n - m->skip, m->tm.med,
		       m->tm.med / m->n, m->tm.min, m->tm.max, m->tm.iters,
		       m->note);
	}
	/* The walks timed were warm: once more, each must give the frames. */
	for (i = 0; i < NR_METHODS; i++)
		if (!methods[i].off)
			methods[i].n = methods[i].walk(methods[i].ctx,
						       methods[i].pc, MAX_FRAMES);
	check_walks(b, &first, " once warm");
	printf("check   and so they do again after timing, every cache warm\n");

	lookup_set(b, k->pc, k->n);
	lk = time_it(lookup_walk, b);
	printf("lookup  kunwind_table_rule %.2f ns/lookup over the %d lookups of the walk (rounds %.2f..%.2f)\n",
	       lk.med / b->nr_lk, b->nr_lk, lk.min / b->nr_lk,
	       lk.max / b->nr_lk);
	for (i = 0; i < b->nr_lk; i++) {
		hist_add(&range, lookup_lines(b->lk_table[i], b->lk_addr[i], true));
		hist_add(&read, lookup_lines(b->lk_table[i], b->lk_addr[i], false));
	}
	snprintf(what, sizeof(what), "walk %s", sk->name);
	report_lines(what, &range, &read);

	for (i = 0; i < NR_METHODS; i++)
		if (!methods[i].off)
			printf("result: walk-%s %s frames=%d ns_walk=%.1f ns_frame=%.3f\n",
			       sk->name, methods[i].name, methods[i].n,
			       methods[i].tm.med,
			       methods[i].tm.med / methods[i].n);
	printf("result: lookup-%s ns=%.3f le2_lines=%.1f le2_lines_probed=%.1f\n",
	       sk->name, lk.med / b->nr_lk, hist_le2(&range), hist_le2(&read));
}

/*
 * Instructions, not time: each method walks count times on the no-frame-
 * pointer stack (the rbp chain on the other), between callgrind's
 * toggles (bench/run.sh runs this under valgrind --tool=callgrind
 * --collect-atstart=no and divides by count * frames).
 */
static int count_walks;

static void count_bottom(const struct bench_regs *regs, void *arg)
{
	struct bench *b = arg;
	struct method *m;
	long i;
	int j;

	b->stack.regs = *regs;
	for (j = 0; j < NR_METHODS; j++) {
		m = &methods[j];
		if ((j == M_FP) != cur_stack->fp)
			continue;
		if (j == M_LIBDW && libdw_setup(&b->stack, NULL, 0))
			exit(1);
		prepare(m);
		m->n = m->walk(m->ctx, m->pc, MAX_FRAMES);	/* warm */
		CALLGRIND_ZERO_STATS;
		CALLGRIND_TOGGLE_COLLECT;
		for (i = 0; i < count_walks; i++)
			m->walk(m->ctx, m->pc, MAX_FRAMES);
		CALLGRIND_TOGGLE_COLLECT;
		printf("result: count %s frames=%d walks=%d\n", m->name,
		       m->n, count_walks);
		CALLGRIND_DUMP_STATS_AT(m->name);
	}
}

static int walk_main(void)
{
	static struct bench b;
	unsigned int i;

	if (load_tables(&b))
		return 1;
	b.stack.hi = stack_top();
	if (!b.stack.hi) {
		fprintf(stderr, "kunwind-bench: no [stack] in /proc/self/maps\n");
		return 1;
	}
	/* kunwind's walks take the bench, the peers its stack */
	for (i = 0; i < NR_METHODS; i++)
		methods[i].ctx = i <= M_KUNWIND_CACHED ? (void *)&b : &b.stack;
	for (i = 0; i < sizeof(stacks) / sizeof(stacks[0]); i++) {
		cur_stack = &stacks[i];
		if (count_walks) {
			cur_stack->deep(BENCH_DEPTH, count_bottom, &b);
			continue;
		}
		printf("\n--- walks on the %s stack (bench/deep_stack.c %s)\n",
		       cur_stack->name, cur_stack->what);
		cur_stack->deep(BENCH_DEPTH, at_bottom, &b);
	}
	return 0;
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
static int lookup_main(const char *path)
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

int main(int argc, char **argv)
{
	const char *s = getenv("KUNWIND_BENCH_ROUND_S");

	if (s && atof(s) > 0)
		round_s = atof(s);
	s = getenv("KUNWIND_BENCH_CLOCK");
	if (s && !strcmp(s, "monotonic"))
		clock_id = CLOCK_MONOTONIC;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "lookup"))
		return lookup_main(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "count")) {
		count_walks = atoi(argv[2]);
		if (count_walks > 0)
			return walk_main();
	}
	if (argc == 2 && !strcmp(argv[1], "-v"))
		verbose = true;
	else if (argc != 1) {
		fprintf(stderr, "usage: kunwind-bench [-v] | kunwind-bench lookup FILE | kunwind-bench count N\n");
		return 2;
	}
	return walk_main();
}
