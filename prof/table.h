/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind_prof.ko's stack tables (table.c): open addressing on a hash of
 * the frames, the frames in an arena of words.  One per CPU, written by
 * the sample handler alone; one for the session, into which prof_drain()
 * moves them under prof_mutex; snapshots of it for the readers of folded
 * and modules.
 */
#ifndef _KUNWIND_PROF_TABLE_H
#define _KUNWIND_PROF_TABLE_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include "../unwind/kunwind.h"

#define PROF_CPU_SLOTS		4096	/* distinct stacks per CPU table */
#define PROF_CPU_WORDS		65536	/* their frames */
/*
 * The handler's inserts look at this many slots (linear probing), then
 * drop the sample; the drain's, in process context, look at them all.
 */
#define PROF_CPU_PROBES		16
/*
 * The session's table: a CPU table's size at first, doubled up to this
 * (at most half full until then, 3/4 at the cap): 98,304 stacks, 4M
 * frame words (32 MiB).  The stress boot (tests/profile.test) made 52,850
 * stacks in 42 s, a module loaded 16 times, and filled 2M words.  When
 * the drain's inserts looked at 16 slots, as the handler's do, a later
 * stress boot dropped 51 samples of 51,543 stacks at the cap of slots.
 */
#define PROF_SLOTS		131072
#define PROF_WORDS		(4096 * 1024)
/* A frame word below this is the index of a name (a module gone). */
#define PROF_NAMES		4096

/* prof_entry.flags */
#define PROF_USER	0x1	/* words: the task's comm */
#define PROF_TRUNC	0x2	/* more than PROF_DEPTH frames */

struct prof_entry {
	u32 hash;		/* 0: empty */
	u32 off;		/* first word in the arena */
	u64 count;
	u8 depth;		/* words */
	u8 flags;
	u8 stop;		/* enum kunwind_stop; NONE if truncated */
	u64 regs;		/* bit i: word i is an exact ip (not ip - 1) */
	u64 orc;		/* bit i: the step from word i was the fallback's */
	u64 why[2];		/* bit i of why[b]: bit b of that step's reason */
};

/* Two bits a step hold enum kunwind_fallback. */
static_assert(KUNWIND_FALLBACK_NR <= 4);

struct prof_table {
	struct prof_entry *slot;
	u32 *used;		/* the slots taken, in order: used_slots */
	unsigned long *words;
	u32 nr_slots, nr_words;
	u32 used_slots, used_words;
	u32 probes;		/* slots an insert looks at, then drops */
	u32 max_used;		/* slots it fills at most */
	unsigned long dropped;
};

/*
 * A copy of the session's table, for one open file (folded, modules):
 * the used entries and their words, on prof_snaps while open (the module
 * notifier names the frames of a module going in it too).
 */
struct prof_snap {
	struct list_head node;
	struct prof_entry *ent;
	unsigned long *words;
	u32 nr;
};

/* A kernel sample whose walk ended before the end of the stack. */
static inline bool prof_entry_stopped(const struct prof_entry *e)
{
	return !(e->flags & (PROF_USER | PROF_TRUNC)) &&
	       e->stop != KUNWIND_STOP_END;
}

/* ... at 2 frames or fewer: a sample with nothing to show. */
static inline bool prof_entry_lost(const struct prof_entry *e)
{
	return prof_entry_stopped(e) && e->depth <= 2;
}

/* The reason of the fallback step out of word i of e. */
static inline unsigned int prof_why(const struct prof_entry *e, unsigned int i)
{
	return (e->why[0] >> i & 1) | (e->why[1] >> i & 1) << 1;
}

extern struct mutex prof_mutex;
extern struct prof_cpu __percpu *prof_cpus;
extern struct prof_table prof_agg;
extern struct list_head prof_snaps;
extern unsigned long prof_dropped_cpu;
bool prof_add(struct prof_table *t, const unsigned long *w,
	      const struct prof_entry *k, u64 count);
int prof_table_alloc(struct prof_table *t, u32 slots, u32 words, u32 probes);
void prof_table_free(struct prof_table *t);
int prof_tables_alloc(void);
void prof_tables_free(void);
void prof_free_cpu_tables(void);
void prof_drain(void);
struct prof_snap *prof_snapshot(void);
void prof_snap_free(struct prof_snap *snap);

#endif /* _KUNWIND_PROF_TABLE_H */
