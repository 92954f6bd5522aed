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
 * the interrupted function (called_into()), and for the sample's own
 * registers their x30.  Both truncated at PROF_DEPTH: the kernel's last frames are the
 * ones kunwind had no room for.
 */
/*
 * Where a module's PLT entry at addr branches (adrp x16; add x16, x16;
 * br x16: arm64's struct plt_entry, for calls out of bl's range, into
 * the kernel); addr itself if it is none.
 */
static unsigned long plt_target(unsigned long addr)
{
	u32 e[3];
	s64 page;

	if (copy_from_kernel_nofault(e, (void *)addr, sizeof(e)) ||
	    (e[0] & 0x9f00001fu) != 0x90000010u ||	/* adrp x16 */
	    (e[1] & 0xffc003ffu) != 0x91000210u ||	/* add x16, x16, #imm */
	    e[2] != 0xd61f0200u)			/* br x16 */
		return addr;
	page = (s64)((u64)(((e[0] >> 29) & 3) | (((e[0] >> 5) & 0x7ffff) << 2)) << 43) >> 31;
	return (addr & ~0xfffUL) + page + ((e[1] >> 10) & 0xfff);
}

/*
 * Was ret the return address of a call into the function at pc, as a
 * caller x30 still held must be?  The instruction before ret is a call:
 * a bl whose target is pc's function (same symbol; through a module's
 * PLT entry too), or an indirect one (blr, blraa...), which cannot be
 * told.  A stale x30 (the function had
 * called already: x30 returns into the function itself, after a bl to
 * another) fails this.
 */
static bool called_into(unsigned long ret, unsigned long pc)
{
	char a[KSYM_SYMBOL_LEN], b[KSYM_SYMBOL_LEN];
	unsigned long target;
	u32 insn;

	if (copy_from_kernel_nofault(&insn, (void *)(ret - 4), sizeof(insn)))
		return false;
	if ((insn & 0xfffffc1fu) == 0xd63f0000u ||	/* blr */
	    (insn & 0xfefff800u) == 0xd63f0800u)	/* blraa/blrab(z) */
		return true;
	if ((insn & 0xfc000000u) != 0x94000000u)	/* bl */
		return false;
	target = ret - 4 + ((s64)((u64)(insn & 0x3ffffffu) << 38) >> 36);
	target = plt_target(target);
	/* the same function: the same name (and module) at both */
	sprint_symbol_no_offset(a, target);
	sprint_symbol_no_offset(b, pc);
	return !strcmp(a, b);
}

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
		    called_into(kun[i], kun[i - 1]))
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
