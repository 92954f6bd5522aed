/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks of a kernel walk that differ by architecture, given by
 * arch/<arch>.c (x86.c, arm64.c) to kwalk.c, and what those files share
 * with kwalk.c.  Included by those files only: it needs compat.h's
 * (force-included) arch/<arch>.h for kunwind_stack_t.
 */
#ifndef _KUNWIND_LINUX_ARCH_WALK_H
#define _KUNWIND_LINUX_ARCH_WALK_H

#include "../kwalk.h"

/*
 * ---- what a walk needs of the architecture: arch/<arch>.c ----
 *
 * kunwind_arch_stack(): the stack of w's task holding the word at addr,
 * [*lo, *hi), and its type (type may be NULL); kwalk.c has already tried
 * current's task stack.
 *
 * kunwind_arch_task_frame(): where a sleeping task (pinned, not running)
 * stopped: its ip, sp and frame pointer, and whether ip is a return
 * address (called) or exact (a new task's first instruction).
 *
 * kunwind_arch_fallback_step(): where no table row serves, one step of
 * the kernel's own unwinder from w's current frame (x86: ORC, arm64: the
 * frame record at x29), flagged KUNWIND_FRAME_ORC in w->frame_flags.
 */
/* Is the word at addr inside [lo, hi)? */
static __always_inline bool kunwind_word_in(unsigned long addr,
					    unsigned long lo, unsigned long hi)
{
	return addr >= lo && addr < hi && hi - addr >= sizeof(long);
}

enum kunwind_arch_step {
	KUNWIND_ARCH_STEP_FAILED,	/* the walk keeps its stop reason */
	KUNWIND_ARCH_STEP_DONE,
	KUNWIND_ARCH_STEP_END,		/* the kernel's unwinder ends here */
};

/* The stack above the guard page sp overflowed into (kwalk.c). */
bool kunwind_guard_page_stack(struct kunwind_kstate *w, unsigned long sp,
			      unsigned long *lo, unsigned long *hi,
			      kunwind_stack_t *type);

bool kunwind_arch_stack(struct kunwind_kstate *w, unsigned long addr,
			unsigned long *lo, unsigned long *hi,
			kunwind_stack_t *type);
bool kunwind_arch_task_frame(struct task_struct *task, unsigned long *ip,
			     unsigned long *sp, unsigned long *bp, bool *called);
enum kunwind_arch_step kunwind_arch_fallback_step(struct kunwind_kstate *w);
/* dump_stack()'s name of a stack type ("IRQ", ...) */
const char *kunwind_stack_name(kunwind_stack_t type);

#endif /* _KUNWIND_LINUX_ARCH_WALK_H */
