/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.c: synthetic tables built in C, and the kernel's side of
 * unwind/test/scenarios.h's contract, for the scenarios the host's
 * tests/unit.c runs too (lookup_test.c, walk_test.c) and the synthetic
 * segments of the registry suite (registry_tables_test.c).
 */
#ifndef _KUNWIND_KUNIT_TABLE_H
#define _KUNWIND_KUNIT_TABLE_H

#include <kunit/test.h>
#include "unwind/kunwind.h"

#define KT_TEST struct kunit
#define KT_EXPECT(test, cond, fmt, ...) ({				\
	bool __kt_ok = (cond);						\
	if (!__kt_ok)							\
		KUNIT_FAIL(test, "%s: " fmt, #cond, ##__VA_ARGS__);	\
	__kt_ok;							\
})
#define KT_NOTE(test, fmt, ...)	kunit_info(test, fmt "\n", ##__VA_ARGS__)
#define KT_ZALLOC(test, size)	kunit_kzalloc(test, size, GFP_KERNEL)
#include "unwind/test/scenarios.h"

/*
 * A table of nr segments as kunwind-gen would build it (rules
 * deduplicated, gaps covered by KUNWIND_RULE_NONE, rules from
 * KUNWIND_RULE_ESCAPE on through escapes), allocated with kunit_kzalloc(): freed with the test.
 */
struct kunwind_hdr *kt_table_build(struct kunit *test, const struct kt_seg *segs,
				   unsigned int nr, size_t *len);

#endif /* _KUNWIND_KUNIT_TABLE_H */
