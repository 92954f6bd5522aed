/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the fuzz targets: a reader that turns the fuzzer's bytes into
 * values (running out of input yields zeros, never an error, so every input
 * is a valid test case), and fuzz_fail() for a broken invariant (the
 * invariants of a table: table_invariants.h; of a walk: walk_fuzz.h).
 *
 * A broken invariant is reported on stderr and abort()s, which libFuzzer
 * records as a crash with the input that caused it.
 */
#ifndef _KUNWIND_FUZZ_H
#define _KUNWIND_FUZZ_H

#include "../unwind/kunwind.h"	/* before libc: it defines bool */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define fuzz_fail(...)							\
	do {								\
		fprintf(stderr, "fuzz invariant broken at %s:%d: ",	\
			__FILE__, __LINE__);				\
		fprintf(stderr, __VA_ARGS__);				\
		fputc('\n', stderr);					\
		abort();						\
	} while (0)

struct fuzz_in {
	const uint8_t *p;
	size_t n;
};

static inline uint64_t fuzz_get(struct fuzz_in *in, unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes && in->n; i++, in->p++, in->n--)
		v |= (uint64_t)*in->p << (8 * i);
	return v;
}

#define fuzz_u8(in)	((uint8_t)fuzz_get(in, 1))
#define fuzz_u16(in)	((uint16_t)fuzz_get(in, 2))
#define fuzz_u32(in)	((uint32_t)fuzz_get(in, 4))
#define fuzz_u64(in)	fuzz_get(in, 8)

/* A copy of bytes at an 8-byte aligned address, sized exactly for ASan. */
static inline void *fuzz_aligned_copy(const void *data, size_t len)
{
	void *p = malloc(len ? len : 1);

	if (!p)
		abort();
	memcpy(p, data, len);
	return p;
}

#endif /* _KUNWIND_FUZZ_H */
