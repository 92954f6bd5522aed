/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libkunwind.so's constants: what its callers pass in and get back beside
 * the core's own (unwind/format.h, enum kunwind_stop).  Plain literals,
 * read into the Python constants (kunwind_format.py) by gdb/format_py.py,
 * so that gdb/kunwind never copies them.
 */
#ifndef _KUNWIND_LIBKUNWIND_H
#define _KUNWIND_LIBKUNWIND_H

/* The kinds of stack the stack callback (or kunwind_target_set_stacks()) reports. */
#define KUNWIND_TARGET_STACK_TASK	0
#define KUNWIND_TARGET_STACK_IRQ	1	/* its top word holds the sp it was entered from */
#define KUNWIND_TARGET_STACK_OTHER	2	/* exception, entry, NMI... */

/* Frame flags of kunwind_target_walk(), per frame */
#define KUNWIND_TARGET_FRAME_EXACT	0x1	/* ip is exact (interrupted), not a return address */

#endif /* _KUNWIND_LIBKUNWIND_H */
