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
 * it (its LR rule), one frame more, and the rest is the same; so at every
 * interrupted frame of the sample (an exception under the interrupt).
 * Such a sample is "gained" (stats selfcheck_gained), not a difference.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/pointer_auth.h>
#include <asm/ptrace.h>
#include "prof.h"
#include "selfcheck.h"
#include "../unwind/linux/symbols.h"
#include "../unwind/linux/arch/arm64_calls.h"

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

/* kun without the frames of skip (a bit a frame) is orc. */
static bool same_but(const unsigned long *kun, unsigned int nk, u64 skip,
		     const unsigned long *orc, unsigned int no)
{
	unsigned int i, j = 0;

	for (i = 0; i < nk; i++) {
		if (skip & (1ULL << i))
			continue;
		if (j == no || kun[i] != orc[j])
			return false;
		j++;
	}
	return j == no;
}

/*
 * The frame-record walk loses a caller right after an interrupted frame
 * (kunwind's frames flagged KUNWIND_FRAME_REGS: the sample's own, and
 * any exception or interrupt a pt_regs on the stack gives).  Is kunwind's
 * walk the kernel's with such frames, one after each, left out?  Each
 * subset of those frames is tried (a recursion makes a greedy match
 * ambiguous); each such frame must be the return address of a call into
 * the interrupted function (kunwind_called_into(), arch/arm64_calls.h),
 * and for the sample's own registers their x30.  Both truncated at
 * PROF_DEPTH: the kernel's last frames are the ones kunwind had no room
 * for.
 */
bool prof_oracle_gained(struct pt_regs *regs, const struct prof_sample *s,
			const unsigned long *orc, unsigned int no)
{
	unsigned long lr = ptrauth_strip_kernel_insn_pac(regs->regs[30]);
	const unsigned long *kun = s->ip;
	unsigned int nk = s->key.depth, i, nc = 0, pos[6];
	u64 mask, skip;

	/*
	 * The frames that may be left out, each checked once: after a
	 * REGS frame, a call into it, and at 1 the registers' x30.
	 */
	for (i = 1; i < nk && nc < ARRAY_SIZE(pos); i++)
		if ((s->key.regs & (1ULL << (i - 1))) && (i != 1 || kun[1] == lr) &&
		    kunwind_called_into(kun[i], kun[i - 1]) >= 0)
			pos[nc++] = i;
	for (mask = 1; mask < (1ULL << nc); mask++) {
		unsigned int n = 0, k;

		for (skip = 0, k = 0; k < nc; k++)
			if (mask & (1ULL << k)) {
				skip |= 1ULL << pos[k];
				n++;
			}
		if (same_but(kun, nk, skip, orc, no) ||
		    (nk == PROF_DEPTH && no == PROF_DEPTH &&
		     same_but(kun, nk, skip, orc, nk - n)))
			return true;
	}
	return false;
}
