/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vmlinux.S: the vmlinux table compiled in (empty without one), the
 * link-time addresses of two exported functions and of the text, and
 * that kernel's linux_banner; registered at load (kunwind_vmlinux_register()).
 * Not exported.
 */
#ifndef _KUNWIND_VMLINUX_H
#define _KUNWIND_VMLINUX_H

#include <linux/types.h>

struct kunwind_vmlinux_info {
	u64 sprintf, kfree;
	u64 stext, etext;
	char banner[];
};

extern const u8 kunwind_vmlinux_table[], kunwind_vmlinux_table_end[];
extern const struct kunwind_vmlinux_info kunwind_vmlinux_info;

int kunwind_vmlinux_register(void);

#endif /* _KUNWIND_VMLINUX_H */
