// SPDX-License-Identifier: GPL-2.0
/*
 * Walk counters: per CPU, one this_cpu_add() each (kunwind_count(),
 * inline in counters.h), summed when debugfs reads them.  A leaf: it
 * calls nothing of kunwind's.
 */
#include <linux/percpu.h>
#include "counters.h"

DEFINE_PER_CPU(unsigned long [KUNWIND_CNT_NR], kunwind_counters);
EXPORT_PER_CPU_SYMBOL_GPL(kunwind_counters);	/* kunwind_count() */

/* The stop counters are named by kunwind_stop_str(). */
static const char * const counter_names[] = {
	[KUNWIND_CNT_WALKS]		= "walks",
	[KUNWIND_CNT_FRAMES]		= "frames",
	[KUNWIND_CNT_TABLE]		= "table_steps",
	[KUNWIND_CNT_ORC]		= "orc_fallback_steps",
	[KUNWIND_CNT_FALLBACK + KUNWIND_FALLBACK_NO_TABLE] = "orc_fallback_no_table",
	[KUNWIND_CNT_FALLBACK + KUNWIND_FALLBACK_NO_ROW] = "orc_fallback_no_row",
	[KUNWIND_CNT_FALLBACK + KUNWIND_FALLBACK_STEP_FAILED] = "orc_fallback_row_step_failed",
	[KUNWIND_CNT_FALLBACK + KUNWIND_FALLBACK_TRACER] = "orc_fallback_tracer_helper_missing",
	[KUNWIND_CNT_ORC_FAILED]	= "orc_fallback_failed",
	[KUNWIND_CNT_RECOVERED]		= "tracer_return_addresses_recovered",
	[KUNWIND_CNT_ORC_TRACER]	= "tracer_steps_by_orc",
	[KUNWIND_CNT_REFUSED]		= "walks_of_other_tasks_refused",
	[KUNWIND_CNT_NO_RCU]		= "walks_refused_rcu_not_watching",
	[KUNWIND_CNT_DEATHS]		= "death_traces",
	[KUNWIND_CNT_DEATHS_NESTED]	= "death_traces_refused_nested",
};

static_assert(ARRAY_SIZE(counter_names) == KUNWIND_CNT_STOP);

static const char * const fallback_names[] = {
	[KUNWIND_FALLBACK_NO_TABLE]	= "no table",
	[KUNWIND_FALLBACK_NO_ROW]	= "no row",
	[KUNWIND_FALLBACK_STEP_FAILED]	= "row step failed",
	[KUNWIND_FALLBACK_TRACER]	= "tracer helper missing",
};

static_assert(ARRAY_SIZE(fallback_names) == KUNWIND_FALLBACK_NR);

const char *kunwind_fallback_str(unsigned int why)
{
	return why < KUNWIND_FALLBACK_NR ? fallback_names[why] : "?";
}
EXPORT_SYMBOL_GPL(kunwind_fallback_str);

unsigned long kunwind_counter_read(enum kunwind_counter c)
{
	unsigned long sum = 0;
	int cpu;

	if (c >= KUNWIND_CNT_NR)
		return 0;
	for_each_possible_cpu(cpu)
		sum += per_cpu(kunwind_counters, cpu)[c];
	return sum;
}
EXPORT_SYMBOL_GPL(kunwind_counter_read);

/* "walks", ..., then the stop reason for the stop counters. */
const char *kunwind_counter_name(enum kunwind_counter c)
{
	if (c < KUNWIND_CNT_STOP)
		return counter_names[c];
	if (c < KUNWIND_CNT_NR)
		return kunwind_stop_str(c - KUNWIND_CNT_STOP);
	return "?";
}
EXPORT_SYMBOL_GPL(kunwind_counter_name);
