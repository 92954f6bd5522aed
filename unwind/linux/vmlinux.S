/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The vmlinux table, compiled in when kunwind.ko is built with
 * KUNWIND_VMLINUX=<vmlinux> (see Kbuild), and what registry.c needs to
 * place it and to check that it belongs to the running kernel
 * (struct kunwind_vmlinux_info).  Without it both are empty.
 *
 * KUNWIND_VMLINUX_TABLE names the table file (kunwind-gen build);
 * KUNWIND_VMLINUX_INFO the generated header with the link-time addresses
 * of sprintf, kfree, _stext, _etext and the linux_banner string.
 */
#include <linux/linkage.h>

	.section .rodata, "a"
	.balign 8
SYM_DATA_START(kunwind_vmlinux_table)
#ifdef KUNWIND_VMLINUX_TABLE
	.incbin KUNWIND_VMLINUX_TABLE
#endif
SYM_DATA_END_LABEL(kunwind_vmlinux_table, SYM_L_GLOBAL, kunwind_vmlinux_table_end)

	.balign 8
SYM_DATA_START(kunwind_vmlinux_info)
#ifdef KUNWIND_VMLINUX_INFO
#include KUNWIND_VMLINUX_INFO
	.quad	KUNWIND_VMLINUX_SPRINTF, KUNWIND_VMLINUX_KFREE
	.quad	KUNWIND_VMLINUX_STEXT, KUNWIND_VMLINUX_ETEXT
	.asciz	KUNWIND_VMLINUX_BANNER
#else
	.quad	0, 0, 0, 0
	.asciz	""
#endif
SYM_DATA_END(kunwind_vmlinux_info)
