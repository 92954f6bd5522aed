/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the walker knows of arm64 (AArch64), apart from the algorithm
 * (walk.c): the names arch-x86.h defines, for a machine whose calls leave
 * the return address in a register.
 *
 * A call (bl, blr) puts the return address in x30, the link register;
 * the callee saves it, if it calls on, with the caller's x29 as a frame
 * record {x29, x30} of two words (AAPCS64), and points x29 at the record.
 * So a table row says one of two things about the return address: it is
 * still in x30 (KUNWIND_TYPE_LR: in a leaf, before the record is saved,
 * after it is restored), which only the first frame or one whose
 * registers a register block gave can know; or it is the word after the
 * saved x29 (KUNWIND_TYPE_CALL: the record's second word, at CFA + bp_off
 * + 8).  The table's register codes (format.h) are abstract: KUNWIND_REG_SP
 * is sp and KUNWIND_REG_BP is x29, the frame pointer.
 *
 * Return addresses may carry a pointer authentication code in their
 * unused top bits (-mbranch-protection=pac-ret: paciasp before the record
 * is saved, autiasp after it is loaded).  The walker strips every return
 * address it reads (kunwind_strip_ra()); the generator reads GCC's
 * DW_CFA_AARCH64_negate_ra_state and keeps nothing of it.
 *
 * Every value here is ABI: stable, and a plain literal.
 */
#ifndef _KUNWIND_ARCH_ARM64_H
#define _KUNWIND_ARCH_ARM64_H

#define KUNWIND_ARCH_ID		KUNWIND_ARCH_ID_ARM64

/* The return address may be in a register: the walk keeps x30 (s->lr). */
#define KUNWIND_ARCH_HAS_LR	1

/*
 * A frame record: the caller's x29 at x29, the return address above it.
 * The caller's sp is at least the word after the record (the record lies
 * in the callee's frame, below its CFA).  A frame-record guess (walk.c,
 * fp_guess()) takes the caller's sp from the caller's own row where it
 * has one: a called function has set x29 to its record, at CFA + bp_off.
 */
#define KUNWIND_FP_RA_OFF	8	/* return address at x29 + 8 */
#define KUNWIND_FP_CFA_OFF	16	/* the caller's sp: at least x29 + 16 */
#define KUNWIND_FP_ALIGN_MASK	7	/* x29 & 7: not a frame record */

/*
 * struct pt_regs (arch/arm64/include/asm/ptrace.h, unchanged since 5.x):
 * regs[31], sp, pc, pstate, then the rest; its stackframe record at 304.
 */
#define KUNWIND_PT_REGS_FP	232	/* regs[29] */
#define KUNWIND_PT_REGS_LR	240	/* regs[30] */
#define KUNWIND_PT_REGS_SP	248
#define KUNWIND_PT_REGS_PC	256
#define KUNWIND_PT_REGS_PSTATE	264
/* pstate's mode field: 0 (EL0t, or any AArch32 user mode) is user mode. */
#define KUNWIND_PSTATE_MODE_MASK 0xf

/*
 * A frame may have its sp at the very top of its stack, the stack empty:
 * call_on_irq_stack() points sp at the top of the IRQ stack and calls
 * the handler, so the handler's caller frame (call_on_irq_stack's, whose
 * row is x29-based) has sp = the stack's end.  That frame is on the
 * stack it switched to, not past it.
 */
#define KUNWIND_SP_MAY_BE_TOP	1

/*
 * Stacks one walk may cross: task, IRQ, overflow, SDEI normal and
 * critical, EFI runtime.
 */
#define KUNWIND_MAX_STACKS	6

/*
 * Where pointer authentication codes live: the bits above the virtual
 * address and its bit 55, which selects the half (TTBR1: the kernel).
 * Kernel text (image and modules) lies in the top 256 TiB whatever
 * VA_BITS is (48 or 52: KIMAGE_VADDR is placed by the 48-bit minimum),
 * so bits 63..48 of a kernel return address are all ones; a user one's
 * are all zeros (48-bit user text).
 */
#define KUNWIND_VA_SELECT_BIT	55
#define KUNWIND_PAC_MASK	0xffff000000000000UL

/*
 * A return address as the code it returns to, without its pointer
 * authentication code: what ptrauth_strip_kernel_insn_pac() (kernel) and
 * ptrauth_strip_user_insn_pac() (user) give for text.  An address without
 * one is left as it is.
 */
static __kunwind_walk __always_inline unsigned long kunwind_strip_ra(unsigned long ra)
{
	return ra >> KUNWIND_VA_SELECT_BIT & 1 ? ra | KUNWIND_PAC_MASK :
						 ra & ~KUNWIND_PAC_MASK;
}

/*
 * The return address of a CALL rule: the second word of the frame record
 * the rule says was saved at CFA + bp_off (never 0: lookup.c checks).
 */
static __kunwind_walk __always_inline unsigned long
kunwind_ra_at(const struct kunwind_rule *r, unsigned long cfa)
{
	return cfa + r->bp_off + KUNWIND_FP_RA_OFF;
}

/*
 * What ops->ret_addr() is told of a return address that a tracer may have
 * replaced: arm64's function_graph tracer and kretprobes key their records
 * by the frame pointer the caller had (ftrace.c's frame_pointer, kprobes'
 * regs[29] at entry), so the caller's x29 (ra_at: where it was read, which
 * they do not record).
 */
static __kunwind_walk __always_inline unsigned long
kunwind_ret_key(unsigned long ra_at, unsigned long caller_bp)
{
	return caller_bp;
}

/*
 * The same for a frame interrupted at the first instruction of the code a
 * return went to (a tracer's trampoline), with that return's sp and bp:
 * the returning function had restored the caller's x29.
 */
static __kunwind_walk __always_inline unsigned long
kunwind_ret_key_returned(unsigned long sp, unsigned long bp)
{
	return bp;
}

/* The walk reads a kernel pt_regs only (KUNWIND_TYPE_REGS). */
struct kunwind_regs_layout {
	s16 ip, sp, bp, mode, lr;
};

static __kunwind_walk inline const struct kunwind_regs_layout *
kunwind_regs_layout(unsigned int type)
{
	static const struct kunwind_regs_layout pt_regs = {
		KUNWIND_PT_REGS_PC, KUNWIND_PT_REGS_SP, KUNWIND_PT_REGS_FP,
		KUNWIND_PT_REGS_PSTATE, KUNWIND_PT_REGS_LR,
	};

	return &pt_regs;
}

/* Was a pt_regs whose pstate is @pstate saved in user mode (user_mode())? */
static __kunwind_walk inline bool kunwind_user_mode(unsigned long pstate)
{
	return !(pstate & KUNWIND_PSTATE_MODE_MASK);
}

#endif /* _KUNWIND_ARCH_ARM64_H */
