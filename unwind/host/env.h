/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's names the core uses (env.h), for host builds: the
 * fixed-width types, bool, likely(), __always_inline, noinline,
 * ARRAY_SIZE() and static_assert().  Each is what the kernel's
 * tools/include gives the same name (u64 is uint64_t there too, so that
 * "%" PRIx64 prints it), so the sources build unchanged against either:
 * the kernel's build of the generator (scripts/kunwind) takes them from
 * tools/include, through its own unwind/host/env.h.  Only the compiler's
 * freestanding headers are included.
 */
#ifndef _KUNWIND_HOST_ENV_H
#define _KUNWIND_HOST_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint16_t u16;
typedef int16_t s16;
typedef uint8_t u8;
typedef int8_t s8;

#ifndef __always_inline		/* glibc's <sys/cdefs.h> may have it */
#define __always_inline	inline __attribute__((always_inline))
#endif
#ifndef noinline
#define noinline	__attribute__((noinline))
#endif
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#ifndef static_assert		/* C11's <assert.h> may have it */
#define static_assert	_Static_assert
#endif

#endif /* _KUNWIND_HOST_ENV_H */
