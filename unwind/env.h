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
#include <linux/build_bug.h>	/* static_assert() */
#include <linux/compiler.h>
#include <linux/kernel.h>	/* ARRAY_SIZE() */
#include "linux/ops.h"		/* the kernel's ops, called directly */
#else
#include "host/env.h"		/* the same names for the host */
#endif

/* Two arguments: a host's C11 static_assert() needs the message. */
#define KUNWIND_STATIC_ASSERT(e)	static_assert(e, #e)

/*
 * Code on a walk's path.  A walk may run inside a tracer's callback, a
 * kprobe handler or an NMI, so in the kernel that code can be neither
 * traced nor probed: it lies in .kprobes.text, the section kprobes
 * refuses, for modules too, and it is built without -pg (ccflags-remove
 * of CC_FLAGS_FTRACE, in every Makefile that builds it; inline functions
 * are notrace in the kernel anyway).  tests/walkpath.test checks that
 * nothing in it calls code outside it, nor ftrace's hooks.
 */
#ifdef __KERNEL__
#define __kunwind_walk	__section(".kprobes.text")
#else
#define __kunwind_walk
#endif

#endif /* _KUNWIND_ENV_H */
