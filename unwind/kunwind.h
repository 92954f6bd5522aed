/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The freestanding core's API: table checks, lookup and the walker.
 * Built unchanged in the kernel and on the host (see env.h).
 */
#ifndef _KUNWIND_H
#define _KUNWIND_H

#include "env.h"
#include "format.h"
/*
 * One architecture a build: the compiler's, or the one a host build of
 * tools for another machine's tables names (-DKUNWIND_TARGET_ARM64).
 */
#if defined(KUNWIND_TARGET_ARM64) || \
	(defined(__aarch64__) && !defined(KUNWIND_TARGET_X86_64))
#include "arch-arm64.h"
#else
#include "arch-x86.h"
#endif

KUNWIND_STATIC_ASSERT(sizeof(struct kunwind_hdr) == KUNWIND_HDR_SIZE);
KUNWIND_STATIC_ASSERT(sizeof(struct kunwind_seg) == KUNWIND_SEG_SIZE);
KUNWIND_STATIC_ASSERT(sizeof(struct kunwind_rule) == KUNWIND_RULE_SIZE);
KUNWIND_STATIC_ASSERT(sizeof(struct kunwind_esc) == KUNWIND_ESC_SIZE);
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
	KUNWIND_BAD_ESCAPE,	/* escaped rows and escape list do not match */
	KUNWIND_BAD_ARCH,	/* an unknown architecture, or unknown flags */
	KUNWIND_BAD_NR
};

/**
 * kunwind_table_check() - prove a table safe to look up in
 * @table: the table, 8-byte aligned
 * @len: bytes readable at @table (the table's own size field may be less)
 *
 * Checks the header (an architecture kunwind knows), that every array
 * lies inside the table and is aligned, every rule (by the table's
 * architecture), that each segment's rows are sorted, cover it from
 * offset 0 and name rules that exist, and that its escape list holds one
 * entry for each escaped row, in row order, so that the lookups below
 * need no bounds checks.
 *
 * Context: Any; reads the table only, in time linear in its size: run it
 * once, when the table arrives, not on a walk.
 * Return: KUNWIND_OK, or the first reason found to refuse the table.
 */
enum kunwind_bad kunwind_table_check(const void *table, unsigned long len);

/**
 * kunwind_table_arch() - the architecture a table describes
 * @t: a table kunwind_table_check() accepted
 *
 * A table is checked, dumped and looked up alike whatever its
 * architecture; it is walked only by a walker built for it (kunwind.h
 * includes one arch header), which takes no segment of another
 * architecture's table (walk.c): a host tool walking another machine's
 * stacks is a build of the core for that machine.
 *
 * Return: KUNWIND_ARCH_ID_X86_64 or KUNWIND_ARCH_ID_ARM64.
 */
static __kunwind_walk inline unsigned int kunwind_table_arch(const struct kunwind_hdr *t)
{
	return t->flags & KUNWIND_FLAG_ARCH_MASK;
}

/**
 * kunwind_table_check_own() - kunwind_table_check() for this build's walker
 * @table: the table, 8-byte aligned
 * @len: bytes readable at @table
 *
 * What a registry of tables to walk asks: a valid table of the
 * architecture this walker is built for (KUNWIND_BAD_ARCH otherwise).
 *
 * Context: as kunwind_table_check().
 * Return: KUNWIND_OK, or the first reason found to refuse the table.
 */
static inline enum kunwind_bad kunwind_table_check_own(const void *table,
						       unsigned long len)
{
	enum kunwind_bad bad = kunwind_table_check(table, len);

	if (!bad && kunwind_table_arch(table) != KUNWIND_ARCH_ID)
		bad = KUNWIND_BAD_ARCH;
	return bad;
}

/**
 * kunwind_bad_str() - name a reason for refusing a table
 * @why: what kunwind_table_check() returned
 *
 * Return: a constant string ("valid" for KUNWIND_OK), "?" if @why is out
 * of range.
 */
const char *kunwind_bad_str(enum kunwind_bad why);

/*
 * Lookup: only on tables kunwind_table_check() accepted.  No locks, no
 * allocation, no bounds checks: any context, NMI included.
 */

/**
 * kunwind_seg_at() - the segment of a table holding an address
 * @t: a checked table
 * @addr: an address in the table's own terms: relocated where the loader
 *        relocated the segment bases (modules), else link-time (subtract
 *        the load bias or KASLR offset first, see kunwind_table_seg())
 *
 * A scan: a table has one segment per text section, a handful.
 *
 * Context: Any, NMI included.
 * Return: the segment whose [base, base + size) holds @addr, or NULL.
 */
const struct kunwind_seg *kunwind_seg_at(const struct kunwind_hdr *t,
					 unsigned long addr);

/**
 * kunwind_seg_row() - the pure search: the row describing an offset
 * @t: a checked table
 * @seg: one of @t's segments
 * @off: offset from @seg's base, below its size (not checked)
 *
 * A binary search among the rows of @off's bucket; if none starts at or
 * before @off, the row before them.
 *
 * Context: Any, NMI included.
 * Return: the index of the row in @seg's rows; always a valid row, since
 * row 0 starts at offset 0 (checked).
 */
u32 kunwind_seg_row(const struct kunwind_hdr *t, const struct kunwind_seg *seg,
		    u32 off);

/**
 * kunwind_table_rule() - the rule of an address: segment, then row
 * @t: a checked table
 * @addr: as for kunwind_seg_at()
 *
 * Context: Any, NMI included.
 * Return: the rule, in @t's rule dictionary; KUNWIND_TYPE_NONE in a gap
 * between functions; NULL if no segment holds @addr.
 */
const struct kunwind_rule *kunwind_table_rule(const struct kunwind_hdr *t,
					      unsigned long addr);

/**
 * kunwind_segs() - a table's segment array
 * @t: a checked table
 *
 * Return: @t's nr_segs segments, right after its header.
 */
static __kunwind_walk inline const struct kunwind_seg *kunwind_segs(const struct kunwind_hdr *t)
{
	return (const struct kunwind_seg *)(t + 1);
}

/**
 * kunwind_rules() - a table's rule dictionary
 * @t: a checked table
 *
 * Return: @t's nr_rules rules; rule 0 is KUNWIND_TYPE_NONE.
 */
static __kunwind_walk inline const struct kunwind_rule *kunwind_rules(const struct kunwind_hdr *t)
{
	return (const struct kunwind_rule *)((const u8 *)t + t->rules);
}

/**
 * kunwind_seg_name() - a segment's section name
 * @t: a checked table
 * @seg: one of @t's segments
 *
 * Return: the NUL-terminated name (".text", ".init.text", ...) in @t's
 * string table.
 */
static __kunwind_walk inline const char *
kunwind_seg_name(const struct kunwind_hdr *t, const struct kunwind_seg *seg)
{
	return (const char *)t + t->strings + seg->name;
}

/**
 * kunwind_table_seg() - ops->find_seg() for a caller with one table
 * @t: a checked table, its segment bases link-time addresses
 * @bias: what was added to them at load (load bias, KASLR offset)
 * @addr: a run-time address
 * @start: set to the segment's run-time start if one holds @addr
 *
 * Context: Any, NMI included.
 * Return: the segment of @t holding @addr, or NULL.
 */
static __kunwind_walk inline const struct kunwind_seg *
kunwind_table_seg(const struct kunwind_hdr *t, unsigned long bias,
		  unsigned long addr, unsigned long *start)
{
	const struct kunwind_seg *seg = kunwind_seg_at(t, addr - bias);

	if (seg)
		*start = seg->base + bias;
	return seg;
}

/**
 * kunwind_seg_rule() - the rule of an offset in a known segment
 * @t: a checked table
 * @seg: one of @t's segments
 * @off: offset from @seg's base, below its size (not checked)
 *
 * kunwind_table_rule() without the segment scan, for a walker that keeps the
 * segment of its last lookup.
 *
 * Context: Any, NMI included.
 * Return: the rule of the row kunwind_seg_row() gives; never NULL.
 */
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

/**
 * kunwind_row_iter_init() - start iterating over a segment's rows
 * @it: the iterator
 * @t: a checked table
 * @seg: one of @t's segments
 */
void kunwind_row_iter_init(struct kunwind_row_iter *it,
			   const struct kunwind_hdr *t,
			   const struct kunwind_seg *seg);

/**
 * kunwind_row_next() - step to the next row
 * @it: an iterator kunwind_row_iter_init() started
 *
 * Return: true with @it->start, @it->end and @it->rule set to the row's
 * range (it ends where the next row starts, the last one at the
 * segment's size) and rule index; false after the last row.
 */
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

/**
 * kunwind_stop_str() - name a stop reason
 * @why: a walk's stop reason
 *
 * Context: Any, NMI included.
 * Return: a constant string ("end of stack", "bad return address", ...),
 * "?" if @why is out of range.
 */
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
	 * Asked once per step about a trampoline (a hook may keep a cursor
	 * in the tracer's records); about any other ip it may be asked
	 * twice, and must then have no side effect.
	 */
	unsigned long (*ret_addr)(void *ctx, unsigned long ip,
				  unsigned long addr_p);
	/*
	 * Optional.  Is ip code a frame can return to or be interrupted at?
	 * If not, the walk stops (KUNWIND_STOP_BAD_RA) before reporting it.
	 * Not asked for an ip whose lookup address (ip, or ip - 1 for a
	 * return address) is in a segment find_seg() gives: a segment must
	 * be text.
	 */
	bool (*text_ok)(void *ctx, unsigned long ip);
};

/* kunwind_start() flags */
#define KUNWIND_FP_FALLBACK	0x1	/* guess with rbp where no row exists */
/* The first ip is a return address (a sleeping task's saved ip). */
#define KUNWIND_FIRST_CALLED	0x2
/*
 * The stacks are the walking context's own (a kernel walk of current):
 * they cannot go away under the walk, so their words, each checked to
 * lie on a stack ops->stack() gave, are loaded in place, not through
 * ops->read, as with no read op at all.
 */
#define KUNWIND_OWN_STACKS	0x4

/*
 * An optional cache of lookups, address -> rule, for callers that walk
 * similar stacks again and again: a kernel walk takes its CPU's and
 * context's if no other walk holds it (unwind/linux/kwalk.c; the
 * profiler's samples too), make bench's warm walks one.  Direct
 * mapped, indexed by the address's low bits; the owner clears it
 * (kunwind_cache_clear()) whenever a table arrives, goes away or moves.
 * It holds rows only, no misses or gaps.  One cache serves walks of one
 * kunwind_ops: a hit for ip - 1 also says that ip is code and no
 * trampoline of its ret_addr hook (walk.c never caches those).  256
 * entries of 16 bytes: 4 KiB, L1-resident next to the stack walked; a 70-frame stack of 3
 * functions hits it on every frame once warm (make bench).
 */
#define KUNWIND_CACHE_SIZE	256

struct kunwind_cache {
	struct {
		unsigned long addr;
		struct kunwind_rule rule;	/* a copy: one load less */
	} e[KUNWIND_CACHE_SIZE];
};

/**
 * kunwind_cache_clear() - empty a lookup cache
 * @c: the cache; no walk may be using it
 *
 * An empty slot holds an address that cannot map to it, so that a lookup
 * needs no "valid" test.
 *
 * Context: Any, NMI included.
 */
void kunwind_cache_clear(struct kunwind_cache *c);

struct kunwind_state {
	unsigned long ip, sp, bp;	/* the current frame */
#ifdef KUNWIND_ARCH_HAS_LR
	unsigned long lr;	/* its return address register; 0: unknown */
#endif
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

/**
 * kunwind_start() - start a walk at a frame
 * @s: the walk's state, all of it set here
 * @ops: where tables and stacks are, how memory is read
 * @ctx: passed to every @ops call
 * @ip: the first frame's ip: interrupted (exact), or a return address
 *      with KUNWIND_FIRST_CALLED
 * @sp: its stack pointer, which must lie on a stack @ops->stack() knows
 * @bp: its rbp
 * @max_depth: the most frames the walk may have, the first included
 * @flags: KUNWIND_FP_FALLBACK, KUNWIND_FIRST_CALLED, KUNWIND_OWN_STACKS
 *
 * The first frame is (@ip, @sp, @bp) as given: whether @ip is code is the
 * caller's to check (kunwind_code_at()).  If no known stack holds @sp,
 * the walk is stopped at once (KUNWIND_STOP_BAD_READ).  No cache: set
 * @s->cache after.
 *
 * Context: Any, NMI included, as @ops allow.
 */
void kunwind_start(struct kunwind_state *s, const struct kunwind_ops *ops,
		   void *ctx, unsigned long ip, unsigned long sp,
		   unsigned long bp, unsigned int max_depth, unsigned int flags);

#ifdef KUNWIND_ARCH_HAS_LR
/**
 * kunwind_set_lr() - give a started walk its first frame's link register
 * @s: a walk kunwind_start() just started
 * @lr: x30 as the frame's registers hold it (signed or not)
 *
 * For a walk from a full register set (an exception's pt_regs, a
 * debugger's stop): a frame whose return address is still in x30 (a
 * leaf, a prologue before the frame record is saved) needs it.  Without
 * it, such a first frame ends the walk (or the frame-record guess takes
 * it, unreliable).
 */
static inline void kunwind_set_lr(struct kunwind_state *s, unsigned long lr)
{
	s->lr = lr;
}
#endif

/**
 * kunwind_next() - step to the caller's frame
 * @s: a started walk
 *
 * Looks the current frame up at kunwind_frame_addr() and follows its
 * rule; where there is none (no segment, a NONE or UNDEFINED row),
 * guesses from rbp if KUNWIND_FP_FALLBACK (and marks the walk
 * unreliable).  The caller's frame must be above on the same
 * stack, or on a stack the walk may enter, and its ip code.
 *
 * Context: Any, NMI included, as @s's ops allow.
 * Return: true with the caller's frame in @s->ip, @s->sp and @s->bp;
 * false once the walk is done, with the reason in @s->stop.
 */
bool kunwind_next(struct kunwind_state *s);

/**
 * kunwind_trace() - walk on, storing the ip of every frame
 * @s: a started walk
 * @pc: where the ips go, the current frame's first
 * @max: room in @pc
 *
 * The ips and the final state of kunwind_next() in a loop (see walk.c),
 * only faster: ordinary call frames take one lookup each.
 *
 * Context: Any, NMI included, as @s's ops allow.
 * Return: the number of ips stored.
 */
unsigned int kunwind_trace(struct kunwind_state *s, unsigned long *pc,
			   unsigned int max);

/**
 * kunwind_trace_calls() - walk on over ordinary frames, storing their ips
 * @s: a started walk
 * @pc: where the ips go, the current frame's first
 * @max: room in @pc
 *
 * kunwind_trace() without kunwind_next(): it stops, leaving the walk not
 * stopped, at the first frame that is not an ordinary call frame on the
 * current stack with a row (a register frame, a stack switch, a gap, an
 * ip outside the segments), that frame current and not stored: for the
 * caller's own kunwind_next() or fallback (the kernel's ORC step).  A
 * step through a tracer's trampoline is the exception: @s->ops->ret_addr
 * is asked once per step, so that step ends there, and may stop the walk
 * as kunwind_next() would.
 *
 * Context: Any, NMI included, as @s's ops allow.
 * Return: the number of ips stored.
 */
unsigned int kunwind_trace_calls(struct kunwind_state *s, unsigned long *pc,
				 unsigned int max);

/**
 * kunwind_code_at() - is an ip code a frame can be at?
 * @s: a started walk
 * @ip: the ip, not 0
 * @exact: @ip was interrupted; else it is a return address (looked up at
 *         @ip - 1)
 *
 * An ip whose lookup address (@ip, or @ip - 1) is in one of the tables'
 * segments is code (a segment is text); a row (not a gap's) in @s's
 * cache for that address says so too; of others, @s->ops->text_ok()
 * decides (none: every ip is code).
 *
 * Context: Any, NMI included, as @s's ops allow.
 * Return: true if @ip is code.
 */
bool kunwind_code_at(struct kunwind_state *s, unsigned long ip, bool exact);

/**
 * kunwind_enter_stack() - move the walk to the stack holding an sp
 * @s: a started walk
 * @sp: an address on the stack to enter
 *
 * For callers that change stacks themselves (the kernel's IRQ-stack
 * return).  A walk never goes back to a stack it has left.
 *
 * Context: Any, NMI included, as @s's ops allow.
 * Return: KUNWIND_STOP_NONE if the walk is now on @sp's stack;
 * KUNWIND_STOP_BAD_READ if no known stack holds @sp,
 * KUNWIND_STOP_SP_DIRECTION if it is the current stack or one left,
 * KUNWIND_STOP_DEPTH after KUNWIND_MAX_STACKS stacks.  @s->stop is not
 * set.
 */
enum kunwind_stop kunwind_enter_stack(struct kunwind_state *s, unsigned long sp);

/**
 * kunwind_stack_top_return() - leave a stack through its top word
 * @s: a started walk whose sp is the top word of a stack that holds the
 *     sp it was entered from (the caller knows which stacks are such:
 *     the kernel's IRQ stack)
 *
 * For a frame whose rule is an rsp-based call, which knows nothing of
 * the switch: sp becomes the saved word, on the stack it names.
 *
 * Context: Any, NMI included, as @s's ops allow.
 * Return: true if the walk moved there; false, nothing changed, if the
 * rule is another, the word cannot be read or its stack not entered.
 */
bool kunwind_stack_top_return(struct kunwind_state *s);

/**
 * kunwind_step_to() - make a frame found by other means the current one
 * @s: a started walk
 * @ip: the frame's ip
 * @sp: its stack pointer
 * @bp: its rbp
 * @exact: @ip was interrupted (a register frame), not returned to
 *
 * The checks of kunwind_next()'s own steps, for callers that step a frame
 * themselves (the kernel's ORC fallback): @sp above the current sp on the
 * same stack, or on a stack the walk may enter; @ip not 0 and code
 * (kunwind_code_at()).
 *
 * Context: Any, NMI included, as @s's ops allow.
 * Return: KUNWIND_STOP_NONE with the frame current and the depth one
 * more; else the reason it was refused, with nothing changed but the
 * walk's segment cache, and @s->stop not set.
 */
enum kunwind_stop kunwind_step_to(struct kunwind_state *s, unsigned long ip,
				  unsigned long sp, unsigned long bp,
				  bool exact);

#ifdef KUNWIND_ARCH_HAS_LR
/**
 * kunwind_fp_step() - step by the frame record at the frame pointer
 * @s: a started walk
 *
 * The guess kunwind_next() takes where no row is with
 * KUNWIND_FP_FALLBACK, taken once by a caller that falls back itself
 * (kunwind.ko on arm64, as the kernel's own unwinder steps): the return
 * address after the record at x29, the caller's x29 in it, the caller's
 * sp from the caller's row or x29 + 16.  It marks the walk unreliable.
 *
 * Context: Any, NMI included, as @s's ops allow.
 * Return: true with the frame current; false with @s->stop as it was.
 */
bool kunwind_fp_step(struct kunwind_state *s);

/**
 * kunwind_lr_step() - step by x30, as at a function's first instruction
 * @s: a started walk whose current frame is exact, with its lr
 *
 * For an interrupted ip that no code is at: a call through a NULL
 * function pointer faults at ip 0 with nothing moved, the return address
 * in x30, sp and x29 the caller's (an LR sp+0 row's step, the kernel's
 * ORC null entry on x86).  The frame is a called one.
 *
 * Context: Any, NMI included, as @s's ops allow.
 * Return: true with the caller's frame current; false, nothing changed,
 * without an lr or if the step is refused.
 */
bool kunwind_lr_step(struct kunwind_state *s);
#endif

/**
 * kunwind_frame_addr() - the address whose row describes the current frame
 * @s: a started walk
 *
 * A return address
 * is looked up at ip - 1: a call to a no-return function can be the last
 * instruction of a function, and then the return address is the first
 * byte of whatever follows, which another FDE (or none) describes;
 * ip - 1 is inside the call.  The first frame and a frame whose ip came
 * from a register or signal frame were interrupted, not called: ip is the
 * next instruction to run and is looked up as is.  The one place of this
 * rule: the kernel's own steps use it too.
 *
 * Return: @s->ip if it is exact, else @s->ip - 1.
 */
static __kunwind_walk inline unsigned long kunwind_frame_addr(const struct kunwind_state *s)
{
	return s->exact_ip ? s->ip : s->ip - 1;
}

/**
 * kunwind_done() - has the walk stopped?
 * @s: a started walk
 *
 * Return: true once @s->stop says why the walk ended; the current frame
 * is then the last one.
 */
static __kunwind_walk inline bool kunwind_done(const struct kunwind_state *s)
{
	return s->stop != KUNWIND_STOP_NONE;
}

#endif /* _KUNWIND_H */
