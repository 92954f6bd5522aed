// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's arm64 part (arch-x86.c is x86-64's): the kernel's own
 * unwinder for the self-check and the "fp" handler is the frame-record
 * walk, stack_trace_save_regs() (not exported: kunwind.ko resolves it,
 * kunwind_sym); arm64 has no retpoline thunks.
 *
 * The frame-record walk reports the interrupted pc, then goes on from the
 * record x29 points at.  In a function that has not saved its own record
 * (a leaf, a prologue, an epilogue) that is the caller's record, so the
 * interrupted function's caller, still in x30, is lost: kunwind's walk has
 * it (its LR rule), one frame more, and the rest is the same.  Such a
 * sample is "gained" (stats selfcheck_gained), not a difference.
 */
#include <linux/string.h>
#include <asm/pointer_auth.h>
#include <asm/ptrace.h>
#include "prof.h"
#include "selfcheck.h"
#include "../unwind/linux/symbols.h"

bool prof_in_thunk(unsigned long ip, bool *entry)
{
	*entry = false;
	return false;
}

/* Complete unless it found nothing: the kernel's walk reports no error. */
bool prof_orc(struct pt_regs *regs, unsigned long *ip, unsigned int *n)
{
	*n = 0;
	if (!kunwind_sym.stack_trace_save_regs)
		return false;
	*n = kunwind_sym.stack_trace_save_regs(regs, ip, PROF_DEPTH, 0);
	return *n > 0;
}

bool prof_oracle_gained(struct pt_regs *regs, const unsigned long *kun,
			unsigned int nk, const unsigned long *orc,
			unsigned int no)
{
	unsigned long lr = ptrauth_strip_kernel_insn_pac(regs->regs[30]);
	unsigned int rest;

	if (no < 1 || nk < 2 || kun[0] != orc[0] || kun[1] != lr)
		return false;
	if (nk == no + 1)
		rest = no - 1;
	else if (nk == PROF_DEPTH && no == PROF_DEPTH)	/* both truncated */
		rest = nk - 2;
	else
		return false;
	return !memcmp(kun + 2, orc + 1, rest * sizeof(*kun));
}
