/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind_sample.ko's own header: the assembly of sample_asm.S and the C
 * functions it calls, the C functions that are global on purpose (the
 * frames mix static and global functions), and what one file of the
 * module uses of another's (points.c, deaths.c, dump.c, work.c).
 */
#ifndef _KUNWIND_SAMPLE_H
#define _KUNWIND_SAMPLE_H

#include <linux/compiler.h>
#include <linux/linkage.h>
#include <linux/types.h>

struct task_struct;

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

/* points.c */
void ksample_depth2(int point);
void ksample_recurse(int n, int point);
__noreturn void ksample_call_noreturn(long x);
long ksample_after_noreturn(const long *p);
/* What the compiler must not drop: results written here. */
extern long ksample_sink;
/* Is t off the CPU, its stack saved by schedule(), and staying so? */
bool ksample_asleep(struct task_struct *t);

/* deaths.c: a death is a bottom function, run under a chain of three. */
typedef void (*ksample_fn)(void);
void ksample_die_depth1(ksample_fn bottom);
void ksample_die_depth2(ksample_fn bottom);
__noreturn void ksample_die_call_noreturn(long x);
long ksample_die_after_noreturn(const long *p);
void ksample_deaths_init(void);
void ksample_deaths_exit(void);

/* dump.c: stop the sleepers a dump left (none but after a failed start). */
void ksample_dump_stop(void);

/* work.c: the work=1 kthread, started at init, stopped at rmmod. */
int ksample_work_start(void);
void ksample_work_stop(void);

#endif /* _KUNWIND_SAMPLE_H */
