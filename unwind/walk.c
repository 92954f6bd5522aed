// SPDX-License-Identifier: GPL-2.0
/*
 * The walker: start / next / done over one struct kunwind_state, and
 * kunwind_trace(), the same walk storing ips, ordinary frames in a loop.
 *
 * It knows nothing of where tables or stacks live; the caller's ops say
 * (kernel: the registry and the task/IRQ/exception stacks; host: the
 * mappings of a core file, or the bench's own stack).  Every word it reads
 * is first checked to lie on a stack ops->stack vouched for; then it is
 * read through ops->read, which may fail (a failure ends the walk, it
 * never faults), or loaded in place (walk_ops.h): for a caller with no
 * read op, whose stacks are its own memory, and with KUNWIND_OWN_STACKS,
 * for a walk of the stacks its own context runs on, which cannot go away
 * under it (a kernel walk of current).
 */
#include "kunwind.h"
#include "walk_ops.h"

/* One name for each enum kunwind_stop, in its order. */
static const char *const stop_str[] = {
	[KUNWIND_STOP_NONE]		= "not stopped",
	[KUNWIND_STOP_END]		= "end of stack",
	[KUNWIND_STOP_NO_ROW]		= "no unwind row",
	[KUNWIND_STOP_BAD_READ]		= "stack read failed",
	[KUNWIND_STOP_SP_DIRECTION]	= "sp did not grow",
	[KUNWIND_STOP_DEPTH]		= "depth limit",
	[KUNWIND_STOP_UNSUPPORTED]	= "unsupported rule",
	[KUNWIND_STOP_BAD_RA]		= "bad return address",
};

KUNWIND_STATIC_ASSERT(ARRAY_SIZE(stop_str) == KUNWIND_STOP_NR);

__kunwind_walk const char *kunwind_stop_str(enum kunwind_stop why)
{
	return (unsigned int)why < KUNWIND_STOP_NR ? stop_str[why] : "?";
}

static __kunwind_walk bool stop(struct kunwind_state *s, enum kunwind_stop why)
{
	s->stop = why;
	return false;
}

/*
 * Set the current frame's return address register (arm64's x30), where
 * the architecture has one: known for a frame whose registers the walk
 * was given (kunwind_set_lr()) or a register block restored, 0 otherwise.
 */
static __kunwind_walk __always_inline void set_lr(struct kunwind_state *s,
						  unsigned long lr)
{
#ifdef KUNWIND_ARCH_HAS_LR
	s->lr = lr;
#endif
}

/*
 * The cache slot of an address: its low bits.  Return addresses spread
 * over them (a call ends anywhere in a function), and the slot is on
 * every frame's chain of dependent loads, where a folding hash cost 1 ns
 * a frame of 6.6 (make bench).
 */
static __kunwind_walk __always_inline unsigned int cache_slot(unsigned long addr)
{
	return addr & (KUNWIND_CACHE_SIZE - 1);
}

/*
 * An empty slot i holds the address i ^ 1, whose own slot is i ^ 1, never
 * i: no address, however odd (0, ~0), can hit an empty slot, so the hot
 * path needs no "valid" test.
 */
__kunwind_walk void kunwind_cache_clear(struct kunwind_cache *c)
{
	unsigned int i;

	for (i = 0; i < KUNWIND_CACHE_SIZE; i++) {
		c->e[i].addr = i ^ 1;
		c->e[i].rule.type = KUNWIND_TYPE_NONE;
	}
}

__kunwind_walk void kunwind_start(struct kunwind_state *s,
				  const struct kunwind_ops *ops, void *ctx,
				  unsigned long ip, unsigned long sp,
				  unsigned long bp, unsigned int max_depth,
				  unsigned int flags)
{
	s->ip = ip;
	s->sp = sp;
	s->bp = bp;
	set_lr(s, 0);
	s->ops = ops;
	s->ctx = ctx;
	s->cache = NULL;
	s->seg_table = NULL;
	s->seg = NULL;
	s->seg_lo = 0;
	s->seg_len = 0;
	s->depth = 0;
	s->max_depth = max_depth;
	s->flags = flags;
	/* The first frame was interrupted, not called, unless told so. */
	s->exact_ip = !(flags & KUNWIND_FIRST_CALLED);
	s->unreliable = false;
	s->stop = KUNWIND_STOP_NONE;
	s->nr_left = 0;
	if (!stack_of(s, sp, &s->stack_lo, &s->stack_hi)) {
		s->stack_lo = 0;	/* no stack: nothing was set */
		s->stack_hi = 0;
		s->stop = KUNWIND_STOP_BAD_READ;
	}
}

/*
 * May the walk move to the known stack holding sp, [*lo, *hi)?  A
 * register frame or a stack switch may change stacks (IRQ -> task);
 * walking outwards, a walk never returns to a stack it has left (ORC's
 * visit mask), or two stacks could send it back and forth until the
 * depth limit.
 */
static __kunwind_walk enum kunwind_stop
stack_change(const struct kunwind_state *s, unsigned long sp,
	     unsigned long *lo, unsigned long *hi)
{
	unsigned int i;

	if (!stack_of((struct kunwind_state *)s, sp, lo, hi) ||
	    sp - *lo >= *hi - *lo)
		return KUNWIND_STOP_BAD_READ;
	if (*lo == s->stack_lo)		/* not a change: it would step back */
		return KUNWIND_STOP_SP_DIRECTION;
	for (i = 0; i < s->nr_left; i++)
		if (s->left[i] == *lo)
			return KUNWIND_STOP_SP_DIRECTION;
	if (s->nr_left == KUNWIND_MAX_STACKS)
		return KUNWIND_STOP_DEPTH;
	return KUNWIND_STOP_NONE;
}

static __kunwind_walk void enter(struct kunwind_state *s, unsigned long lo,
				 unsigned long hi)
{
	s->left[s->nr_left++] = s->stack_lo;
	s->stack_lo = lo;
	s->stack_hi = hi;
}

/*
 * Move the walk to the known stack holding sp, if it may (above).  For
 * callers that change stacks themselves (the kernel's IRQ-stack return).
 */
__kunwind_walk enum kunwind_stop kunwind_enter_stack(struct kunwind_state *s,
						     unsigned long sp)
{
	unsigned long lo, hi;
	enum kunwind_stop why = stack_change(s, sp, &lo, &hi);

	if (!why)
		enter(s, lo, hi);
	return why;
}

/*
 * Make the segment holding addr the walk's, if it is not already: false
 * if no segment holds it.  The walk's segment is a cache, not state: it
 * may change whatever the step's outcome.
 */
static __kunwind_walk bool seg_at(struct kunwind_state *s, unsigned long addr)
{
	const struct kunwind_hdr *t;
	const struct kunwind_seg *seg;
	unsigned long start;

	if (addr - s->seg_lo < s->seg_len)
		return true;
	seg = op_find_seg(s, addr, &t, &start);
	/* Another architecture's table is no table for this walker. */
	if (!seg || kunwind_table_arch(t) != KUNWIND_ARCH_ID)
		return false;
	s->seg_table = t;
	s->seg = seg;
	s->seg_lo = start;
	s->seg_len = seg->size;
	return true;
}

/* The rule of addr: the last segment again, or the one ops->find_seg() gives. */
static __kunwind_walk const struct kunwind_rule *
lookup(struct kunwind_state *s, unsigned long addr)
{
	if (!seg_at(s, addr))
		return NULL;
	return kunwind_seg_rule(s->seg_table, s->seg, addr - s->seg_lo);
}

/*
 * May ret_addr() change this return address?  In the kernel, only the
 * tracers' trampolines (kunwind_kernel_trampolines): every other address
 * is taken as it is, without a call.  Elsewhere, whenever there is a hook.
 */
static __kunwind_walk __always_inline bool maybe_trampoline(const struct kunwind_state *s,
							    unsigned long ip)
{
#ifdef KUNWIND_KERNEL_OPS
	if (s->ops == &kunwind_kernel_ops)
		return ip == kunwind_kernel_trampolines[0] ||
		       ip == kunwind_kernel_trampolines[1];
#endif
	return !!s->ops->ret_addr;
}

/*
 * The cache slot of addr, filled from the table on a miss.  The miss path
 * is out of line: with a warm cache a walk never takes it.
 */
static __kunwind_walk noinline const struct kunwind_rule *
cache_fill(struct kunwind_state *s, unsigned long addr, unsigned int i)
{
	const struct kunwind_rule *r = lookup(s, addr);

	/*
	 * Never the lookup address of a trampoline as a return address: a
	 * hit then also says that addr + 1 is none (call_run()).
	 */
	if (unlikely(maybe_trampoline(s, addr + 1)))
		return r;
	/*
	 * Nor a gap: a hit is a row (call_run() tests no type).  A walk
	 * meets few, at its end or where the fallback takes over.
	 */
	if (!r || r->type == KUNWIND_TYPE_NONE)
		return r;
	s->cache->e[i].rule = *r;
	s->cache->e[i].addr = addr;
	return &s->cache->e[i].rule;
}

/* The rule of addr through the walk's cache c (s->cache). */
static __kunwind_walk __always_inline const struct kunwind_rule *
cached_rule(struct kunwind_state *s, struct kunwind_cache *c,
	    unsigned long addr)
{
	unsigned int i = cache_slot(addr);
	const struct kunwind_rule *r = &c->e[i].rule;

	if (unlikely(c->e[i].addr != addr))
		r = cache_fill(s, addr, i);
	return r;
}

/* Does the cache hold a row, not a gap's, for addr?  It holds no gaps. */
static __kunwind_walk __always_inline bool cache_vouches(struct kunwind_cache *c,
							 unsigned long addr)
{
	return c->e[cache_slot(addr)].addr == addr;
}

/*
 * Is ip, exact or a return address, code?  A table's segments are text
 * (the loader, the kernel registry or the host's ELF reader placed them
 * on text), and most ips lie in one, which the next lookup wants anyway:
 * ops->text_ok() is asked only about the others.  Decided at ip's lookup
 * address (ip, or ip - 1): for a return address, that the call ends in a
 * segment (the return address may be one past its end, after a no-return
 * call).  With a cache, a row there (not a gap's) says the same without
 * a segment lookup, so a cache, cold or warm, and none say the same.
 */
static __kunwind_walk __always_inline bool code_at(struct kunwind_state *s,
						   unsigned long ip, bool exact)
{
	unsigned long addr = exact ? ip : ip - 1;

	if (s->cache && cache_vouches(s->cache, addr))
		return true;
	return seg_at(s, addr) || !s->ops->text_ok ||
	       op_text_ok(s, ip);
}

__kunwind_walk bool kunwind_code_at(struct kunwind_state *s, unsigned long ip,
				    bool exact)
{
	return code_at(s, ip, exact);
}

/* The rule for the current frame, at kunwind_frame_addr(). */
static __kunwind_walk __always_inline const struct kunwind_rule *
frame_rule(struct kunwind_state *s)
{
	unsigned long addr = kunwind_frame_addr(s);

	return s->cache ? cached_rule(s, s->cache, addr) : lookup(s, addr);
}

/*
 * The current frame's sp is the top word of a stack that holds the sp of
 * the stack it was entered from (the kernel's IRQ stack: the caller knows
 * which stacks are such), and the frame's rule is an rsp-based call, which
 * knows nothing of the switch: move to that sp, on the stack it names
 * (which the walk must not have left before).  False, and nothing
 * changed, otherwise.
 */
__kunwind_walk bool kunwind_stack_top_return(struct kunwind_state *s)
{
	const struct kunwind_rule *r = frame_rule(s);
	unsigned long prev;

	if (!r || r->type != KUNWIND_TYPE_CALL || r->reg != KUNWIND_REG_SP ||
	    !read_word(s, s->sp, &prev) || kunwind_enter_stack(s, prev))
		return false;
	s->sp = prev;
	return true;
}

/*
 * Is rbp (x29) where a frame pointer may point: above sp on the current
 * stack; on arm64 also on a stack the walk may enter, as
 * call_on_irq_stack()'s record on the task stack is for the frames on
 * the IRQ stack (the kernel's frame-record walk crosses there too).
 * [*lo, *hi): that stack.
 */
static __kunwind_walk bool fp_stack(struct kunwind_state *s, unsigned long *lo,
				    unsigned long *hi)
{
	*lo = s->stack_lo;
	*hi = s->stack_hi;
	if (s->bp - *lo < *hi - *lo)
		return s->bp >= s->sp;
#ifdef KUNWIND_ARCH_HAS_LR
	return !stack_change(s, s->bp, lo, hi);
#else
	return false;
#endif
}

/*
 * Without a row, guess the frame from rbp as a frame pointer: saved rbp at
 * rbp, the return address above it, the caller's sp above that
 * (arch-x86.h).  Right for code built with frame pointers, a guess
 * elsewhere, so the trace is marked unreliable.  rbp may equal sp: a
 * function with a frame pointer and no locals calls with rsp == rbp
 * (push %rbp; mov %rsp,%rbp; call), so its callee returns to sp == rbp,
 * and a frame 0 stopped in its body has them equal too.  The caller's sp
 * is above sp all the same (eu-stack's x86-64 fallback asks that, and no
 * more).  Only if asked (the walk's KUNWIND_FP_FALLBACK, or
 * kunwind_fp_step()); else the walk stops with why.
 */
static __kunwind_walk bool fp_guess(struct kunwind_state *s, unsigned long *ip,
				    unsigned long *sp, unsigned long *bp,
				    bool asked, enum kunwind_stop why)
{
	unsigned long lo, hi;

	if (!asked || !fp_stack(s, &lo, &hi) || s->bp & KUNWIND_FP_ALIGN_MASK)
		return stop(s, why);
	if (!read_word(s, s->bp + KUNWIND_FP_RA_OFF, ip) ||
	    !read_word(s, s->bp, bp))
		return stop(s, KUNWIND_STOP_BAD_READ);
	*ip = kunwind_strip_ra(*ip);
	*sp = s->bp + KUNWIND_FP_CFA_OFF;
#ifdef KUNWIND_ARCH_HAS_LR
	/*
	 * arm64's record is at the bottom of the frame, not at the CFA: the
	 * caller's sp is exact only by its own row.  A function that calls
	 * has pointed x29 at its record (with frame pointers, as the kernel
	 * is built), at its CFA + bp_off, so an sp-based call rule gives the
	 * sp it called with.  Else x29 + 16 is a lower bound, right for a
	 * bp-based rule and for another guess.  A guess either way.
	 */
	if (*ip) {
		const struct kunwind_rule *r = lookup(s, *ip - 1);
		unsigned long exact;

		/* on the record's stack, [lo, hi) (fp_stack()) */
		if (r && r->type == KUNWIND_TYPE_CALL &&
		    r->reg == KUNWIND_REG_SP) {
			exact = *bp - r->bp_off - r->cfa_off;
			if (exact > *sp && exact - lo < hi - lo)
				*sp = exact;
		}
	}
#endif
	s->unreliable = true;
	return true;
}

/*
 * A saved register block at regs, laid out as l says (the arch header's
 * kunwind_regs_layout(): where ip, sp, bp, the mode word (x86: cs, arm64:
 * pstate) and arm64's lr are, -1 if not there).  A kernel register block
 * (one with a mode word) saved in user mode ends the kernel stack, as
 * user_mode() says: by the mode word, not by the value of ip.
 */
static __kunwind_walk bool regs_frame(struct kunwind_state *s, unsigned long regs,
				      const struct kunwind_regs_layout *l,
				      unsigned long *ip, unsigned long *sp,
				      unsigned long *bp, unsigned long *lr)
{
	unsigned long mode;

	if (l->mode >= 0) {
		if (!read_word(s, regs + l->mode, &mode))
			return stop(s, KUNWIND_STOP_BAD_READ);
		if (kunwind_user_mode(mode))
			return stop(s, KUNWIND_STOP_END);
	}
	if (!read_word(s, regs + l->ip, ip) || !read_word(s, regs + l->sp, sp))
		return stop(s, KUNWIND_STOP_BAD_READ);
	if (l->bp >= 0 && !read_word(s, regs + l->bp, bp))
		return stop(s, KUNWIND_STOP_BAD_READ);
#ifdef KUNWIND_ARCH_HAS_LR
	if (!read_word(s, regs + l->lr, lr))
		return stop(s, KUNWIND_STOP_BAD_READ);
#endif
	return true;
}

/*
 * A return address read at addr_p: a tracer may have replaced it by its
 * trampoline (ops->ret_addr undoes that; 0 if it cannot).
 */
static __kunwind_walk __always_inline unsigned long
ret_addr(struct kunwind_state *s, unsigned long ip, unsigned long addr_p)
{
	return maybe_trampoline(s, ip) && s->ops->ret_addr ?
	       op_ret_addr(s, ip, addr_p) : ip;
}

/*
 * Make (ip, sp, bp) the current frame.  The stack grows down, so a
 * caller's sp is above its callee's on the same stack, or on a stack the
 * walk may enter now.  And a frame is reported only if ip is code: never
 * 0 (also the 0 of a trampoline ops->ret_addr could not undo), and in a
 * segment or accepted by ops->text_ok() (code_at()).  Nothing
 * but the segment cache changes unless every check passes.  may_stay:
 * sp may also stay as it is, for arm64's step out of a frame whose
 * return address is still in x30 (a leaf's CFA may be its sp); that
 * step needs an lr, which only a register frame gives again, so it
 * cannot repeat.  The frame's lr becomes unknown.  Also for
 * callers that step frames by other means (the kernel's ORC step).
 */
static __kunwind_walk __always_inline enum kunwind_stop
step_to(struct kunwind_state *s, unsigned long ip, unsigned long sp,
	unsigned long bp, bool exact, bool may_stay)
{
	unsigned long lo = s->stack_lo, hi = s->stack_hi;
	/* sp at the stack's end: still this stack, empty (arch-arm64.h) */
	bool change = sp - lo >= hi - lo && !(KUNWIND_SP_MAY_BE_TOP && sp == hi);
	enum kunwind_stop why;

	if (!change) {
		if (sp < s->sp || (sp == s->sp && !may_stay))
			return KUNWIND_STOP_SP_DIRECTION;
	} else {
		why = stack_change(s, sp, &lo, &hi);
		if (why)
			return why;
	}
	if (!ip || !code_at(s, ip, exact))
		return KUNWIND_STOP_BAD_RA;
	if (change)
		enter(s, lo, hi);
	s->ip = ip;
	s->sp = sp;
	s->bp = bp;
	set_lr(s, 0);
	s->exact_ip = exact;
	s->depth++;
	return KUNWIND_STOP_NONE;
}

__kunwind_walk enum kunwind_stop kunwind_step_to(struct kunwind_state *s,
						 unsigned long ip,
						 unsigned long sp,
						 unsigned long bp, bool exact)
{
	return step_to(s, ip, sp, bp, exact, false);
}

#ifdef KUNWIND_ARCH_HAS_LR
__kunwind_walk bool kunwind_fp_step(struct kunwind_state *s)
{
	enum kunwind_stop was = s->stop, why;
	unsigned long ip, sp, bp;

	s->stop = KUNWIND_STOP_NONE;
	if (fp_guess(s, &ip, &sp, &bp, true, KUNWIND_STOP_NO_ROW)) {
		ip = ret_addr(s, ip, kunwind_ret_key(s->bp + KUNWIND_FP_RA_OFF, bp));
		why = step_to(s, ip, sp, bp, false, false);
		if (!why)
			return true;
	}
	s->stop = was;
	return false;
}

__kunwind_walk bool kunwind_lr_step(struct kunwind_state *s)
{
	unsigned long ip;

	if (!s->exact_ip || !s->lr)
		return false;
	ip = ret_addr(s, kunwind_strip_ra(s->lr), s->bp);
	if (step_to(s, ip, s->sp, s->bp, false, true))
		return false;
	s->stop = KUNWIND_STOP_NONE;
	return true;
}
#endif

/*
 * The CALL step, the algorithm itself, written once for kunwind_next()
 * and call_steps(): the CFA (the caller's sp) is a base register, sp or
 * bp, plus cfa_off; the return address is where the call left it
 * (kunwind_ra_at(): x86, the word the call pushed, just below the CFA;
 * arm64, the word after the saved x29), without a pointer authentication
 * code (kunwind_strip_ra());
 * the caller's bp was saved at CFA + bp_off, or (bp_off 0) is bp itself.
 * Two bases are read from the stack (format.h): a stack switch's, the
 * sp saved at [sp]; a realigned stack's CFA and caller's bp, saved at
 * bp + cfa_off and at bp.
 *
 * ordinary: call_steps()'s frame, an sp- or bp-based rule (the caller
 * checked) on the current stack (lo, last: stack_word()), sp on it
 * (call_steps() checks it once: sp only grows from there), whose words
 * lie where a call frame keeps them: the return address at or above sp
 * and below the stack's top word (so the CFA is above sp and on the
 * stack, step_to()'s check made before the reads), the caller's bp
 * between sp and the return address; false otherwise, and kunwind_next()
 * takes the frame with every check.  Else the words may lie on any known
 * stack.
 *
 * Sets *cfa, the return address as read (ret_addr() is the caller's), and
 * *caller_bp; false if a word could not be read.
 */
static __kunwind_walk __always_inline bool
call_step(struct kunwind_state *s, const struct kunwind_rule *r,
	  unsigned long sp, unsigned long bp, unsigned long lo,
	  unsigned long last, unsigned long *cfa, unsigned long *ra,
	  unsigned long *caller_bp, const bool ordinary, const bool direct)
{
	unsigned long base = r->reg == KUNWIND_REG_BP ? bp : sp;

	*caller_bp = bp;
	if (!ordinary && r->reg == KUNWIND_REG_BP_INDIRECT) {
		if (!stack_word(s, lo, last, bp + r->cfa_off, cfa, false,
				false, direct) ||
		    !stack_word(s, lo, last, bp, caller_bp, false, false,
				direct))
			return false;
	} else {
		if (!ordinary && r->reg == KUNWIND_REG_SP_INDIRECT &&
		    !stack_word(s, lo, last, sp, &base, false, false, direct))
			return false;
		*cfa = base + r->cfa_off;
	}
	if (ordinary) {
		unsigned long ra_at = kunwind_ra_at(r, *cfa), bp_at;

		/*
		 * Two compares a word, no bounds but sp's and the top's.  A
		 * return address of 0 is never a frame, even where a row
		 * covers ~0UL: kunwind_next() stops there.
		 */
		if (ra_at < sp || ra_at >= lo + last ||
		    !load_word(s, ra_at, ra, direct))
			return false;
#ifdef KUNWIND_ARCH_HAS_LR
		/*
		 * arm64's record is below the CFA (lookup.c), so the CFA is
		 * above sp; not, as x86's return address says, on the stack.
		 */
		if (*cfa - lo > last + sizeof(long))
			return false;
#endif
		*ra = kunwind_strip_ra(*ra);
		if (!*ra)
			return false;
		if (!r->bp_off)
			return true;
		bp_at = *cfa + r->bp_off;
		return bp_at >= sp && bp_at <= ra_at &&
		       load_word(s, bp_at, caller_bp, direct);
	}
	if (!stack_word(s, lo, last, kunwind_ra_at(r, *cfa), ra, false, false,
			direct))
		return false;
	*ra = kunwind_strip_ra(*ra);
	return !r->bp_off || stack_word(s, lo, last, *cfa + r->bp_off,
					caller_bp, false, false, direct);
}

__kunwind_walk bool kunwind_next(struct kunwind_state *s)
{
	const struct kunwind_rule *r;
	unsigned long ip, sp, bp = s->bp, base, real, lr = 0;
	enum kunwind_stop why;
	bool exact = false, stay = false;

	if (s->stop)
		return false;
	if (s->depth + 1 >= s->max_depth)
		return stop(s, KUNWIND_STOP_DEPTH);

	r = frame_rule(s);
	base = r && r->reg == KUNWIND_REG_BP ? s->bp : s->sp;
	switch (r ? r->type : KUNWIND_TYPE_NONE) {
	case KUNWIND_TYPE_CALL:
		if (!call_step(s, r, s->sp, s->bp, s->stack_lo, stack_last(s),
			       &sp, &ip, &bp, false, direct_reads(s)))
			return stop(s, KUNWIND_STOP_BAD_READ);
		ip = ret_addr(s, ip, kunwind_ret_key(kunwind_ra_at(r, sp), bp));
		break;
#if KUNWIND_ARCH_ID == KUNWIND_ARCH_ID_X86_64
	case KUNWIND_TYPE_PLT:
		/* The lazy-binding push in a PLT entry moved rsp. */
		sp = kunwind_plt_cfa(r, s->ip, s->sp);
		if (!read_word(s, sp - KUNWIND_RA_CFA_OFF, &ip))
			return stop(s, KUNWIND_STOP_BAD_READ);
		ip = ret_addr(s, ip, sp - KUNWIND_RA_CFA_OFF);
		break;
#endif
	case KUNWIND_TYPE_REGS:
	case KUNWIND_TYPE_IRET:
	case KUNWIND_TYPE_SIGNAL:
		if (!regs_frame(s, base + r->cfa_off, kunwind_regs_layout(r->type),
				&ip, &sp, &bp, &lr))
			return false;
		exact = true;
		break;
	case KUNWIND_TYPE_END:
		return stop(s, KUNWIND_STOP_END);
	case KUNWIND_TYPE_UNSUPPORTED:
		return stop(s, KUNWIND_STOP_UNSUPPORTED);
#ifdef KUNWIND_ARCH_HAS_LR
	case KUNWIND_TYPE_LR:
		/*
		 * The return address is still in x30: known only for an
		 * interrupted frame whose registers the walk was given; a
		 * called frame's x30 was the call's own (even with an lr
		 * given: KUNWIND_FIRST_CALLED).  The caller's sp may equal
		 * this one (a leaf that allocates nothing).
		 */
		if (!s->exact_ip || !s->lr) {
			/*
			 * The guess: x29 is still the caller's, so its record
			 * gives the caller's caller; the caller is lost (as in
			 * arm64's own walk), the walk unreliable.
			 */
			if (!fp_guess(s, &ip, &sp, &bp, s->flags & KUNWIND_FP_FALLBACK,
				      KUNWIND_STOP_UNSUPPORTED))
				return false;
			ip = ret_addr(s, ip, kunwind_ret_key(s->bp + KUNWIND_FP_RA_OFF, bp));
			break;
		}
		sp = base + r->cfa_off;
		if (r->bp_off && !read_word(s, sp + r->bp_off, &bp))
			return stop(s, KUNWIND_STOP_BAD_READ);
		ip = ret_addr(s, kunwind_strip_ra(s->lr), bp);
		stay = true;
		break;
#endif
	default:	/* NONE, UNDEFINED, no table */
		if (!fp_guess(s, &ip, &sp, &bp, s->flags & KUNWIND_FP_FALLBACK,
			      KUNWIND_STOP_NO_ROW))
			return false;
		ip = ret_addr(s, ip, kunwind_ret_key(s->bp + KUNWIND_FP_RA_OFF, bp));
		break;
	}

	/*
	 * Interrupted right after returning to a tracer's trampoline (its
	 * first instruction): the return address it replaced was just below
	 * sp, where the call had pushed it.  Recovered, it is a return
	 * address again: looked up at ip - 1.
	 */
	if (exact) {
		real = ret_addr(s, ip, kunwind_ret_key_returned(sp, bp));
		exact = real == ip;
		ip = real;
	}
	why = step_to(s, ip, sp, bp, exact, stay);
	if (why)
		return stop(s, why);
	set_lr(s, exact ? lr : 0);
	return true;
}

/*
 * The step from the current frame, stored at *pc, whose return address
 * ops->ret_addr() changed: a tracer's trampoline, undone from the
 * tracer's records (the kernel's hook keeps a cursor in them), or 0.  The
 * hook must not be asked twice for one step, so the step is not left to
 * kunwind_next(): it ends here, as kunwind_next() would end it (step_to(),
 * or the walk stops).  Returns the one frame stored.
 */
static __kunwind_walk noinline unsigned int
tracer_step(struct kunwind_state *s, unsigned long *pc, unsigned long ret,
	    unsigned long cfa, unsigned long caller_bp)
{
	enum kunwind_stop why;

	*pc = s->ip;
	why = step_to(s, ret, cfa, caller_bp, false, false);
	if (why)
		stop(s, why);
	return 1;
}

/*
 * A call rule on sp or bp: type and reg as one 16-bit value, tested at
 * once (KUNWIND_REG_SP is KUNWIND_REG_BP | 1).
 */
KUNWIND_STATIC_ASSERT(KUNWIND_REG_SP == (KUNWIND_REG_BP | 1));

static __kunwind_walk __always_inline bool sp_or_bp_call(const struct kunwind_rule *r)
{
	unsigned int kind = r->type | (unsigned int)r->reg << 8;

	return (kind & ~((KUNWIND_REG_SP ^ KUNWIND_REG_BP) << 8)) ==
	       (KUNWIND_TYPE_CALL | KUNWIND_REG_BP << 8);
}

struct call_run {
	unsigned long ip, sp, bp;		/* the current frame */
	const struct kunwind_rule *r;		/* and its rule */
	unsigned long cfa, raw, caller_bp;	/* its step, computed */
	unsigned long *out;			/* where its ip goes */
};

/* How a run ended. */
enum { RUN_STOP, RUN_CALL };

/*
 * Frames of c on, while each is an ordinary call frame and its caller's
 * rule is in the cache (which also says that its return address is no
 * trampoline).  RUN_CALL: the step of c's frame
 * (c->cfa, c->raw, c->caller_bp) needs a call; RUN_STOP: c's frame is
 * not for call_steps().
 */
static __kunwind_walk __always_inline int
call_run(struct kunwind_state *s, struct call_run *c, unsigned long *end,
	 const bool direct)
{
	struct kunwind_cache *cache = s->cache;
	unsigned long ip = c->ip, sp = c->sp, bp = c->bp, *out = c->out;
	unsigned long lo = s->stack_lo, last = stack_last(s);
	unsigned long cfa = 0, raw = 0, caller_bp = 0, addr;
	const struct kunwind_rule *r = c->r;
	int how = RUN_STOP;
	unsigned int i;

	if (!r)
		goto out;
	while (out < end && sp_or_bp_call(r)) {
		if (!call_step(s, r, sp, bp, lo, last, &cfa, &raw, &caller_bp,
			       true, direct))
			break;
		addr = raw - 1;
		i = cache_slot(addr);
		if (unlikely(cache->e[i].addr != addr)) {
			how = RUN_CALL;
			break;
		}
		/*
		 * code_at(raw, false), then the caller's rule: a hit is a row
		 * of raw - 1, which vouches for raw, and says that raw is no
		 * trampoline (cache_fill() caches neither gaps nor those).
		 */
		r = &cache->e[i].rule;
		*out++ = ip;
		ip = raw;
		sp = cfa;
		bp = caller_bp;
	}
out:
	*c = (struct call_run){ .ip = ip, .sp = sp, .bp = bp, .r = r,
				.cfa = cfa, .raw = raw, .caller_bp = caller_bp,
				.out = out };
	return how;
}

static __kunwind_walk noinline int
call_run_direct(struct kunwind_state *s, struct call_run *c, unsigned long *end)
{
	return call_run(s, c, end, true);
}

static __kunwind_walk noinline int
call_run_read(struct kunwind_state *s, struct call_run *c, unsigned long *end)
{
	return call_run(s, c, end, false);
}

/*
 * Ordinary frames, the bulk of every walk, without the round trip of the
 * frame through *s: a call frame whose rule comes from the cache (or the
 * table) and whose caller lies on the same stack.  The lookup of the
 * caller's return address is both its code check (code_at()) and the
 * caller's own rule: one lookup per frame.  Stops short, leaving *s at the
 * first frame it did not step, on anything else: kunwind_next() takes
 * that frame, with every check.  direct: no ops->read, so the words are
 * loaded in place (a constant, so that the compiler builds two loops).
 *
 * The frames whose caller's rule is in the cache and whose return
 * address is no trampoline go in runs (call_run()), which call nothing
 * but ops->read (none with direct loads), so that the walk's dozen live
 * values stay in registers; the frame that needs a call (a lookup, a
 * cache fill, a trampoline undone) ends a run, is stepped here, and the
 * next run goes on from its caller.
 */
static __kunwind_walk __always_inline unsigned int
call_steps(struct kunwind_state *s, unsigned long *pc, unsigned int max,
	   const bool direct)
{
	struct kunwind_cache *cache = s->cache;
	struct call_run c = { .ip = s->ip, .sp = s->sp, .bp = s->bp, .out = pc };
	unsigned long lo = s->stack_lo, last = stack_last(s), ret = 0;
	unsigned long *end;
	bool tracer = false;
	unsigned int n;

	/* kunwind_next() stops at depth max_depth - 1 (max_depth may be 0) */
	if (s->depth + 1 >= s->max_depth)
		return 0;
	if (max > s->max_depth - s->depth - 1)
		max = s->max_depth - s->depth - 1;
	/* sp on its stack, as call_step() assumes; kunwind_next() else */
	if (s->sp < lo || s->sp - lo > last)
		return 0;
	end = pc + max;
	c.r = frame_rule(s);
	for (;;) {
		if (cache) {
			if ((direct ? call_run_direct(s, &c, end) :
				      call_run_read(s, &c, end)) != RUN_CALL)
				break;
		} else {
			/* One frame, as a run would take it up to its call. */
			if (c.out == end || !c.r || !sp_or_bp_call(c.r) ||
			    !call_step(s, c.r, c.sp, c.bp, lo, last, &c.cfa, &c.raw,
				       &c.caller_bp, true, direct))
				break;
		}
		ret = ret_addr(s, c.raw,
			       kunwind_ret_key(kunwind_ra_at(c.r, c.cfa),
					       c.caller_bp));
		if (unlikely(ret != c.raw)) {
			tracer = true;
			break;
		}
		c.r = cache ? cached_rule(s, cache, ret - 1) : lookup(s, ret - 1);
		if (!c.r || c.r->type == KUNWIND_TYPE_NONE)
			break;
		*c.out++ = c.ip;
		c.ip = ret;
		c.sp = c.cfa;
		c.bp = c.caller_bp;
	}
	n = c.out - pc;
	if (n) {
		s->ip = c.ip;
		s->sp = c.sp;
		s->bp = c.bp;
		set_lr(s, 0);
		s->exact_ip = false;
		s->depth += n;
	}
	if (unlikely(tracer))
		n += tracer_step(s, c.out, ret, c.cfa, c.caller_bp);
	return n;
}

/* kunwind.h says what it does. */
__kunwind_walk unsigned int kunwind_trace_calls(struct kunwind_state *s,
						unsigned long *pc,
						unsigned int max)
{
	if (s->stop || !max)
		return 0;
	if (!direct_reads(s))
		return call_steps(s, pc, max, false);
	return call_steps(s, pc, max, true);
}

/*
 * The same ips and final state as
 *
 *	while (n < max && !kunwind_done(s)) {
 *		pc[n++] = s->ip;
 *		kunwind_next(s);
 *	}
 *
 * (fuzz/walk_fuzz.c checks it), ordinary frames in call_steps().
 */
__kunwind_walk unsigned int kunwind_trace(struct kunwind_state *s,
					  unsigned long *pc, unsigned int max)
{
	unsigned int n = 0;

	while (n < max && !s->stop) {
		n += kunwind_trace_calls(s, pc + n, max - n);
		if (n < max && !s->stop) {
			pc[n++] = s->ip;
			kunwind_next(s);
		}
	}
	return n;
}
