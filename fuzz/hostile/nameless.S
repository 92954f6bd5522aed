/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Linked into a shared object whose .text then gets an unreadable name
 * (sh_name past the end of .shstrtab, fuzz/hostile.test): f has CFI, g
 * has none but a hint, so both the CFI rows and a hint outside every FDE
 * land in the nameless section.
 */
#include <kunwind_asm.h>

	.text
	.globl	f
	.type	f, @function
f:	.cfi_startproc
	push	%rbp
	.cfi_def_cfa_offset 16
	pop	%rbp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	f, . - f

	.globl	g
	.type	g, @function
g:	KUNWIND_HINT_CALL(8)
	ret
	.size	g, . - g
