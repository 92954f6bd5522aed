/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An FDE whose CIE says DW_EH_PE_indirect | pcrel | sdata4 (0x9b): its
 * initial location is the address of a cell holding the function's
 * address, not the function's address.  kunwind-gen does not follow such
 * pointers: the FDE must be refused and counted as malformed, never read
 * as a direct pointer (which puts f's rule on the cell, in .data).
 */
	.text
	.globl	f
	.type	f, @function
f:	push	%rbp
	pop	%rbp
	ret
	.size	f, . - f

	.data
	.p2align 3
cell:	.quad	f

	.section .eh_frame, "a", @progbits
cie:	.long	cie_end - cie_id
cie_id:	.long	0			/* CIE */
	.byte	1			/* version */
	.string	"zR"
	.uleb128 1			/* code alignment */
	.sleb128 -8			/* data alignment */
	.uleb128 16			/* return address column */
	.uleb128 1			/* augmentation data length */
	.byte	0x9b			/* FDE pointers: indirect pcrel sdata4 */
	.byte	0x0c, 7, 8		/* def_cfa rsp+8 */
	.byte	0x90, 1			/* offset r16 at cfa-8 */
	.p2align 3
cie_end:
fde:	.long	fde_end - fde_id
fde_id:	.long	fde_id - cie		/* CIE pointer */
	.long	cell - .		/* initial location, through the cell */
	.long	3			/* address range: f */
	.uleb128 0			/* augmentation data length */
	.byte	0x41			/* advance_loc 1 */
	.byte	0x0e, 16		/* def_cfa_offset 16 */
	.p2align 3
fde_end:
	.long	0
