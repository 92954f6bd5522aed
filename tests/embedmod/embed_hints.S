/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One assembly function per kunwind hint (unwind/linux/kunwind_asm.h),
 * with .cfi_* directives except kunwind_embed_nocfi, which has no FDE at
 * all.  CFI goes to .debug_frame, as with the kernel's <asm/dwarf2.h>: an
 * .eh_frame would be loaded with the module, and objtool (IBT kernels)
 * warns about its references to functions past their ENDBR.
 *
 * Each hint is at a label <name>_hint and must hold up to <name>_hint_end:
 * tests/embed.test reads both from the symbol table (readelf -s) and
 * expects the table row [<name>_hint, <name>_hint_end) with the hint's
 * rule.  Never run: the module is only built.
 */
#include <linux/linkage.h>
#include <kunwind_asm.h>

	.cfi_sections .debug_frame
	.text

/*
 * A register block on the stack around a call: REGS; then CALL, the same
 * rule as the CFI's, ends it inside one CFI row.
 */
SYM_FUNC_START(kunwind_embed_regs)
	.cfi_startproc
	sub	$168, %rsp
	.cfi_adjust_cfa_offset 168
kunwind_embed_regs_hint:
	KUNWIND_HINT_REGS(0)
	call	kunwind_embed_leaf
kunwind_embed_regs_hint_end:
kunwind_embed_regs2_hint:
	KUNWIND_HINT_CALL(176)
	add	$168, %rsp
kunwind_embed_regs2_hint_end:
	.cfi_adjust_cfa_offset -168
	RET
	.cfi_endproc
SYM_FUNC_END(kunwind_embed_regs)

/* An iret frame; the hint starts inside a CFI row and cuts it: IRET. */
SYM_FUNC_START(kunwind_embed_iret)
	.cfi_startproc
	sub	$48, %rsp
	.cfi_adjust_cfa_offset 48
	nop
kunwind_embed_iret_hint:
	KUNWIND_HINT_IRET(8)
	call	kunwind_embed_leaf
	add	$48, %rsp
kunwind_embed_iret_hint_end:
	.cfi_adjust_cfa_offset -48
	RET
	.cfi_endproc
SYM_FUNC_END(kunwind_embed_iret)

/* The outermost frame, from the first byte of the FDE to its end: END. */
SYM_FUNC_START(kunwind_embed_end)
	.cfi_startproc
kunwind_embed_end_hint:
	KUNWIND_HINT_END
	call	kunwind_embed_leaf
	RET
kunwind_embed_end_hint_end:
	.cfi_endproc
SYM_FUNC_END(kunwind_embed_end)

/* Overrides an rbp-based row: UNDEFINED. */
SYM_FUNC_START(kunwind_embed_undefined)
	.cfi_startproc
	push	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov	%rsp, %rbp
	.cfi_def_cfa_register %rbp
kunwind_embed_undefined_hint:
	KUNWIND_HINT_UNDEFINED
	and	$-16, %rsp
	call	kunwind_embed_leaf
	leave
kunwind_embed_undefined_hint_end:
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	RET
	.cfi_endproc
SYM_FUNC_END(kunwind_embed_undefined)

/*
 * No CFI at all: each hint holds up to the next one, the last up to the
 * end of the symbol: CALL.
 */
SYM_FUNC_START(kunwind_embed_nocfi)
	push	%rbx
kunwind_embed_nocfi_hint:
	KUNWIND_HINT_CALL(16)
	call	kunwind_embed_leaf
	pop	%rbx
kunwind_embed_nocfi_hint_end:
kunwind_embed_nocfi2_hint:
	KUNWIND_HINT_CALL(8)
	RET
kunwind_embed_nocfi2_hint_end:
SYM_FUNC_END(kunwind_embed_nocfi)

/*
 * Run kunwind_embed_leaf on the stack whose top is in rdi, the old rsp
 * saved in its first slot; in .text.unlikely, after the C code's cold function
 * once linked: STACK_SWITCH.
 */
	.section .text.unlikely, "ax", @progbits
SYM_FUNC_START(kunwind_embed_switch)
	.cfi_startproc
	sub	$8, %rdi
	mov	%rsp, (%rdi)		/* objtool's "stack swizzle" */
	mov	%rdi, %rsp
kunwind_embed_switch_hint:
	KUNWIND_HINT_STACK_SWITCH(8)
	call	kunwind_embed_leaf
	pop	%rsp
kunwind_embed_switch_hint_end:
	.cfi_def_cfa_offset 8		/* unchanged: ends the hint's row */
	RET
	.cfi_endproc
SYM_FUNC_END(kunwind_embed_switch)
