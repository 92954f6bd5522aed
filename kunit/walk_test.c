// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_walk: the walker of the kernel build (kunwind_start(),
 * kunwind_next()) on the scenarios of unwind/test/walk_cases.h (arm64:
 * walk_cases_arm64.h), which the host's tests/unit.c runs too: fake stack memory behind struct
 * kunwind_ops hooks with bounds, and a synthetic program's table
 * (table.c).  Every stop reason of enum kunwind_stop is reached, plus the
 * rules a real walk depends on (ip - 1, register, iret and signal frames,
 * stack switches, the rbp fallback, trampolines, the lookup cache).
 */
#include <linux/slab.h>
#include "table.h"
#ifdef CONFIG_ARM64
/* The core built for arm64 walks arm64 tables: arm64's scenarios. */
#include "unwind/test/walk_cases_arm64.h"

KUNIT_ARRAY_PARAM_DESC(walk_arm64_scenario, kt_walk_arm64_scenarios, name);

static void walk_arm64_scenario(struct kunit *test)
{
	const struct kt_scenario *s = test->param_value;

	s->run(test);
}

static struct kunit_case walk_test_cases[] = {
	KUNIT_CASE_PARAM(walk_arm64_scenario, walk_arm64_scenario_gen_params),
	{}
};
#else
#include "unwind/test/walk_cases.h"

KUNIT_ARRAY_PARAM_DESC(stop, kt_stop_cases, name);
KUNIT_ARRAY_PARAM_DESC(walk_scenario, kt_walk_scenarios, name);

static void walk_reaches_stop_reason(struct kunit *test)
{
	kt_walk_reaches_stop_reason(test, test->param_value);
}

static void walk_scenario(struct kunit *test)
{
	const struct kt_scenario *s = test->param_value;

	s->run(test);
}

static struct kunit_case walk_test_cases[] = {
	KUNIT_CASE_PARAM(walk_reaches_stop_reason, stop_gen_params),
	KUNIT_CASE_PARAM(walk_scenario, walk_scenario_gen_params),
	{}
};
#endif

static struct kunit_suite walk_test_suite = {
	.name = "kunwind_walk",
	.test_cases = walk_test_cases,
};

kunit_test_suite(walk_test_suite);
