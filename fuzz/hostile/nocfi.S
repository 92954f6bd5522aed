/* SPDX-License-Identifier: GPL-2.0 */
/* Code without any CFI, hint or ORC: a table of it would have no rows. */
	.text
	.globl	h
	.type	h, @function
h:	ret
	.size	h, . - h
