/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm_frames.S: assembly functions with kunwind's hints, the kernel's
 * UNWIND_HINT_* and bare .cfi, which the asm suite walks from (and the
 * api suite's register frame).
 */
#ifndef _KUNWIND_KUNIT_ASM_FRAMES_H
#define _KUNWIND_KUNIT_ASM_FRAMES_H

#include <linux/compiler.h>

struct kt_asm_point;
struct kt_noret;
void kt_asm_cfi(struct kt_asm_point *p);
void kt_asm_call(struct kt_asm_point *p);
void kt_asm_regs(struct kt_asm_point *p);
void kt_asm_iret(struct kt_asm_point *p);
void kt_asm_switch(struct kt_asm_point *p, unsigned long *tos);
void kt_asm_end(struct kt_asm_point *p);
void kt_asm_undefined(struct kt_asm_point *p);
void __noreturn kt_asm_noret_caller(struct kt_noret *n);
void kt_asm_after_noret(struct kt_noret *n);
extern const char kt_asm_regs_ip[], kt_asm_iret_ip[];
/* Called by asm_frames.S */
void kt_asm_probe(struct kt_asm_point *p);
void __noreturn kt_noreturn_probe(struct kt_noret *n, void *local);

#endif /* _KUNWIND_KUNIT_ASM_FRAMES_H */
