/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Assembly of kunwind_sample.ko: one function per way of describing a
 * frame.  Every function calls ksample_from_asm(point), which prints the
 * stack both ways (points.c), so each case is checked against the
 * kernel's ORC unwinder.
 *
 * Two unwinders read this file: kunwind, from the .cfi_* directives
 * (.debug_frame) and the KUNWIND_HINT_* macros; the kernel's ORC, from
 * objtool's analysis of the instructions and the UNWIND_HINT_* macros.
 * Each special frame therefore carries both hints, side by side.
 *
 *	ksample_asm_cfi		.cfi_* only: pushes and a local area
 *	ksample_asm_call	no CFI at all: KUNWIND_HINT_CALL per state
 *	ksample_asm_regs	builds a struct pt_regs: KUNWIND_HINT_REGS
 *	ksample_asm_iret	builds an iret frame: KUNWIND_HINT_IRET
 *	ksample_asm_switch	runs on another stack: KUNWIND_HINT_STACK_SWITCH
 *	ksample_asm_end		the stack ends here: KUNWIND_HINT_END
 *	ksample_asm_undefined	no unwinding past here: KUNWIND_HINT_UNDEFINED
 *
 * and, at the end, the asm death (die=asm): ksample_asm_die (.cfi_*)
 * calling ksample_asm_die_read (KUNWIND_HINT_CALL), which reads address 0.
 *
 * The register and iret frames describe an "interrupted" instruction
 * inside the function (.Lregs_ip, .Liret_ip: after ENDBR, where the FDE
 * starts), with the stack pointer it had: the next frame is unwound from
 * there by its own rule (CFA = rsp + 8), as after a real interrupt.
 */
#include <linux/linkage.h>
#include <asm/dwarf2.h>
#include <asm/segment.h>
#include <asm/unwind_hints.h>

#include "kunwind_asm.h"

/*
 * Linux 6.4 split ORC's "empty" hint (6.1: UNWIND_HINT_EMPTY, sp_reg
 * undefined, end=1) into END_OF_STACK and UNDEFINED; 6.1's undefined is
 * the same hint with end=0.  The hint types are C macros, so the
 * preprocessor can tell the two apart.
 */
#ifdef UNWIND_HINT_TYPE_END_OF_STACK
#define ORC_HINT_END		UNWIND_HINT_END_OF_STACK
#define ORC_HINT_UNDEFINED	UNWIND_HINT_UNDEFINED
#else
#define ORC_HINT_END		UNWIND_HINT_EMPTY
#define ORC_HINT_UNDEFINED	UNWIND_HINT type=UNWIND_HINT_TYPE_CALL
#endif

#define PT_REGS_SIZE	(21 * 8)
#define IRET_SIZE	(5 * 8)

	.text

/* .cfi_* only: rbp and rbx saved, 24 bytes of locals. */
SYM_FUNC_START(ksample_asm_cfi)
	CFI_STARTPROC
	pushq	%rbp
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET rbp, 0
	pushq	%rbx
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET rbx, 0
	subq	$24, %rsp
	CFI_ADJUST_CFA_OFFSET 24
	movl	%edi, %ebx
	movq	%rbx, 8(%rsp)
	call	ksample_from_asm
	addq	$24, %rsp
	CFI_ADJUST_CFA_OFFSET -24
	popq	%rbx
	CFI_ADJUST_CFA_OFFSET -8
	CFI_RESTORE rbx
	popq	%rbp
	CFI_ADJUST_CFA_OFFSET -8
	CFI_RESTORE rbp
	RET
	CFI_ENDPROC
SYM_FUNC_END(ksample_asm_cfi)

/*
 * No .cfi_* at all (no FDE): the kunwind hints alone describe every
 * instruction, each up to the next hint.
 */
SYM_FUNC_START(ksample_asm_call)
	KUNWIND_HINT_CALL(8)
	pushq	%rbx
	KUNWIND_HINT_CALL(16)
	pushq	%r12
	KUNWIND_HINT_CALL(24)
	movl	%edi, %ebx
	call	ksample_from_asm
	popq	%r12
	KUNWIND_HINT_CALL(16)
	popq	%rbx
	KUNWIND_HINT_CALL(8)
	RET
SYM_FUNC_END(ksample_asm_call)

/*
 * A struct pt_regs as an interrupt entry would leave it: iret frame,
 * orig_ax, then the general registers in PUSH_REGS order (pt_regs runs
 * from r15 at the lowest address up to ss).
 */
SYM_FUNC_START(ksample_asm_regs)
	CFI_STARTPROC
.Lregs_ip:
	movq	%rsp, %rax
	pushq	$__KERNEL_DS			/* ss */
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%rax				/* sp */
	CFI_ADJUST_CFA_OFFSET 8
	pushfq					/* flags */
	CFI_ADJUST_CFA_OFFSET 8
	pushq	$__KERNEL_CS			/* cs */
	CFI_ADJUST_CFA_OFFSET 8
	leaq	.Lregs_ip(%rip), %rax
	pushq	%rax				/* ip */
	CFI_ADJUST_CFA_OFFSET 8
	pushq	$-1				/* orig_ax */
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%rdi
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%rsi
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%rdx
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%rcx
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%rax
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%r8
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%r9
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%r10
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%r11
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%rbx
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%rbp
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%r12
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%r13
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%r14
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%r15
	CFI_ADJUST_CFA_OFFSET 8
	UNWIND_HINT_REGS
	KUNWIND_HINT_REGS(0)
	call	ksample_from_asm		/* %edi: still the point */
	addq	$PT_REGS_SIZE, %rsp
	CFI_ADJUST_CFA_OFFSET -PT_REGS_SIZE
	UNWIND_HINT_FUNC
	RET
	CFI_ENDPROC
SYM_FUNC_END(ksample_asm_regs)

/* A hardware iret frame only: ip, cs, flags, sp, ss. */
SYM_FUNC_START(ksample_asm_iret)
	CFI_STARTPROC
.Liret_ip:
	movq	%rsp, %rax
	pushq	$__KERNEL_DS			/* ss */
	CFI_ADJUST_CFA_OFFSET 8
	pushq	%rax				/* sp */
	CFI_ADJUST_CFA_OFFSET 8
	pushfq					/* flags */
	CFI_ADJUST_CFA_OFFSET 8
	pushq	$__KERNEL_CS			/* cs */
	CFI_ADJUST_CFA_OFFSET 8
	leaq	.Liret_ip(%rip), %rax
	pushq	%rax				/* ip */
	CFI_ADJUST_CFA_OFFSET 8
	UNWIND_HINT_IRET_REGS
	KUNWIND_HINT_IRET(0)
	call	ksample_from_asm
	addq	$IRET_SIZE, %rsp
	CFI_ADJUST_CFA_OFFSET -IRET_SIZE
	UNWIND_HINT_FUNC
	RET
	CFI_ENDPROC
SYM_FUNC_END(ksample_asm_iret)

/*
 * ksample_asm_switch(tos, point): run ksample_from_asm(point) on the
 * stack whose top is tos, the kernel's call_on_stack() "stack swizzle":
 * the old rsp is stored at the new top, so CFA = *(rsp) + 8 there.
 * objtool recognises the pattern for ORC; DWARF says it with an
 * expression (DW_CFA_def_cfa_expression: DW_OP_breg7 0, DW_OP_deref,
 * DW_OP_plus_uconst 8), which kunwind-gen does not interpret: the hint
 * is what kunwind reads.
 */
SYM_FUNC_START(ksample_asm_switch)
	CFI_STARTPROC
	movq	%rsp, (%rdi)
	movq	%rdi, %rsp
	.cfi_escape 0x0f, 0x05, 0x77, 0x00, 0x06, 0x23, 0x08
	KUNWIND_HINT_STACK_SWITCH(8)
	movl	%esi, %edi
	call	ksample_from_asm
	popq	%rsp
	CFI_DEF_CFA rsp, 8
	RET
	CFI_ENDPROC
SYM_FUNC_END(ksample_asm_switch)

/* The stack ends in this function: both walks stop after its frame. */
SYM_FUNC_START(ksample_asm_end)
	CFI_STARTPROC
	ORC_HINT_END
	KUNWIND_HINT_END
	call	ksample_from_asm
	UNWIND_HINT_FUNC
	RET
	CFI_ENDPROC
SYM_FUNC_END(ksample_asm_end)

/*
 * Nothing is known past this function: both walks stop after its frame,
 * as incomplete (ORC: an error, the rest of dump_stack() is "?" guesses).
 */
SYM_FUNC_START(ksample_asm_undefined)
	CFI_STARTPROC
	ORC_HINT_UNDEFINED
	KUNWIND_HINT_UNDEFINED
	call	ksample_from_asm
	UNWIND_HINT_FUNC
	RET
	CFI_ENDPROC
SYM_FUNC_END(ksample_asm_undefined)

/*
 * The asm death (deaths.c, die=asm): ksample_asm_die(), a frame described
 * by .cfi_* (rbp saved, 16 bytes of locals), calls ksample_asm_die_read(),
 * described by kunwind hints only, which reads address 0.  The oops's
 * registers are inside ksample_asm_die_read(), with rbx pushed: its hint
 * is the only way out for kunwind, then the CFI of ksample_asm_die().
 * Both return what was read (were there no fault).
 */
SYM_FUNC_START(ksample_asm_die)
	CFI_STARTPROC
	pushq	%rbp
	CFI_ADJUST_CFA_OFFSET 8
	CFI_REL_OFFSET rbp, 0
	subq	$16, %rsp
	CFI_ADJUST_CFA_OFFSET 16
	call	ksample_asm_die_read
	addq	$16, %rsp
	CFI_ADJUST_CFA_OFFSET -16
	popq	%rbp
	CFI_ADJUST_CFA_OFFSET -8
	CFI_RESTORE rbp
	RET
	CFI_ENDPROC
SYM_FUNC_END(ksample_asm_die)

SYM_FUNC_START(ksample_asm_die_read)
	KUNWIND_HINT_CALL(8)
	pushq	%rbx
	KUNWIND_HINT_CALL(16)
	xorl	%ebx, %ebx
	movq	(%rbx), %rax			/* the fault: a read of 0 */
	popq	%rbx
	KUNWIND_HINT_CALL(8)
	RET
SYM_FUNC_END(ksample_asm_die_read)
