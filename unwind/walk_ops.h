/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to walk.c: how the walk reaches memory and its caller.  The
 * calls of the walk's ops, and the reads of stack words, each checked to
 * lie on a stack the caller's stack() hook gave.  Freestanding, as
 * walk.c: see env.h.
 */
#ifndef _KUNWIND_WALK_OPS_H
#define _KUNWIND_WALK_OPS_H

#include "kunwind.h"

/*
 * The calls of the walk's ops.  An indirect call is a retpoline in the
 * kernel (a fifth of a profiler sample's walk under QEMU, make bench):
 * there the kernel's own ops (linux/ops.h, which env.h includes) are
 * called directly when they are the walk's, as the kernel's
 * INDIRECT_CALL_1() does; any other ops still go through the pointer.
 */
static __kunwind_walk __always_inline const struct kunwind_seg *
op_find_seg(struct kunwind_state *s, unsigned long ip,
	    const struct kunwind_hdr **table, unsigned long *start)
{
#ifdef KUNWIND_KERNEL_OPS
	if (s->ops == &kunwind_kernel_ops)
		return kunwind_kernel_find_seg(s->ctx, ip, table, start);
#endif
	return s->ops->find_seg(s->ctx, ip, table, start);
}

static __kunwind_walk __always_inline bool
op_read(struct kunwind_state *s, unsigned long addr, unsigned long *val)
{
#ifdef KUNWIND_KERNEL_OPS
	if (s->ops == &kunwind_kernel_ops)
		return kunwind_kernel_read(s->ctx, addr, val);
#endif
	return s->ops->read(s->ctx, addr, val);
}

static __kunwind_walk __always_inline bool
op_stack(struct kunwind_state *s, unsigned long sp, unsigned long *lo,
	 unsigned long *hi)
{
#ifdef KUNWIND_KERNEL_OPS
	if (s->ops == &kunwind_kernel_ops)
		return kunwind_kernel_stack(s->ctx, sp, lo, hi);
#endif
	return s->ops->stack(s->ctx, sp, lo, hi);
}

static __kunwind_walk __always_inline unsigned long
op_ret_addr(struct kunwind_state *s, unsigned long ip, unsigned long addr_p)
{
#ifdef KUNWIND_KERNEL_OPS
	if (s->ops == &kunwind_kernel_ops)
		return kunwind_kernel_ret_addr(s->ctx, ip, addr_p);
#endif
	return s->ops->ret_addr(s->ctx, ip, addr_p);
}

static __kunwind_walk __always_inline bool
op_text_ok(struct kunwind_state *s, unsigned long ip)
{
#ifdef KUNWIND_KERNEL_OPS
	if (s->ops == &kunwind_kernel_ops)
		return kunwind_kernel_text_ok(s->ctx, ip);
#endif
	return s->ops->text_ok(s->ctx, ip);
}

/* A stack the walker can use: at least one word, not wrapping. */
static __kunwind_walk bool stack_of(struct kunwind_state *s, unsigned long addr,
				    unsigned long *lo, unsigned long *hi)
{
	return op_stack(s, addr, lo, hi) && *hi > *lo &&
	       *hi - *lo >= sizeof(long);
}

/*
 * A word on a stack, checked to lie there: through ops->read, or loaded
 * in place when direct (no read op, or KUNWIND_OWN_STACKS: the stacks are
 * the walking context's own).  direct is a constant where the caller knows it, so that no
 * pointer to *val escapes into an indirect call.
 */
static __kunwind_walk __always_inline bool load_word(struct kunwind_state *s,
						     unsigned long addr,
						     unsigned long *val,
						     const bool direct)
{
	if (!direct)
		return op_read(s, addr, val);
	/* Stack words may be misaligned (odd CFA offsets): no UB. */
	__builtin_memcpy(val, (const void *)addr, sizeof(*val));
	return true;
}

/* Words are loaded in place: no read op, or the context's own stacks. */
static __kunwind_walk __always_inline bool direct_reads(const struct kunwind_state *s)
{
	return !s->ops->read || (s->flags & KUNWIND_OWN_STACKS);
}

static __kunwind_walk __always_inline bool load(struct kunwind_state *s,
						unsigned long addr,
						unsigned long *val)
{
	return load_word(s, addr, val, direct_reads(s));
}

static __kunwind_walk bool read_other_stack(struct kunwind_state *s,
					    unsigned long addr,
					    unsigned long *val)
{
	unsigned long lo, hi;

	if (!stack_of(s, addr, &lo, &hi) || addr - lo > hi - lo - sizeof(long))
		return false;
	return load(s, addr, val);
}

/*
 * Every read is of a whole word on a known stack: the current one, whose
 * words start at lo up to lo + last (the common case, checked here
 * without a call), or, unless here_only, another the caller's stack()
 * hook vouches for.  Only then may ops->read, or a direct load
 * (direct_reads()), touch the memory.  lo and last are the walk's
 * stack_lo and stack_last(), passed so that a loop keeps them at hand.
 * below_top (with here_only): and not the top word, for a word whose
 * next must lie on the stack too.
 */
static __kunwind_walk __always_inline bool
stack_word(struct kunwind_state *s, unsigned long lo, unsigned long last,
	   unsigned long addr, unsigned long *val, const bool here_only,
	   const bool below_top, const bool direct)
{
	if (unlikely(below_top ? addr - lo >= last : addr - lo > last))
		return !here_only && read_other_stack(s, addr, val);
	return load_word(s, addr, val, direct);
}

/* The offset of the current stack's top word from its start. */
static __kunwind_walk __always_inline unsigned long
stack_last(const struct kunwind_state *s)
{
	return s->stack_hi - s->stack_lo - sizeof(long);
}

static __kunwind_walk __always_inline bool
read_word(struct kunwind_state *s, unsigned long addr, unsigned long *val)
{
	return stack_word(s, s->stack_lo, stack_last(s), addr, val, false,
			  false, direct_reads(s));
}

#endif /* _KUNWIND_WALK_OPS_H */
