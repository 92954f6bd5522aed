// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind-stack: the walker of unwind/walk.c on the threads of a core file,
 * with tables built on the fly from the mapped ELF files.  It exists to
 * test the walker and the generator against eu-stack and gdb on the same
 * core (tests/kunwind-stack.test), and to time the walk (--bench).
 *
 *   kunwind-stack --core CORE [--exe EXE] [--bench N] [--no-fp-fallback]
 *
 * Output, per thread:
 *
 *   TID 1234
 *   #0 0x7f0123456789 pause+0x32 (/lib/x86_64-linux-gnu/libc.so.6)
 *   #1 0x55d0c0ffee25 park+0x24 (/tmp/stackprog)
 *   #2 0x55d0c0ffee80 fp_user+0x10 (/tmp/fpprog) [guess]
 *   #3 0x7f0123400000 ??
 *   # stop: end of stack
 *
 * Where no row covers an ip (code without CFI, a file that cannot be
 * read), the walker guesses the caller from rbp as a frame pointer, as
 * eu-stack does; --no-fp-fallback stops there instead.  A guessed frame
 * and every frame after it, which rest on the guess, end in " [guess]".
 * A frame outside every readable ELF file has no name ("??") and no
 * file; the walker accepts it if it lies in executable memory of the
 * core.
 *
 * PCs are printed as eu-stack and gdb print them: the raw return address
 * for a called frame, not the return address - 1 the walker looks up.  The
 * symbol is looked up where the walker looks the row up (pc - 1 for a
 * called frame, so that a call ending a function names that function, as
 * eu-stack does), and at pc for the signal trampoline, whose FDE starts
 * one byte before the symbol; the offset printed is the pc's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core.h"
#include "../gen/gen.h"

#define MAX_DEPTH	1024

/* One mapped ELF file: its table and symbols, loaded at first use. */
struct module {
	const char *path;
	uint64_t start;		/* the mapping of file offset 0 */
	uint64_t bias;		/* run-time address - link-time address */
	struct kelf *elf;
	void *table;
	bool loaded;
};

#define NR_HITS		4

struct stack_ctx {
	struct core *core;
	struct module *mod;
	unsigned int nr_mods;
	int *map_mod;		/* per mapping: module, -1 none, -2 unknown */
	/* The mappings found last: a walk goes back and forth between few. */
	struct {
		uint64_t start, end;
		struct module *mod;
	} hit[NR_HITS];
	unsigned int next_hit;
};

/* The mapping at file offset 0 of the same file, at or below map i. */
static int module_base(struct stack_ctx *x, unsigned int i)
{
	const struct core_map *m = core_map(x->core, i);
	int j;

	for (j = i; j >= 0; j--) {
		const struct core_map *b = core_map(x->core, j);

		if (!b->offset && !strcmp(b->path, m->path))
			return j;
	}
	return -1;
}

/*
 * Open the module's file once: the core's reader opens the path (a
 * regular file, without blocking: core_file_fd()), and the ELF reader
 * and the table are given that file, through /proc/self/fd, not the path
 * again, which may name something else by now.
 */
static void module_load(struct core *core, struct module *mod)
{
	int fd = core_file_fd(core, mod->path);
	struct cfi_stats cs;
	struct table_stats ts;
	char path[32];
	size_t len;

	mod->loaded = true;
	if (fd < 0)
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	mod->elf = kelf_open(path);
	if (!mod->elf)
		return;
	mod->bias = mod->start - kelf_load_base(mod->elf);
	mod->table = kgen_build(mod->elf, NULL, 0, &len, &cs, &ts, NULL);
	if (!mod->table)
		fprintf(stderr, "kunwind-stack: %s: no table\n", mod->path);
	else if (kunwind_table_check_own(mod->table, len) != KUNWIND_OK) {
		fprintf(stderr, "kunwind-stack: %s: bad table: %s\n", mod->path,
			kunwind_bad_str(kunwind_table_check_own(mod->table, len)));
		free(mod->table);
		mod->table = NULL;
	}
}

/* The module mapped at addr, loaded; NULL if no ELF file is. */
static struct module *module_at(struct stack_ctx *x, uint64_t addr)
{
	const struct core_map *m, *base;
	unsigned int i, k;
	struct module *mod;
	int b;

	for (i = 0; i < NR_HITS; i++)
		if (addr - x->hit[i].start < x->hit[i].end - x->hit[i].start)
			return x->hit[i].mod;
	m = core_map_at(x->core, addr);
	if (!m)
		return NULL;
	i = m - core_map(x->core, 0);
	if (x->map_mod[i] == -2) {
		x->map_mod[i] = -1;
		b = module_base(x, i);
		if (b < 0)
			return NULL;
		base = core_map(x->core, b);
		for (k = 0; k < x->nr_mods; k++)
			if (x->mod[k].start == base->start)
				break;
		if (k == x->nr_mods) {
			mod = &x->mod[x->nr_mods++];
			mod->path = base->path;
			mod->start = base->start;
		}
		x->map_mod[i] = k;
	}
	if (x->map_mod[i] < 0)
		return NULL;
	mod = &x->mod[x->map_mod[i]];
	if (!mod->loaded)
		module_load(x->core, mod);
	if (!mod->elf)
		return NULL;
	k = x->next_hit++ % NR_HITS;
	x->hit[k].start = m->start;
	x->hit[k].end = m->end;
	x->hit[k].mod = mod;
	return mod;
}

static const struct kunwind_seg *find_seg(void *ctx, unsigned long ip,
					  const struct kunwind_hdr **table,
					  unsigned long *start)
{
	struct module *mod = module_at(ctx, ip);

	if (!mod || !mod->table)
		return NULL;
	*table = mod->table;
	return kunwind_table_seg(mod->table, mod->bias, ip, start);
}

static bool read_mem(void *ctx, unsigned long addr, unsigned long *val)
{
	struct stack_ctx *x = ctx;

	return core_read(x->core, addr, val, sizeof(*val));
}

/* A stack is the memory segment (one mapping) holding sp. */
static bool stack_bounds(void *ctx, unsigned long sp, unsigned long *lo,
			 unsigned long *hi)
{
	struct stack_ctx *x = ctx;
	uint64_t l, h;

	if (!core_segment(x->core, sp, &l, &h))
		return false;
	*lo = l;
	*hi = h;
	return true;
}

/*
 * Code outside every table (a file that cannot be read, code no ELF file
 * maps): executable memory of the process.  A return address guessed from
 * rbp that points anywhere else ends the walk.
 */
static bool text_ok(void *ctx, unsigned long ip)
{
	struct stack_ctx *x = ctx;

	return core_code_at(x->core, ip);
}

static const struct kunwind_ops stack_ops = {
	.find_seg	= find_seg,
	.read		= read_mem,
	.stack		= stack_bounds,
	.text_ok	= text_ok,
};

/* Is the row for a return address the signal trampoline's? */
static bool signal_frame(struct stack_ctx *x, unsigned long ip)
{
	const struct kunwind_seg *seg;
	const struct kunwind_rule *r = NULL;
	const struct kunwind_hdr *t;
	unsigned long start;

	seg = find_seg(x, ip - 1, &t, &start);
	if (seg)
		r = kunwind_seg_rule(t, seg, ip - 1 - start);
	return r && r->type == KUNWIND_TYPE_SIGNAL;
}

static void print_frame(struct stack_ctx *x, unsigned int i,
			const struct kunwind_state *s)
{
	unsigned long addr = s->ip;
	struct module *mod;
	const char *name = NULL;
	uint64_t off = 0;

	if (!s->exact_ip && !signal_frame(x, s->ip))
		addr--;
	mod = module_at(x, addr);
	if (mod)
		name = kelf_symbol(mod->elf, addr - mod->bias, &off);
	printf("#%u 0x%lx", i, s->ip);
	if (name)
		printf(" %s+0x%lx", name, (unsigned long)(off + s->ip - addr));
	else
		printf(" ??");
	if (mod)
		printf(" (%s)", mod->path);
	printf("%s\n", s->unreliable ? " [guess]" : "");
}

static void walk_thread(struct stack_ctx *x, const struct core_thread *t,
			unsigned int flags)
{
	struct kunwind_state s;
	unsigned int i = 0;

	printf("TID %d\n", t->tid);
	kunwind_start(&s, &stack_ops, x, t->ip, t->sp, t->bp, MAX_DEPTH, flags);
	print_frame(x, i++, &s);
	while (kunwind_next(&s))
		print_frame(x, i++, &s);
	printf("# stop: %s\n", kunwind_stop_str(s.stop));
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Walk every thread n times, without printing: the tables exist by now. */
static void bench(struct stack_ctx *x, unsigned long n, unsigned int flags)
{
	unsigned long frames = 0, k;
	unsigned int i;
	double t0, t1;

	t0 = now_ns();
	for (k = 0; k < n; k++) {
		for (i = 0; i < core_nr_threads(x->core); i++) {
			const struct core_thread *t = core_thread(x->core, i);
			struct kunwind_state s;

			kunwind_start(&s, &stack_ops, x, t->ip, t->sp, t->bp,
				      MAX_DEPTH, flags);
			frames++;
			while (kunwind_next(&s))
				frames++;
		}
	}
	t1 = now_ns();
	printf("bench: kunwind-stack ns/frame=%.1f frames=%lu\n",
	       frames ? (t1 - t0) / frames : 0.0, n ? frames / n : 0);
}

static void usage(void)
{
	fprintf(stderr, "usage: kunwind-stack --core CORE [--exe EXE] "
		"[--bench N] [--no-fp-fallback]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *core_path = NULL, *exe = NULL;
	unsigned long nbench = 0;
	unsigned int flags = KUNWIND_FP_FALLBACK, i;
	struct stack_ctx x = { 0 };
	int k;

	for (k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--core") && k + 1 < argc)
			core_path = argv[++k];
		else if (!strcmp(argv[k], "--exe") && k + 1 < argc)
			exe = argv[++k];
		else if (!strcmp(argv[k], "--bench") && k + 1 < argc)
			nbench = strtoul(argv[++k], NULL, 0);
		else if (!strcmp(argv[k], "--no-fp-fallback"))
			flags &= ~KUNWIND_FP_FALLBACK;
		else if (!strcmp(argv[k], "--fp-fallback"))	/* the default */
			flags |= KUNWIND_FP_FALLBACK;
		else
			usage();
	}
	if (!core_path)
		usage();
	x.core = core_open(core_path);
	if (!x.core)
		return 1;
	if (exe && core_set_exe(x.core, exe))
		return 1;
	x.mod = calloc(core_nr_maps(x.core) + 1, sizeof(*x.mod));
	x.map_mod = calloc(core_nr_maps(x.core) + 1, sizeof(*x.map_mod));
	if (!x.mod || !x.map_mod)
		return 1;
	for (i = 0; i < core_nr_maps(x.core); i++)
		x.map_mod[i] = -2;

	for (i = 0; i < core_nr_threads(x.core); i++)
		walk_thread(&x, core_thread(x.core, i), flags);
	if (nbench)
		bench(&x, nbench, flags);

	for (i = 0; i < x.nr_mods; i++) {
		free(x.mod[i].table);
		if (x.mod[i].elf)
			kelf_close(x.mod[i].elf);
	}
	free(x.mod);
	free(x.map_mod);
	core_close(x.core);
	return 0;
}
