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
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>
#include "kunwind_bench.h"

#define BENCH_DEPTH	64	/* recursion frames below bench_deep_stack() */
#define ROUNDS		5

static bool verbose;
static double round_s = 0.2;
static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;

double now_ns(void)
{
	struct timespec ts;

	clock_gettime(clock_id, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
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

/* Calibrate to round_s a round, then the median of ROUNDS rounds. */
struct timing time_it(bench_walk_fn fn, void *ctx)
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
	[M_KUNWIND]	= { .name = "kunwind",	    .walk = k_walk },
	[M_KUNWIND_CACHED] = { .name = "kunwind-cache", .walk = k_cached_walk },
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
	k_cache_clear();
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

	if (load_tables(&b, verbose))
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
