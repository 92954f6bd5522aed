/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walk counters (counters.c): per CPU, summed when debugfs reads them.
 * A leaf: counters.c calls nothing of kunwind's.  Exported GPL for the
 * KUnit suites.
 */
#ifndef _KUNWIND_COUNTERS_H
#define _KUNWIND_COUNTERS_H

#include <linux/percpu.h>
#include "../kunwind.h"
#include "kunwind_api.h"

enum kunwind_counter {
	KUNWIND_CNT_WALKS,
	KUNWIND_CNT_FRAMES,		/* frames walked, the first included */
	KUNWIND_CNT_TABLE,		/* steps made by kunwind tables */
	KUNWIND_CNT_ORC,		/* steps made by the ORC fallback */
	KUNWIND_CNT_FALLBACK,		/* + enum kunwind_fallback: per reason */
	KUNWIND_CNT_ORC_FAILED = KUNWIND_CNT_FALLBACK + KUNWIND_FALLBACK_NR,
					/* fallback tried, ORC failed too */
	KUNWIND_CNT_RECOVERED,		/* tracer trampolines undone */
	KUNWIND_CNT_ORC_TRACER,		/* ... by an ORC step (no helper) */
	KUNWIND_CNT_REFUSED,		/* walks of other tasks refused */
	KUNWIND_CNT_NO_RCU,		/* walks refused: RCU not watching */
	KUNWIND_CNT_DEATHS,		/* oops/panic backtraces printed */
	KUNWIND_CNT_DEATHS_NESTED,	/* ... refused by the per-CPU guard */
	KUNWIND_CNT_STOP,		/* + enum kunwind_stop: walk endings */
	KUNWIND_CNT_NR = KUNWIND_CNT_STOP + KUNWIND_STOP_NR
};

DECLARE_PER_CPU(unsigned long [KUNWIND_CNT_NR], kunwind_counters);

/**
 * kunwind_count() - Add to a per-CPU counter.
 * @c: the counter
 * @n: how much
 *
 * Inline: a walk counts four times, each one instruction (this_cpu_add()
 * is one on x86, so safe in NMI), not a call.
 *
 * Context: Any context, NMI included.
 */
static __always_inline void kunwind_count(enum kunwind_counter c,
					  unsigned long n)
{
	if (c < KUNWIND_CNT_NR)
		this_cpu_add(kunwind_counters[c], n);
}

/**
 * kunwind_counter_read() - A counter's sum over the CPUs.
 * @c: the counter
 *
 * Context: Any context; not a snapshot: CPUs may count meanwhile.
 * Return: the sum.
 */
unsigned long kunwind_counter_read(enum kunwind_counter c);

/**
 * kunwind_counter_name() - A counter's name, as debugfs shows it.
 * @c: the counter
 *
 * Return: the name; "?" for a value out of range.
 */
const char *kunwind_counter_name(enum kunwind_counter c);

#endif /* _KUNWIND_COUNTERS_H */
