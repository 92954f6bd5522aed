/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Between the registry's files only: the registrations (registry.c),
 * the lookup array published from them (registry_lookup.c), and module
 * discovery (discovery.c), which decides under the registry's lock.
 * Not exported.
 *
 * Writers hold kunwind_registry_lock: every change of the registrations,
 * its publication to lookups (kunwind_live_publish()), and discovery's
 * notes about modules.
 */
#ifndef _KUNWIND_REGISTRY_INTERNAL_H
#define _KUNWIND_REGISTRY_INTERNAL_H

#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include "../kunwind.h"
#include "kunwind_api.h"
#include "registry.h"

struct seq_file;

struct kunwind_registration_seg {
	unsigned long start, end;	/* run-time [start, end) */
	u16 idx;			/* its struct kunwind_seg in the table */
	u8 state;			/* enum kunwind_seg_state */
};

struct kunwind_registration {
	struct list_head list;		/* in kunwind_registered */
	struct module *mod;
	const struct kunwind_hdr *table;
	unsigned long len, bias;
	unsigned int nr_segs;
	char name[MODULE_NAME_LEN];
	/* ORC fallback steps out of its text, per enum kunwind_fallback */
	atomic_long_t fallback[KUNWIND_FALLBACK_NR];
	struct kunwind_registration_seg segs[];	/* sorted by start */
};

/* Every registration, vmlinux's included; under kunwind_registry_lock. */
extern struct list_head kunwind_registered;
extern struct mutex kunwind_registry_lock;

/* A segment in this state is looked up: its text is there. */
static inline bool kunwind_seg_looked_up(u8 state)
{
	return state == KUNWIND_SEG_LIVE || state == KUNWIND_SEG_INIT;
}

/* Under kunwind_registry_lock: mod's registration (NULL: vmlinux's), or NULL. */
struct kunwind_registration *kunwind_registration_locked(struct module *mod);
/* Forget every registration, and what lookups find (exit); sleeps. */
void kunwind_unregister_all(void);

/*
 * registry_lookup.c, under kunwind_registry_lock: publish what lookups
 * find after a change of kunwind_registered (removal: a change that only
 * takes away, which cannot fail); the table of a looked-up segment that
 * shares a byte with [start, end), or NULL; debugfs's line; unpublish
 * the array (exit; kvfree() it after a grace period).
 */
int kunwind_live_publish(bool removal);
const struct kunwind_hdr *kunwind_live_overlap(unsigned long start,
					       unsigned long end);
void kunwind_live_show(struct seq_file *m);
void *kunwind_live_unpublish(void);

#endif /* _KUNWIND_REGISTRY_INTERNAL_H */
