/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The freestanding core's API: table checks, lookup and the walker.
 * Built unchanged in the kernel and on the host (see env.h).
 */
#ifndef _KUNWIND_H
#define _KUNWIND_H

#include "env.h"
#include "format.h"

KUNWIND_STATIC_ASSERT(sizeof(struct kunwind_hdr) == KUNWIND_HDR_SIZE);
KUNWIND_STATIC_ASSERT(sizeof(struct kunwind_seg) == KUNWIND_SEG_SIZE);
KUNWIND_STATIC_ASSERT(sizeof(struct kunwind_rule) == KUNWIND_RULE_SIZE);
KUNWIND_STATIC_ASSERT(sizeof(struct kunwind_hint) == KUNWIND_HINT_SIZE);

/* Why kunwind_table_check() refused a table; 0 is "valid". */
enum kunwind_bad {
	KUNWIND_OK = 0,
	KUNWIND_BAD_SIZE,	/* shorter than its header or its size field */
	KUNWIND_BAD_MAGIC,
	KUNWIND_BAD_VERSION,
	KUNWIND_BAD_LAYOUT,	/* an array lies outside the table or is misaligned */
	KUNWIND_BAD_RULE,	/* a rule with an unknown type or register */
	KUNWIND_BAD_SEGMENT,	/* empty segment or unterminated name */
	KUNWIND_BAD_ORDER,	/* buckets or rows not sorted, or not covering */
	KUNWIND_BAD_NR
};

enum kunwind_bad kunwind_table_check(const void *table, unsigned long len);
const char *kunwind_bad_str(enum kunwind_bad why);

/* Lookup: only on tables kunwind_table_check() accepted. */
const struct kunwind_seg *kunwind_find_seg(const struct kunwind_hdr *t,
					   unsigned long addr);
u32 __kunwind_find(const struct kunwind_hdr *t, const struct kunwind_seg *seg,
		   u32 off);
const struct kunwind_rule *kunwind_find(const struct kunwind_hdr *t,
					unsigned long addr);

static __kunwind_walk inline const struct kunwind_seg *kunwind_segs(const struct kunwind_hdr *t)
{
	return (const struct kunwind_seg *)(t + 1);
}

static __kunwind_walk inline const struct kunwind_rule *kunwind_rules(const struct kunwind_hdr *t)
{
	return (const struct kunwind_rule *)((const u8 *)t + t->rules);
}

static __kunwind_walk inline const char *kunwind_seg_name(const struct kunwind_hdr *t,
					   const struct kunwind_seg *seg)
{
	return (const char *)t + t->strings + seg->name;
}

/*
 * The segment of table t, loaded at bias, holding run-time address addr,
 * and its run-time start: ops->find_seg for a caller with one table.
 */
static __kunwind_walk inline const struct kunwind_seg *
kunwind_table_seg(const struct kunwind_hdr *t, unsigned long bias,
		  unsigned long addr, unsigned long *start)
{
	const struct kunwind_seg *seg = kunwind_find_seg(t, addr - bias);

	if (seg)
		*start = seg->base + bias;
	return seg;
}

/* The rule of offset off in seg (the lookup without the segment scan). */
const struct kunwind_rule *kunwind_seg_rule(const struct kunwind_hdr *t,
					    const struct kunwind_seg *seg,
					    u32 off);

/* Row iteration, for dumps and debugfs: not on the lookup path. */
struct kunwind_row_iter {
	const struct kunwind_hdr *t;
	const struct kunwind_seg *seg;
	u32 row, bucket;
	u32 start, end;		/* [start, end) relative to seg->base */
	u32 rule;		/* index into the rule dictionary */
};

void kunwind_row_iter_init(struct kunwind_row_iter *it,
			   const struct kunwind_hdr *t,
			   const struct kunwind_seg *seg);
bool kunwind_row_next(struct kunwind_row_iter *it);

/* The walker. */
enum kunwind_stop {
	KUNWIND_STOP_NONE = 0,		/* not stopped: the frame is valid */
	KUNWIND_STOP_END,		/* reached the end of the stack: complete */
	KUNWIND_STOP_NO_ROW,		/* no table row describes ip */
	KUNWIND_STOP_BAD_READ,		/* a read left the stacks or faulted */
	KUNWIND_STOP_SP_DIRECTION,	/* sp did not grow on the same stack */
	KUNWIND_STOP_DEPTH,		/* max_depth frames walked */
	KUNWIND_STOP_UNSUPPORTED,	/* a rule the walker cannot follow */
	KUNWIND_STOP_BAD_RA,		/* a return address that is not code */
	KUNWIND_STOP_NR
};

const char *kunwind_stop_str(enum kunwind_stop why);

struct kunwind_ops {
	/*
	 * The segment describing ip, its table, and the run-time address of
	 * the segment's first byte (seg->base plus the load bias or KASLR
	 * offset); NULL if none.
	 */
	const struct kunwind_seg *(*find_seg)(void *ctx, unsigned long ip,
					      const struct kunwind_hdr **table,
					      unsigned long *start);
	/*
	 * Read the word at addr, which the walker has checked to lie on a
	 * known stack; false if it faults.  NULL: the stacks are ordinary
	 * memory of this address space, read directly.
	 */
	bool (*read)(void *ctx, unsigned long addr, unsigned long *val);
	/* Bounds [lo, hi) of the stack holding sp; false if none does. */
	bool (*stack)(void *ctx, unsigned long sp, unsigned long *lo,
		      unsigned long *hi);
	/*
	 * Optional.  The real return address when a tracer replaced the one
	 * read at addr_p by a trampoline (function_graph, kretprobes), ip
	 * itself when it is none; 0 when it is one that cannot be undone.
	 */
	unsigned long (*ret_addr)(void *ctx, unsigned long ip,
				  unsigned long addr_p);
	/*
	 * Optional.  Is ip code a frame can return to or be interrupted at?
	 * If not, the walk stops (KUNWIND_STOP_BAD_RA) before reporting it.
	 * Not asked for an ip in a segment find_seg() gives: a segment must
	 * be text.
	 */
	bool (*text_ok)(void *ctx, unsigned long ip);
};

/*
 * A call of ops->op.  In the kernel, where an indirect call is a
 * retpoline (a fifth of a profiler sample's walk under QEMU, make bench),
 * the kernel's own ops (unwind/linux/stack.c) are called directly when
 * they are the walk's, as the kernel's INDIRECT_CALL_1() does; any other
 * ops still work.
 */
#ifdef __KERNEL__
extern const struct kunwind_ops kunwind_kernel_ops;
const struct kunwind_seg *kunwind_kernel_find_seg(void *ctx, unsigned long ip,
						  const struct kunwind_hdr **table,
						  unsigned long *start);
bool kunwind_kernel_read(void *ctx, unsigned long addr, unsigned long *val);
bool kunwind_kernel_stack(void *ctx, unsigned long sp, unsigned long *lo,
			  unsigned long *hi);
unsigned long kunwind_kernel_ret_addr(void *ctx, unsigned long ip,
				      unsigned long addr_p);
bool kunwind_kernel_text_ok(void *ctx, unsigned long ip);
#define KUNWIND_OP(s, op, ...)						\
	((s)->ops == &kunwind_kernel_ops ? kunwind_kernel_##op(__VA_ARGS__) : \
					   (s)->ops->op(__VA_ARGS__))
#else
#define KUNWIND_OP(s, op, ...)	((s)->ops->op(__VA_ARGS__))
#endif

/* kunwind_start() flags */
#define KUNWIND_FP_FALLBACK	0x1	/* guess with rbp where no row exists */
/* The first ip is a return address (a sleeping task's saved ip). */
#define KUNWIND_FIRST_CALLED	0x2

/*
 * An optional cache of lookups, address -> rule, for callers that walk
 * similar stacks again and again (profilers).  Direct mapped; it caches
 * misses too, so the owner clears it (kunwind_cache_clear()) whenever a
 * table arrives, goes away or moves.  Measured in make bench.
 */
#define KUNWIND_CACHE_SIZE	256

struct kunwind_cache {
	struct {
		unsigned long addr;
		struct kunwind_rule rule;	/* a copy: one load less */
	} e[KUNWIND_CACHE_SIZE];
};

void kunwind_cache_clear(struct kunwind_cache *c);

/* Stacks one walk may cross: x86-64 nests entry, exception, IRQ, task. */
#define KUNWIND_MAX_STACKS	6

struct kunwind_state {
	unsigned long ip, sp, bp;	/* the current frame */
	unsigned long stack_lo, stack_hi;	/* the stack sp is on */
	unsigned long left[KUNWIND_MAX_STACKS];	/* stacks left, by lo */
	unsigned int nr_left;
	const struct kunwind_ops *ops;
	void *ctx;
	struct kunwind_cache *cache;	/* optional: set after kunwind_start() */
	/* The segment of the last lookup: consecutive frames often share it. */
	const struct kunwind_hdr *seg_table;
	const struct kunwind_seg *seg;
	unsigned long seg_lo, seg_len;
	unsigned int depth, max_depth, flags;
	bool exact_ip;		/* ip is not a return address: look it up as is */
	bool unreliable;	/* some frame came from the rbp guess */
	enum kunwind_stop stop;
};

void kunwind_start(struct kunwind_state *s, const struct kunwind_ops *ops,
		   void *ctx, unsigned long ip, unsigned long sp,
		   unsigned long bp, unsigned int max_depth, unsigned int flags);
bool kunwind_next(struct kunwind_state *s);
unsigned int kunwind_trace(struct kunwind_state *s, unsigned long *pc,
			   unsigned int max);
/*
 * Is ip (exact, or a return address) code: a segment's, or as
 * ops->text_ok() says?  Not for ip 0.
 */
bool kunwind_code_at(struct kunwind_state *s, unsigned long ip, bool exact);
enum kunwind_stop kunwind_enter_stack(struct kunwind_state *s, unsigned long sp);
bool kunwind_stack_top_return(struct kunwind_state *s);
enum kunwind_stop kunwind_step_to(struct kunwind_state *s, unsigned long ip,
				  unsigned long sp, unsigned long bp,
				  bool exact);

/*
 * The address whose row describes the current frame.  A return address
 * is looked up at ip - 1: a call to a no-return function can be the last
 * instruction of a function, and then the return address is the first
 * byte of whatever follows, which another FDE (or none) describes;
 * ip - 1 is inside the call.  The first frame and a frame whose ip came
 * from a register or signal frame were interrupted, not called: ip is the
 * next instruction to run and is looked up as is.  The one place of this
 * rule: the kernel's own steps use it too.
 */
static __kunwind_walk inline unsigned long kunwind_frame_addr(const struct kunwind_state *s)
{
	return s->exact_ip ? s->ip : s->ip - 1;
}

static __kunwind_walk inline bool kunwind_done(const struct kunwind_state *s)
{
	return s->stop != KUNWIND_STOP_NONE;
}

#endif /* _KUNWIND_H */
