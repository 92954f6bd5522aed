// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_lookup: kunwind_table_check() and kunwind_table_rule() of the
 * kernel build on the scenarios of unwind/test/lookup_cases.h, which the
 * host's tests/unit.c runs too, with tables built by table.c: every byte
 * of a segment finds the row it was built from, gaps and addresses
 * outside find nothing, and every kind of corruption is refused with the
 * reason that names it.
 */
#include <linux/slab.h>
#include "table.h"
#include "unwind/test/lookup_cases.h"

KUNIT_ARRAY_PARAM_DESC(lookup, kt_lookup_sizes, name);
KUNIT_ARRAY_PARAM_DESC(corruption, kt_corruptions, name);
KUNIT_ARRAY_PARAM_DESC(lookup_scenario, kt_lookup_scenarios, name);

static void lookup_every_byte_finds_its_row(struct kunit *test)
{
	kt_lookup_every_byte_finds_its_row(test, test->param_value);
}

static void check_table(struct kunit *test)
{
	kt_check_table(test, test->param_value);
}

static void lookup_scenario(struct kunit *test)
{
	const struct kt_scenario *s = test->param_value;

	s->run(test);
}

static struct kunit_case lookup_test_cases[] = {
	KUNIT_CASE_PARAM(lookup_every_byte_finds_its_row, lookup_gen_params),
	KUNIT_CASE_PARAM(check_table, corruption_gen_params),
	KUNIT_CASE_PARAM(lookup_scenario, lookup_scenario_gen_params),
	{}
};

static struct kunit_suite lookup_test_suite = {
	.name = "kunwind_lookup",
	.test_cases = lookup_test_cases,
};

kunit_test_suite(lookup_test_suite);
