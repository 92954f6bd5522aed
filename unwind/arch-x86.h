/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the walker knows of x86-64, apart from the algorithm (walk.c): how
 * a call leaves the return address and the frame pointer, where the saved
 * register blocks keep ip, sp and bp, what says a block was saved in user
 * mode, the PLT's lazy-binding push, and how many stacks nest.  A second
 * architecture mirrors this file (arch-arm64.h, whose return addresses
 * may also be in a register); walk.c reads only these names.
 *
 * The rule types and CFA base registers stay in format.h: they are the
 * table's encoding, which the generator and the gdb helpers read too.
 * Every value here is ABI: stable, and a plain literal.
 */
#ifndef _KUNWIND_ARCH_X86_H
#define _KUNWIND_ARCH_X86_H

#define KUNWIND_ARCH_ID		KUNWIND_ARCH_ID_X86_64

/*
 * A call pushes the return address: it is the word just below the CFA
 * (the caller's sp).
 */
#define KUNWIND_RA_CFA_OFF	8	/* return address at CFA - 8 */

/*
 * A frame-pointer frame (push %rbp; mov %rsp,%rbp): the caller's rbp is
 * saved at rbp, the return address above it, and the caller's sp is
 * above that.  rbp points at a saved word, so it is word aligned.
 */
#define KUNWIND_FP_RA_OFF	8	/* return address at rbp + 8 */
#define KUNWIND_FP_CFA_OFF	16	/* the caller's sp: rbp + 16 */
#define KUNWIND_FP_ALIGN_MASK	7	/* rbp & 7: not a frame pointer */

/*
 * A PLT entry is 16 bytes; from the lazy-binding push on (the rule's reg:
 * the offset in the entry where it has run), rsp is one word lower
 * (format.h, KUNWIND_TYPE_PLT).
 */
#define KUNWIND_PLT_ENTRY_MASK	15	/* ip & 15: the offset in the entry */
#define KUNWIND_PLT_PUSH	8	/* what the push moved rsp by */

/*
 * The low 2 bits of a saved cs are the privilege level it ran at: not 0,
 * the block was saved in user mode (user_mode()).
 */
#define KUNWIND_CS_RPL_MASK	3

/* Offsets inside the register blocks. */
#define KUNWIND_PT_REGS_BP	32	/* struct pt_regs */
#define KUNWIND_PT_REGS_IP	128
#define KUNWIND_PT_REGS_CS	136	/* low 2 bits: privilege level */
#define KUNWIND_PT_REGS_SP	152
#define KUNWIND_IRET_IP		0	/* ip, cs, flags, sp, ss */
#define KUNWIND_IRET_CS		8
#define KUNWIND_IRET_SP		24
#define KUNWIND_UC_BP		120	/* struct ucontext: uc_mcontext at 40 */
#define KUNWIND_UC_SP		160
#define KUNWIND_UC_IP		168

/*
 * A frame's sp is always a word of its stack: x86's stack switches leave
 * the saved sp in the new stack's top word (arch-arm64.h has the other
 * case).
 */
#define KUNWIND_SP_MAY_BE_TOP	0

/* Stacks one walk may cross: x86-64 nests entry, exception, IRQ, task. */
#define KUNWIND_MAX_STACKS	6

/* A return address is the address itself: nothing to strip. */
static __kunwind_walk __always_inline unsigned long kunwind_strip_ra(unsigned long ra)
{
	return ra;
}

/* The return address of a CALL rule: the word the call pushed. */
static __kunwind_walk __always_inline unsigned long
kunwind_ra_at(const struct kunwind_rule *r, unsigned long cfa)
{
	return cfa - KUNWIND_RA_CFA_OFF;
}

/*
 * What ops->ret_addr() is told of a return address that a tracer may
 * have replaced: where it was read (ra_at), the key of x86's
 * function_graph and kretprobe records.
 */
static __kunwind_walk __always_inline unsigned long
kunwind_ret_key(unsigned long ra_at, unsigned long caller_bp)
{
	return ra_at;
}

/*
 * The same for a frame interrupted at the first instruction of the code a
 * return went to (a tracer's trampoline), with that return's sp and bp:
 * the return address was the word just below sp.
 */
static __kunwind_walk __always_inline unsigned long
kunwind_ret_key_returned(unsigned long sp, unsigned long bp)
{
	return sp - KUNWIND_RA_CFA_OFF;
}

/*
 * The saved register blocks of the rule types that name one (format.h):
 * where ip, sp, rbp and cs are in a kernel pt_regs, a hardware iret frame
 * and a user signal ucontext (-1: not there).  A kernel register block
 * (cs >= 0) saved in user mode ends the kernel stack, as user_mode() says:
 * by the privilege level in cs, not by the value of ip.
 */
struct kunwind_regs_layout {
	s16 ip, sp, bp, mode;	/* mode: the saved cs */
};

/* The layout of @type's block: KUNWIND_TYPE_REGS, _IRET or _SIGNAL. */
static __kunwind_walk inline const struct kunwind_regs_layout *
kunwind_regs_layout(unsigned int type)
{
	static const struct kunwind_regs_layout layouts[] = {
		[KUNWIND_TYPE_REGS]   = { KUNWIND_PT_REGS_IP, KUNWIND_PT_REGS_SP,
					  KUNWIND_PT_REGS_BP, KUNWIND_PT_REGS_CS },
		[KUNWIND_TYPE_IRET]   = { KUNWIND_IRET_IP, KUNWIND_IRET_SP, -1,
					  KUNWIND_IRET_CS },
		[KUNWIND_TYPE_SIGNAL] = { KUNWIND_UC_IP, KUNWIND_UC_SP,
					  KUNWIND_UC_BP, -1 },
	};

	return &layouts[type];
}

/* Was a kernel register block whose cs is @cs saved in user mode? */
static __kunwind_walk inline bool kunwind_user_mode(unsigned long cs)
{
	return cs & KUNWIND_CS_RPL_MASK;
}

/*
 * The CFA of a PLT rule at @ip with sp @sp: cfa_off, plus the word the
 * lazy-binding push added once @ip is past it (format.h).
 */
static __kunwind_walk inline unsigned long
kunwind_plt_cfa(const struct kunwind_rule *r, unsigned long ip,
		unsigned long sp)
{
	return sp + r->cfa_off +
	       ((ip & KUNWIND_PLT_ENTRY_MASK) >= r->reg ? KUNWIND_PLT_PUSH : 0);
}

#endif /* _KUNWIND_ARCH_X86_H */
