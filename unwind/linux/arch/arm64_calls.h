/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What arm64 code says of a call, for the checks that verify a caller
 * kunwind gave where the kernel's frame-record walk lost it (the
 * profiler's self-check, prof/arch-arm64.c, and KUnit's kunwind_arm64
 * suite): the walk itself never decodes instructions.
 */
#ifndef _KUNWIND_LINUX_ARCH_ARM64_CALLS_H
#define _KUNWIND_LINUX_ARCH_ARM64_CALLS_H

#include <linux/kallsyms.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/*
 * Where a module's PLT entry at addr branches (adrp x16; add x16, x16;
 * br x16: arm64's struct plt_entry, for calls out of bl's range, into
 * the kernel); addr itself if it is none.
 */
static inline unsigned long kunwind_plt_target(unsigned long addr)
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
 * PLT entry too): 1; an indirect one (blr, blraa...), which cannot be
 * told: 0; anything else: -1.  A stale x30 (the function had called
 * already: x30 returns into the function itself, after a bl to another)
 * gives -1.  Not in NMI: it names symbols.
 */
static inline int kunwind_called_into(unsigned long ret, unsigned long pc)
{
	char a[KSYM_SYMBOL_LEN], b[KSYM_SYMBOL_LEN];
	unsigned long target;
	u32 insn;

	if (copy_from_kernel_nofault(&insn, (void *)(ret - 4), sizeof(insn)))
		return -1;
	if ((insn & 0xfffffc1fu) == 0xd63f0000u ||	/* blr */
	    (insn & 0xfefff800u) == 0xd63f0800u)	/* blraa/blrab(z) */
		return 0;
	if ((insn & 0xfc000000u) != 0x94000000u)	/* bl */
		return -1;
	target = ret - 4 + ((s64)((u64)(insn & 0x3ffffffu) << 38) >> 36);
	target = kunwind_plt_target(target);
	/* the same function: the same name (and module) at both */
	sprint_symbol_no_offset(a, target);
	sprint_symbol_no_offset(b, pc);
	return strcmp(a, b) ? -1 : 1;
}

#endif /* _KUNWIND_LINUX_ARCH_ARM64_CALLS_H */
