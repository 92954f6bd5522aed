/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registry's lookups (registry_lookup.c): what walks find.
 *
 * Concurrency: lookups (kunwind_registry_seg(), kunwind_find_rule(), every
 * walk) take no lock and may run in any context, NMI included; they pair
 * with the registry's rcu_assign_pointer() of its lookup structure and the
 * synchronize_rcu()/kvfree_rcu() before the old one or a table goes away.
 *
 * Exported GPL: kunwind_registry_seg() and kunwind_find_rule() (the KUnit
 * suites, the profiler); the rest is the walk's own (kwalk.c).
 */
#ifndef _KUNWIND_REGISTRY_LOOKUP_H
#define _KUNWIND_REGISTRY_LOOKUP_H

#include <linux/types.h>
#include "../kunwind.h"

/**
 * kunwind_registry_seg() - The live segment holding an address.
 * @ip:    a run-time address
 * @table: set to the segment's table
 * @start: set to the segment's run-time start
 *
 * ops->find_seg of kernel walks.  Its cost does not grow with the number
 * of registered tables.
 *
 * Context: Any context, NMI included, in an RCU read-side section (a
 * walk: preemption disabled; else rcu_read_lock()) for as long as the
 * caller uses the table.
 * Return: the segment, or NULL if no live segment holds @ip.
 */
const struct kunwind_seg *
kunwind_registry_seg(unsigned long ip, const struct kunwind_hdr **table,
		     unsigned long *start);
/**
 * kunwind_registry_fallback() - Count an ORC fallback step out of ip.
 * @ip:  the address the step's lookup was for
 * @why: enum kunwind_fallback
 *
 * Counted to the registration whose table covers @ip (debugfs tables).
 *
 * Context: Inside a walk (an RCU read-side section); any context.
 * Return: whether a table covers @ip.
 */
bool kunwind_registry_fallback(unsigned long ip, unsigned int why);

/*
 * For debuggers reading the registry from a target's memory (a live gdb
 * session, a crash dump: gdb/kunwind), which have vmlinux's debug info but
 * not kunwind.ko's: where the lookups' segments are and their layout.
 * They find it by its name in kunwind.ko's kallsyms (CONFIG_KALLSYMS_ALL)
 * or by its magic in kunwind.ko's read-only data.  The layout of struct
 * kunwind_live and kunwind_live_seg (registry_lookup.c) changes with kunwind.ko;
 * this says it, versioned by magic and version.
 */
struct kunwind_debug_info {
	u32 magic;			/* KUNWIND_DEBUG_MAGIC */
	u16 version;			/* KUNWIND_DEBUG_VERSION */
	u16 size;			/* of this struct */
	u64 live;			/* &kunwind_live: struct kunwind_live * */
	u16 live_nr;			/* offsetof(struct kunwind_live, nr) */
	u16 live_segs;			/* ... segs[] */
	u16 seg_size;			/* sizeof(struct kunwind_live_seg) */
	u16 seg_start, seg_end;		/* its start, end */
	u16 seg_table, seg_seg;		/* its table, seg */
	u16 reserved;
};

#define KUNWIND_DEBUG_MAGIC	0x4742444bu	/* "KDBG" little endian */
#define KUNWIND_DEBUG_VERSION	1

extern const struct kunwind_debug_info kunwind_debug_info;

/**
 * kunwind_registry_gen() - The registry's generation.
 *
 * Context: Any context.
 * Return: a number that changes whenever what lookups find changes (a
 * table registered or gone, init text freed): lookup caches are valid
 * for the generation read before they were filled.
 */
unsigned long kunwind_registry_gen(void);

/**
 * kunwind_find_rule() - The rule describing an address.
 * @ip:   a run-time address, looked up as is (no ip - 1)
 * @rule: set to a copy of the rule
 *
 * Context: Any context; takes RCU itself.
 * Return: true if a live segment holds @ip, false if none does.
 */
bool kunwind_find_rule(unsigned long ip, struct kunwind_rule *rule);

#endif /* _KUNWIND_REGISTRY_LOOKUP_H */
