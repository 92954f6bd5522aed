/* SPDX-License-Identifier: GPL-2.0 */
/*
 * oracle.c, the second oracle of the comparison with ORC (trace.c): what
 * the tables say of an address the walk stepped from.
 */
#ifndef _KUNWIND_KUNIT_ORACLE_H
#define _KUNWIND_KUNIT_ORACLE_H

#include <linux/module.h>
#include "unwind/kunwind.h"

/*
 * What the tables say of an address, found without kunwind's registry:
 * vmlinux's from the table file, a module's from its own .kunwind
 * section (see oracle.c).
 */
enum kt_cover {
	KT_COVER_ROW,		/* a row kunwind follows */
	KT_COVER_NOT_FOLLOWED,	/* a row of rule UNDEFINED or UNSUPPORTED */
	KT_COVER_GAP,		/* a table covers the text, its row is NONE */
	KT_COVER_NO_TABLE,	/* no table describes that text */
	KT_COVER_UNKNOWN,	/* the oracle could not read what it needs */
	KT_COVER_NR
};

struct kt_cover_info {
	char table[MODULE_NAME_LEN];	/* "vmlinux" or the module's name */
	const char *seg;		/* the segment's section name, or NULL */
	struct kunwind_rule rule;	/* the row's rule, if a segment holds it */
	const char *why;		/* NO_TABLE, UNKNOWN: why */
};

enum kt_cover kt_cover(unsigned long addr, struct kt_cover_info *ci);
const char *kt_cover_str(enum kt_cover c);
/* Frees the vmlinux table read by the first kt_cover(). */
void kt_cover_release(void);

#endif /* _KUNWIND_KUNIT_ORACLE_H */
