/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What walk_fuzz.c (the harness: input, tables, hooks, checks) and
 * walk_model.c (the second walker: the model of one step) share: the
 * fake machine of one input, and the model's answer for a step.
 */
#ifndef _KUNWIND_WALK_FUZZ_H
#define _KUNWIND_WALK_FUZZ_H

#include "fuzz.h"

#define WALK_FP		0x01	/* KUNWIND_FP_FALLBACK */
#define WALK_RAW	0x02	/* the table is raw bytes from the input */
#define WALK_DEAD_SEG	0x04	/* one segment is dead (freed init text) */
#define WALK_TWO_STACKS	0x08
#define WALK_ESCAPE	0x10	/* synthesized table has escaped rules */
#define WALK_CALLED	0x20	/* KUNWIND_FIRST_CALLED */
#define WALK_DIRECT	0x40	/* no read hook: the walker loads directly */
#define WALK_CACHE	0x80	/* walk again with a lookup cache, twice */

#define HOOK_TEXT_OK	0x01	/* ops->text_ok */
#define HOOK_RET_ADDR	0x02	/* ops->ret_addr */

/* The model keeps acceptable stop reasons in a mask. */
_Static_assert(KUNWIND_STOP_NR <= 32, "stop reasons fit an unsigned int");

struct stack {
	unsigned long lo;
	size_t size;
	uint8_t *mem;
};

struct walk_ctx {
	const struct kunwind_hdr *t;
	const struct kunwind_seg *dead;	/* find_seg() never returns it */
	struct kunwind_ops ops;
	unsigned long bias, text_lo;
	unsigned int mode, hooks;
	unsigned long ok_lo, ok_len;	/* HOOK_TEXT_OK; ok_len 0: segments */
	unsigned long tramp, slot, real;	/* HOOK_RET_ADDR */
	struct stack stk[2];
	unsigned long fault;		/* reads of this word fail */
	unsigned long last_sp[2];	/* the walk's sp when last on stk[i] */
	bool seen[2];
	/* The hooks' calls during one kunwind_next(). */
	unsigned int nr_ret_addr, nr_text_ok;
	unsigned long ret_ip, ret_p, text_ip;
	/*
	 * ret_addr() calls for the trampoline, during a whole walk: a
	 * kernel hook keeps a cursor in the tracer's records, so a walk
	 * must ask about each one once, however it steps.
	 */
	unsigned int nr_tramp;
};

/*
 * What one kunwind_next() must do, from the rule's description in
 * format.h and the hooks' in kunwind.h: the caller's frame, or which stop
 * reasons are acceptable.
 */
struct step {
	unsigned long ip, sp, bp;
	bool exact, fp;
	bool framed;		/* the rule's reads gave a frame */
	/* The ret_addr() call due once the return address is read. */
	bool ret_call;
	unsigned long ret_ip, ret_p;
	unsigned int stops;	/* acceptable stop reasons, 1 << enum */
};

#define STOP(x)	(1U << KUNWIND_STOP_##x)

/* The fake machine, as the model and the hooks see it (walk_model.c). */
const struct stack *stack_of(const struct walk_ctx *c, unsigned long addr,
			     size_t len);
const struct stack *usable_stack(const struct walk_ctx *c,
				 unsigned long addr);
bool ctx_read(const struct walk_ctx *c, unsigned long addr,
	      unsigned long *val);
const struct kunwind_rule *live_rule(const struct walk_ctx *c,
				     unsigned long addr);
bool ctx_text_ok(const struct walk_ctx *c, unsigned long ip);
bool ctx_code_at(const struct walk_ctx *c, unsigned long ip, bool exact);
unsigned long ctx_ret_addr(const struct walk_ctx *c, unsigned long ip,
			   unsigned long addr_p);

/* The model of one kunwind_next() from s (walk_model.c). */
void model_step(const struct walk_ctx *c, const struct kunwind_state *s,
		struct step *m);
/* Stop reasons of a mask, for messages: "'end of stack' or ...". */
const char *stops_str(unsigned int stops);

#endif /* _KUNWIND_WALK_FUZZ_H */
