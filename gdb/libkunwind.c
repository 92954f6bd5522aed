// SPDX-License-Identifier: GPL-2.0
/*
 * libkunwind.so: the one walker (unwind/lookup.c, unwind/walk.c) for a
 * target that is not this process, for the gdb helpers (gdb/kunwind,
 * through ctypes) and any host tool that reads a kernel from outside.
 *
 * The caller copies the target's tables in (kunwind_target_add_table(),
 * checked by the kernel's own kunwind_table_check()), says where each
 * segment runs (kunwind_target_add_seg(): the kernel registry's run-time
 * starts), and supplies three callbacks: read a word of target memory,
 * the bounds and kind of the stack holding an address, and whether an
 * address is text.  A walk is then the kernel's: ip - 1 for return
 * addresses, register frames, stack switches, the IRQ stack's saved sp,
 * end of stack; with no ORC to fall back on, a step no row describes
 * stops the walk ("no unwind row").
 *
 * A host tool that reads a QEMU guest (kunwind-guestprof) keeps the hot
 * path in C: kunwind_target_set_guest() sends the walker's reads to the
 * guest's RAM file (gdb/guestmem.c) instead of the read callback, and
 * kunwind_target_set_stacks() gives the stacks of the next walks as an
 * array instead of the stack callback.
 *
 * Every function returns an error code or a count; nothing here exits,
 * prints or keeps global state.
 */
#include <stdlib.h>
#include <string.h>
#include "../unwind/kunwind.h"
#include "guestmem.h"
#include "libkunwind.h"

typedef int (*kt_read_fn)(unsigned long addr, unsigned long *val);
typedef int (*kt_stack_fn)(unsigned long sp, unsigned long *lo,
			   unsigned long *hi, int *kind);
typedef int (*kt_text_fn)(unsigned long ip);

struct kt_table {
	void *copy;			/* 8-byte aligned */
	unsigned long len;
};

struct kt_seg {
	unsigned long start, end;
	const struct kunwind_hdr *t;
	const struct kunwind_seg *seg;
};

/* A stack of kunwind_target_set_stacks(): [lo, hi) and its kind. */
struct kt_stack {
	unsigned long lo, hi, kind;
};

#define KT_MAX_STACKS	16

struct kunwind_target {
	kt_read_fn read;
	kt_stack_fn stack;
	kt_text_fn text;
	struct kunwind_guest *guest;	/* reads from here when set */
	struct kt_stack stacks[KT_MAX_STACKS];
	unsigned int nr_stacks;		/* the array replaces ->stack when > 0 */
	struct kt_table *tables;
	unsigned int nr_tables;
	struct kt_seg *segs;		/* sorted by start, disjoint */
	unsigned int nr_segs;
	unsigned long lr;		/* the next walk's x30 (arm64), 0: none */
};

struct kunwind_target *kunwind_target_new(kt_read_fn read, kt_stack_fn stack,
					  kt_text_fn text)
{
	struct kunwind_target *t = calloc(1, sizeof(*t));

	if (t) {
		t->read = read;
		t->stack = stack;
		t->text = text;
	}
	return t;
}

void kunwind_target_free(struct kunwind_target *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < t->nr_tables; i++)
		free(t->tables[i].copy);
	free(t->tables);
	free(t->segs);
	free(t);
}

/*
 * A copy of a table, checked.  Returns its handle (>= 0), or minus
 * enum kunwind_bad (kunwind_target_bad_str() says what), or -1000 when out
 * of memory.
 */
int kunwind_target_add_table(struct kunwind_target *t, const void *table,
			     unsigned long len)
{
	struct kt_table *n;
	enum kunwind_bad bad;
	void *copy;

	if (posix_memalign(&copy, 8, len ? len : 8))
		return -1000;
	memcpy(copy, table, len);
	bad = kunwind_table_check_own(copy, len);
	if (bad) {
		free(copy);
		return -(int)bad;
	}
	n = realloc(t->tables, (t->nr_tables + 1) * sizeof(*n));
	if (!n) {
		free(copy);
		return -1000;
	}
	t->tables = n;
	n[t->nr_tables].copy = copy;
	n[t->nr_tables].len = len;
	return t->nr_tables++;
}

const char *kunwind_target_bad_str(int err)
{
	return err == -1000 ? "out of memory" : kunwind_bad_str(-err);
}

/* Segments in the table, or -1 for a bad handle. */
int kunwind_target_nr_segs(struct kunwind_target *t, int table)
{
	if (table < 0 || (unsigned int)table >= t->nr_tables)
		return -1;
	return ((const struct kunwind_hdr *)t->tables[table].copy)->nr_segs;
}

/*
 * Segment seg of the table: its name, its size, its base as the table
 * holds it (link-time for vmlinux's); NULL for a bad one.
 */
const char *kunwind_target_seg_info(struct kunwind_target *t, int table,
				    int seg, unsigned long *size,
				    unsigned long *base)
{
	const struct kunwind_hdr *h;
	const struct kunwind_seg *s;

	if (kunwind_target_nr_segs(t, table) <= seg || seg < 0)
		return NULL;
	h = t->tables[table].copy;
	s = &kunwind_segs(h)[seg];
	*size = s->size;
	*base = s->base;
	return kunwind_seg_name(h, s);
}

/*
 * Segment seg of the table runs at start.  0, or -1 for a bad handle or
 * segment, -2 when it would overlap another, -1000 out of memory.
 */
int kunwind_target_add_seg(struct kunwind_target *t, int table, int seg,
			   unsigned long start)
{
	const struct kunwind_hdr *h;
	struct kt_seg *n;
	unsigned long end;
	unsigned int i;

	if (kunwind_target_nr_segs(t, table) <= seg || seg < 0)
		return -1;
	h = t->tables[table].copy;
	end = start + kunwind_segs(h)[seg].size;
	if (end < start)
		return -1;
	for (i = 0; i < t->nr_segs && t->segs[i].start < start; i++)
		;
	if ((i < t->nr_segs && t->segs[i].start < end) ||
	    (i && t->segs[i - 1].end > start))
		return -2;
	n = realloc(t->segs, (t->nr_segs + 1) * sizeof(*n));
	if (!n)
		return -1000;
	t->segs = n;
	memmove(n + i + 1, n + i, (t->nr_segs - i) * sizeof(*n));
	n[i].start = start;
	n[i].end = end;
	n[i].t = h;
	n[i].seg = &kunwind_segs(h)[seg];
	t->nr_segs++;
	return 0;
}

static const struct kt_seg *find(const struct kunwind_target *t,
				 unsigned long ip)
{
	unsigned int lo = 0, hi = t->nr_segs;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (t->segs[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || ip - t->segs[lo - 1].start >= t->segs[lo - 1].end -
						t->segs[lo - 1].start)
		return NULL;
	return &t->segs[lo - 1];
}

/* Reads of the walks from now on go to guest (NULL: the read callback). */
void kunwind_target_set_guest(struct kunwind_target *t,
			      struct kunwind_guest *guest)
{
	t->guest = guest;
}

/*
 * The stacks of the walks from now on: nr triples (lo, hi, kind) in
 * stacks[]; nr 0 goes back to the stack callback.  -1 if nr is too many.
 */
int kunwind_target_set_stacks(struct kunwind_target *t,
			      const unsigned long *stacks, unsigned int nr)
{
	unsigned int i;

	if (nr > KT_MAX_STACKS)
		return -1;
	for (i = 0; i < nr; i++) {
		t->stacks[i].lo = stacks[3 * i];
		t->stacks[i].hi = stacks[3 * i + 1];
		t->stacks[i].kind = stacks[3 * i + 2];
	}
	t->nr_stacks = nr;
	return 0;
}

/* ---- the walker's ops ------------------------------------------------ */

static const struct kunwind_seg *op_find_seg(void *ctx, unsigned long ip,
					     const struct kunwind_hdr **table,
					     unsigned long *start)
{
	const struct kt_seg *s = find(ctx, ip);

	if (!s)
		return NULL;
	*table = s->t;
	*start = s->start;
	return s->seg;
}

static bool op_read(void *ctx, unsigned long addr, unsigned long *val)
{
	struct kunwind_target *t = ctx;

	if (t->guest)
		return kunwind_guest_read_word(t->guest, addr, val);
	return t->read(addr, val);
}

static int stack_of(struct kunwind_target *t, unsigned long sp,
		    unsigned long *lo, unsigned long *hi, int *kind)
{
	unsigned int i;

	if (!t->nr_stacks)
		return t->stack(sp, lo, hi, kind);
	for (i = 0; i < t->nr_stacks; i++) {
		if (sp >= t->stacks[i].lo && sp < t->stacks[i].hi) {
			*lo = t->stacks[i].lo;
			*hi = t->stacks[i].hi;
			*kind = t->stacks[i].kind;
			return 1;
		}
	}
	return 0;
}

static bool op_stack(void *ctx, unsigned long sp, unsigned long *lo,
		     unsigned long *hi)
{
	int kind;

	return stack_of(ctx, sp, lo, hi, &kind);
}

static bool op_text_ok(void *ctx, unsigned long ip)
{
	struct kunwind_target *t = ctx;

	return t->text && t->text(ip);
}

static const struct kunwind_ops target_ops = {
	.find_seg	= op_find_seg,
	.read		= op_read,
	.stack		= op_stack,
	.text_ok	= op_text_ok,
};

/* As the kernel's irq_stack_return(): sp at the IRQ stack's top word. */
static void stack_top_return(struct kunwind_target *t, struct kunwind_state *s)
{
	unsigned long lo, hi;
	int kind;

	if (s->sp == s->stack_hi - sizeof(long) &&
	    stack_of(t, s->sp, &lo, &hi, &kind) &&
	    kind == KUNWIND_TARGET_STACK_IRQ)
		kunwind_stack_top_return(s);
}

/*
 * The handle of the table whose segment holds addr, or -1: for a frame's
 * lookup address, the table whose row kunwind_next() follows from that
 * frame (it finds the row through op_find_seg(), this same find()).
 */
static int table_at(const struct kunwind_target *t, unsigned long addr)
{
	const struct kt_seg *s = find(t, addr);
	unsigned int i;

	for (i = 0; s && i < t->nr_tables; i++)
		if (t->tables[i].copy == s->t)
			return i;
	return -1;
}

/*
 * Walk from (ip, sp, bp): ip a return address if first_called, else
 * exact.  Up to max frames go to ip[], sp[], flags[] and tables[] (the
 * handle of the table holding the frame's lookup address, whose row the
 * step from that frame to the next followed; -1: none, and no step can
 * leave such a frame, the walker having no fallback); returns how many
 * (the first included), *stop the reason the walk ended (enum
 * kunwind_stop; kunwind_target_stop_str()), KUNWIND_STOP_DEPTH at max.
 */
int kunwind_target_walk(struct kunwind_target *t, unsigned long ip,
			unsigned long sp, unsigned long bp, int first_called,
			unsigned int max, unsigned long *ips,
			unsigned long *sps, unsigned int *flags, int *tables,
			int *stop)
{
	struct kunwind_state s;
	unsigned int n = 0;

	kunwind_start(&s, &target_ops, t, ip, sp, bp, max + 1,
		      first_called ? KUNWIND_FIRST_CALLED : 0);
#ifdef KUNWIND_ARCH_HAS_LR
	kunwind_set_lr(&s, t->lr);
	t->lr = 0;
#endif
	if (!s.stop && ip && !kunwind_code_at(&s, ip, !first_called))
		s.stop = KUNWIND_STOP_BAD_RA;
	if (!s.stop || s.stop == KUNWIND_STOP_BAD_READ) {
		/* The first frame is reported even off a known stack. */
		do {
			if (n == max) {
				s.stop = KUNWIND_STOP_DEPTH;
				break;
			}
			ips[n] = s.ip;
			sps[n] = s.sp;
			flags[n] = s.exact_ip ? KUNWIND_TARGET_FRAME_EXACT : 0;
			tables[n] = table_at(t, kunwind_frame_addr(&s));
			n++;
			if (s.stop)
				break;
			stack_top_return(t, &s);
		} while (kunwind_next(&s));
	}
	*stop = s.stop;
	return n;
}

/*
 * The link register (arm64's x30) of the next walk's first frame, for a
 * walk from a full register set; the walk uses it once.  Nothing on an
 * architecture without one (libkunwind.so for x86-64).
 */
void kunwind_target_set_lr(struct kunwind_target *t, unsigned long lr)
{
	t->lr = lr;
}

const char *kunwind_target_stop_str(int stop)
{
	return kunwind_stop_str(stop);
}

/*
 * The rule describing exactly addr: 1 and its fields, or 0 if no segment
 * holds addr; *seg_start and *table get where it was found.
 */
int kunwind_target_find_rule(struct kunwind_target *t, unsigned long addr,
			     int *type, int *reg, int *cfa_off, int *bp_off,
			     unsigned long *seg_start, int *table)
{
	const struct kt_seg *s = find(t, addr);
	const struct kunwind_rule *r;
	unsigned int i;

	if (!s)
		return 0;
	r = kunwind_seg_rule(s->t, s->seg, addr - s->start);
	*type = r->type;
	*reg = r->reg;
	*cfa_off = r->cfa_off;
	*bp_off = r->bp_off;
	*seg_start = s->start;
	for (i = 0; i < t->nr_tables; i++)
		if (t->tables[i].copy == s->t)
			*table = i;
	return 1;
}
