/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading DWARF's encodings out of .eh_frame and .debug_frame: fixed-size
 * little-endian values, LEB128, DW_EH_PE pointers.  Shared by cfi.c (the
 * records) and cfa.c (the instructions and their expressions).
 *
 * A read past the end sets r->err and yields 0: callers check err once,
 * after a record or an instruction, not after every value.
 */
#ifndef _KUNWIND_GEN_DWARF_H
#define _KUNWIND_GEN_DWARF_H

#include <stddef.h>
#include "../unwind/env.h"

/* DW_EH_PE_* pointer encodings */
#define PE_OMIT		0xff
#define PE_FORMAT	0x0f
#define PE_APP		0x70
#define PE_PCREL	0x10
#define PE_INDIRECT	0x80

struct rd {
	const u8 *p, *end;
	bool err;
};

static inline u64 rd_n(struct rd *r, unsigned int n)
{
	u64 v = 0;
	unsigned int i;

	if ((size_t)(r->end - r->p) < n) {
		r->err = true;
		r->p = r->end;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (u64)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static inline u64 rd_uleb(struct rd *r)
{
	u64 v = 0;
	unsigned int shift = 0;

	while (r->p < r->end) {
		u8 b = *r->p++;

		if (shift < 64)
			v |= (u64)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->err = true;
	return 0;
}

static inline s64 rd_sleb(struct rd *r)
{
	u64 v = 0;
	unsigned int shift = 0;
	u8 b = 0;

	while (r->p < r->end) {
		b = *r->p++;
		if (shift < 64)
			v |= (u64)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~0ULL << shift;
			return (s64)v;
		}
	}
	r->err = true;
	return 0;
}

/* Read a DW_EH_PE-encoded value (no application: see rd_ptr). */
static inline u64 rd_enc(struct rd *r, u8 enc)
{
	switch (enc & PE_FORMAT) {
	case 0x00: return rd_n(r, 8);			/* absptr */
	case 0x01: return rd_uleb(r);
	case 0x02: return rd_n(r, 2);
	case 0x03: return rd_n(r, 4);
	case 0x04: return rd_n(r, 8);
	case 0x09: return rd_sleb(r);
	case 0x0a: return (s16)rd_n(r, 2);
	case 0x0b: return (s32)rd_n(r, 4);
	case 0x0c: return rd_n(r, 8);
	}
	r->err = true;
	return 0;
}

#endif /* _KUNWIND_GEN_DWARF_H */
