// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's stack tables (table.h; prof.h: kunwind_prof.ko).
 *
 * Storage.  Each CPU that comes online during a session gets two tables
 * (allocated by its online callback, freed at stop): the handler adds to
 * the active one, aggregating identical stacks in place (a hash of the
 * frames, linear probing, the frames in an arena).  No lock, no
 * allocation; a stack that finds no room is dropped and counted.  A
 * drain (while running, as often as a CPU's table may fill a quarter of
 * its slots: prof_drain_ms(); and before every read) flips each
 * CPU's active table, waits for the handlers that may still write the
 * other one (synchronize_rcu(): handlers run with interrupts off), and
 * merges it into the session's table, in process context under
 * prof_mutex; the session's table starts small and doubles as the drains
 * need it.  So a reader sees every sample once, from a table nobody
 * writes.
 */
#include <linux/cpu.h>
#include <linux/jhash.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "prof.h"

DEFINE_MUTEX(prof_mutex);	/* everything below but the handler's */
struct prof_cpu __percpu *prof_cpus;
struct prof_table prof_agg;	/* the session's stacks */
LIST_HEAD(prof_snaps);		/* the snapshots open */
unsigned long prof_dropped_cpu;	/* in the per-CPU tables */

/* ---- the one insert, for the handler and the drain ------------------ */

/* The key of a stack: its words and the bits of k but hash, off, count. */
static u32 prof_hash(const unsigned long *w, const struct prof_entry *k)
{
	u32 h = jhash(w, k->depth * sizeof(*w), k->flags | k->stop << 8);

	h = jhash_2words((u32)k->regs, (u32)(k->regs >> 32), h);
	h = jhash_2words((u32)k->orc, (u32)(k->orc >> 32), h);
	h = jhash_2words((u32)k->why[0], (u32)k->why[1], h);
	return h ?: 1;
}

static bool prof_same(const struct prof_table *t, const struct prof_entry *e,
		      const unsigned long *w, const struct prof_entry *k)
{
	return e->depth == k->depth && e->flags == k->flags &&
	       e->stop == k->stop && e->regs == k->regs && e->orc == k->orc &&
	       e->why[0] == k->why[0] && e->why[1] == k->why[1] &&
	       !memcmp(t->words + e->off, w, k->depth * sizeof(*w));
}

/* Add count samples of the stack w, k; false if there is no room. */
bool prof_add(struct prof_table *t, const unsigned long *w,
	      const struct prof_entry *k, u64 count)
{
	u32 h = prof_hash(w, k);
	unsigned int i;

	for (i = 0; i < t->probes; i++) {
		struct prof_entry *e = &t->slot[(h + i) & (t->nr_slots - 1)];

		if (e->hash == h && prof_same(t, e, w, k)) {
			e->count += count;
			return true;
		}
		if (e->hash)
			continue;
		if (t->used_slots >= t->max_used ||
		    t->used_words + k->depth > t->nr_words)
			break;
		memcpy(t->words + t->used_words, w, k->depth * sizeof(*w));
		*e = *k;
		e->off = t->used_words;
		t->used_words += k->depth;
		t->used[t->used_slots++] = e - t->slot;
		e->count = count;
		e->hash = h;
		return true;
	}
	return false;
}

/*
 * The slots taken, one by one while they are few: a drain clears a CPU's
 * table of a few dozen stacks without writing its 4,096 slots.
 */
static void prof_table_clear(struct prof_table *t)
{
	u32 i;

	if (t->used_slots < t->nr_slots / 16)
		for (i = 0; i < t->used_slots; i++)
			t->slot[t->used[i]].hash = 0;
	else
		memset(t->slot, 0, t->nr_slots * sizeof(*t->slot));
	t->used_slots = 0;
	t->used_words = 0;
	t->dropped = 0;
}

void prof_table_free(struct prof_table *t)
{
	kvfree(t->slot);
	kvfree(t->used);
	kvfree(t->words);
	memset(t, 0, sizeof(*t));
}

int prof_table_alloc(struct prof_table *t, u32 slots, u32 words, u32 probes)
{
	memset(t, 0, sizeof(*t));
	t->slot = kvcalloc(slots, sizeof(*t->slot), GFP_KERNEL);
	t->used = kvcalloc(slots, sizeof(*t->used), GFP_KERNEL);
	t->words = kvcalloc(words, sizeof(*t->words), GFP_KERNEL);
	t->nr_slots = slots;
	t->nr_words = words;
	t->probes = min(probes, slots);
	/*
	 * A table whose inserts look at every slot fills 3/4 of them at
	 * most: past that, linear probing's clusters make a miss scan most
	 * of the table (the drain holds prof_mutex and the CPU hotplug lock).
	 */
	t->max_used = t->probes < slots ? slots : slots / 4 * 3;
	if (t->slot && t->used && t->words)
		return 0;
	prof_table_free(t);
	return -ENOMEM;
}

/*
 * Make room in the session's table for what t holds: double it (up to
 * PROF_SLOTS and PROF_WORDS) while it would be more than half full, or
 * its arena short; with more (an insert found no room), at least double
 * its slots.  False if it did not grow (at its caps, or no memory): then
 * the drain drops what does not fit.
 */
static bool prof_agg_grow(const struct prof_table *t, bool more)
{
	u32 slots = prof_agg.nr_slots, words = prof_agg.nr_words;
	struct prof_table new;
	unsigned int i;

	if (more && slots < PROF_SLOTS)
		slots *= 2;
	while (slots < PROF_SLOTS &&
	       (prof_agg.used_slots + t->used_slots) * 2 > slots)
		slots *= 2;
	while (words < PROF_WORDS && prof_agg.used_words + t->used_words > words)
		words *= 2;
	if (slots == prof_agg.nr_slots && words == prof_agg.nr_words)
		return false;
	if (prof_table_alloc(&new, slots, words, slots))
		return false;
	for (i = 0; i < prof_agg.nr_slots; i++) {
		const struct prof_entry *e = &prof_agg.slot[i];

		if (e->hash && !prof_add(&new, prof_agg.words + e->off, e,
					 e->count))
			new.dropped += e->count;
	}
	new.dropped += prof_agg.dropped;
	prof_table_free(&prof_agg);
	prof_agg = new;
	return true;
}

/* ---- the drain ------------------------------------------------------- */

/*
 * CPU hotplug held off: the online callbacks allocate tables, which
 * then hold still until stop.
 */
void prof_drain(void)
{
	unsigned int cpu, i;

	lockdep_assert_held(&prof_mutex);
	if (!prof_cpus)
		return;
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);

		if (pc->tab[0].slot)
			WRITE_ONCE(pc->active, !pc->active);
	}
	/* Handlers run with interrupts off: after this none writes the old. */
	synchronize_rcu();
	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);
		struct prof_table *t = &pc->tab[!pc->active];

		if (!t->slot)
			continue;
		prof_agg_grow(t, false);
		for (i = 0; i < t->used_slots; i++) {
			struct prof_entry *e = &t->slot[t->used[i]];

			if (!((i + 1) % 1024))
				cond_resched();
			if (prof_add(&prof_agg, t->words + e->off, e, e->count))
				continue;
			if (!prof_agg_grow(t, true) ||
			    !prof_add(&prof_agg, t->words + e->off, e, e->count))
				prof_agg.dropped += e->count;
		}
		prof_dropped_cpu += t->dropped;
		if (t->used_slots || t->dropped)
			prof_table_clear(t);
	}
	cpus_read_unlock();
}

/* ---- a session's tables ---------------------------------------------- */

/* The per-CPU tables: at stop, after the last drain. */
void prof_free_cpu_tables(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);

		prof_table_free(&pc->tab[0]);
		prof_table_free(&pc->tab[1]);
	}
}

void prof_tables_free(void)
{
	if (prof_cpus) {
		prof_free_cpu_tables();
		free_percpu(prof_cpus);
		prof_cpus = NULL;
	}
	prof_table_free(&prof_agg);
}

/* A new session's: the CPUs' (tables at their online), the session's. */
int prof_tables_alloc(void)
{
	int err;

	prof_tables_free();
	prof_cpus = alloc_percpu(struct prof_cpu);
	if (!prof_cpus)
		return -ENOMEM;
	err = prof_table_alloc(&prof_agg, PROF_CPU_SLOTS, PROF_CPU_WORDS,
			       PROF_CPU_SLOTS);
	if (err)
		prof_tables_free();
	prof_dropped_cpu = 0;
	return err;
}

/* ---- snapshots ------------------------------------------------------- */

void prof_snap_free(struct prof_snap *snap)
{
	if (!snap)
		return;
	mutex_lock(&prof_mutex);
	if (!list_empty(&snap->node))
		list_del(&snap->node);
	mutex_unlock(&prof_mutex);
	kvfree(snap->ent);
	kvfree(snap->words);
	kfree(snap);
}

/*
 * Drain and copy the session's table, for a file to show: every sample
 * up to the open, however many read() calls take it.  The copy holds
 * the used entries and their words, no more, and is on prof_snaps until
 * freed, so that frames of a module that goes meanwhile are named in it
 * too.  Readers render it holding prof_mutex a few stacks at a time (a
 * kallsyms lookup a frame), between the drains and module notifiers
 * that need it.  No entries if no session.
 */
struct prof_snap *prof_snapshot(void)
{
	struct prof_snap *snap = kzalloc(sizeof(*snap), GFP_KERNEL);
	unsigned int i, n = 0, words = 0;
	int err = 0;

	if (!snap)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&snap->node);
	mutex_lock(&prof_mutex);
	prof_drain();
	if (prof_cpus && prof_agg.used_slots) {
		snap->ent = kvcalloc(prof_agg.used_slots, sizeof(*snap->ent),
				     GFP_KERNEL);
		snap->words = kvcalloc(max(prof_agg.used_words, 1U),
				       sizeof(*snap->words), GFP_KERNEL);
		err = snap->ent && snap->words ? 0 : -ENOMEM;
	}
	for (i = 0; !err && snap->ent && i < prof_agg.nr_slots; i++) {
		const struct prof_entry *e = &prof_agg.slot[i];

		if (!e->hash)
			continue;
		snap->ent[n] = *e;
		snap->ent[n].off = words;
		memcpy(snap->words + words, prof_agg.words + e->off,
		       e->depth * sizeof(*snap->words));
		words += e->depth;
		n++;
	}
	snap->nr = n;
	if (!err)
		list_add(&snap->node, &prof_snaps);
	mutex_unlock(&prof_mutex);
	if (err) {
		prof_snap_free(snap);
		return ERR_PTR(err);
	}
	return snap;
}
