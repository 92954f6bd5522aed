/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only switch between kernel and host builds of the freestanding core
 * (lookup.c, walk.c).  The core includes nothing else: no libc, no kernel
 * headers, so the same objects are tested on the host and run in the kernel.
 */
#ifndef _KUNWIND_ENV_H
#define _KUNWIND_ENV_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/kernel.h>	/* ARRAY_SIZE() */
#include "linux/ops.h"		/* the kernel's ops, called directly */
#define KUNWIND_ARRAY_SIZE(a)	ARRAY_SIZE(a)
#else
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
#if !defined(__cplusplus) && !defined(__bool_true_false_are_defined)
typedef _Bool bool;
#define true 1
#define false 0
#define __bool_true_false_are_defined 1
#endif
#ifndef __always_inline		/* glibc's <sys/cdefs.h> may have it */
#define __always_inline	inline __attribute__((always_inline))
#endif
#ifndef noinline
#define noinline	__attribute__((noinline))
#endif
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define KUNWIND_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif

#define KUNWIND_STATIC_ASSERT(e) _Static_assert(e, #e)

/*
 * Code on a walk's path.  A walk may run inside a tracer's callback, a
 * kprobe handler or an NMI, so in the kernel that code can be neither
 * traced (notrace; kunwind.ko is also built without -pg) nor probed: it
 * lies in .kprobes.text, the section kprobes refuses, for modules too.
 * tests/walkpath.test checks that nothing in it calls code outside it.
 */
#ifdef __KERNEL__
#define __kunwind_walk	notrace __section(".kprobes.text")
#else
#define __kunwind_walk
#endif

#endif /* _KUNWIND_ENV_H */
