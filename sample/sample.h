/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The global functions of kunwind_sample.ko: the assembly of sample_asm.S
 * and the C functions it calls, and the C functions that are global on
 * purpose (the frames mix static and global functions).
 */
#ifndef _KUNWIND_SAMPLE_H
#define _KUNWIND_SAMPLE_H

#include <linux/compiler.h>
#include <linux/linkage.h>

/* sample_asm.S; each calls ksample_from_asm(point). */
asmlinkage void ksample_asm_cfi(int point);
asmlinkage void ksample_asm_call(int point);
asmlinkage void ksample_asm_regs(int point);
asmlinkage void ksample_asm_iret(int point);
asmlinkage void ksample_asm_switch(unsigned long *tos, int point);
asmlinkage void ksample_asm_end(int point);
asmlinkage void ksample_asm_undefined(int point);
asmlinkage void ksample_from_asm(int point);
/* sample_asm.S: the asm death, a NULL read two functions down. */
asmlinkage long ksample_asm_die(void);

void ksample_depth2(int point);
void ksample_recurse(int n, int point);
__noreturn void ksample_call_noreturn(long x);
long ksample_after_noreturn(const long *p);
void ksample_die_depth2(void (*bottom)(void));
__noreturn void ksample_die_call_noreturn(long x);
long ksample_die_after_noreturn(const long *p);

#endif /* _KUNWIND_SAMPLE_H */
