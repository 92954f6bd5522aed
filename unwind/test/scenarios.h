/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core's test scenarios, one source for both worlds: the host's unit
 * tests (tests/unit.c) and the KUnit suites (kunit/lookup_test.c,
 * kunit/walk_test.c) include the same case tables and run every case, so
 * the two cannot drift apart.
 *
 *   scenarios.h     this contract, synthetic segments, the check helpers
 *   lookup_cases.h  lookups and kunwind_table_check() on synthetic tables
 *   walk_cases.h    walks of a synthetic program over a fake stack
 *
 * Freestanding, as the core is: nothing but unwind/kunwind.h, no libc, no
 * kernel header.  As env.h gives the core its types, the includer gives
 * the scenarios what differs between the worlds, defined before the
 * include:
 *
 *   KT_TEST		the test context type (the kernel: struct kunit)
 *   KT_EXPECT(test, cond, fmt, ...)
 *			report a false cond, with cond's text and the
 *			message; the expression's value is cond, so that
 *			`if (!KT_EXPECT(...)) return;` is an assertion
 *   KT_NOTE(test, fmt, ...)	an informational line
 *   KT_ZALLOC(test, size)	zeroed memory, 8-byte aligned, freed when the
 *			case ends (the kernel: kunit_kzalloc()); NULL if none
 *   kt_table_build(test, segs, nr, &len)
 *			a valid table of the segments by the world's own
 *			builder (the host: the generator's table_build(); the
 *			kernel: kunit/table.c, written from format.h), freed
 *			when the case ends; NULL if it cannot
 *
 * A case is an entry of one of the tables: a parameter of a function
 * (lookup_every_byte_finds_its_row, check_table, walk_reaches_stop_reason)
 * or a scenario (lookup_scenario, walk_scenario), named the same on both
 * sides: KUnit reports kunit_<suite>.<function>.<entry>, tests/unit
 * <suite>.<function>.<entry>.  A new entry runs on both; a new table
 * needs a KUNIT_CASE_PARAM and a line in tests/unit.c's main().
 */
#ifndef _KUNWIND_TEST_SCENARIOS_H
#define _KUNWIND_TEST_SCENARIOS_H

#include "../kunwind.h"

#define KT_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* A row of a synthetic segment: [start, end) relative to its base. */
struct kt_row {
	u32 start, end;
	struct kunwind_rule rule;
};

/* A synthetic segment: rows sorted, not overlapping; gaps stay gaps. */
struct kt_seg {
	const char *name;
	u64 base;
	u32 size;
	const struct kt_row *rows;
	unsigned int nr_rows;
};

/* A scenario: a named claim and the function that proves it. */
struct kt_scenario {
	const char *name;
	void (*run)(KT_TEST *test);
};

static inline struct kunwind_rule kt_call(int reg, int cfa, int bp)
{
	return (struct kunwind_rule){ .type = KUNWIND_TYPE_CALL, .reg = reg,
				      .cfa_off = cfa, .bp_off = bp };
}

/*
 * The bp_off of an ordinary frame's rule that saves nothing, as a table
 * of the architecture built for accepts it (lookup.c's rule_ok()):
 * arm64's return address is in the frame record, so there the rule
 * saves the record, at the CFA - 16.
 */
#ifdef KUNWIND_ARCH_HAS_LR
#define KT_BP_NONE	(-KUNWIND_FRAME_RECORD_SIZE)
#else
#define KT_BP_NONE	0
#endif

/* An ordinary frame's rule, CFA = sp + cfa, rbp or x29 at the CFA + bp. */
static inline struct kunwind_rule kt_frame(int cfa, int bp)
{
	return kt_call(KUNWIND_REG_SP, cfa, bp ? bp : KT_BP_NONE);
}

static inline struct kunwind_rule kt_typed(int type, int reg, int cfa)
{
	return (struct kunwind_rule){ .type = type, .reg = reg, .cfa_off = cfa };
}

static inline bool kt_rule_eq(const struct kunwind_rule *a,
			      const struct kunwind_rule *b)
{
	return a->cfa_off == b->cfa_off && a->bp_off == b->bp_off &&
	       a->type == b->type && a->reg == b->reg;
}

/* got == want, printed as what was expected and what came. */
#define KT_EXPECT_EQ(test, got, want)					\
	KT_EXPECT(test, (unsigned long)(got) == (unsigned long)(want),	\
		  "%s is %#lx, expected %#lx", #got,			\
		  (unsigned long)(got), (unsigned long)(want))

#endif /* _KUNWIND_TEST_SCENARIOS_H */
