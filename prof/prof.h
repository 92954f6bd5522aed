/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind_prof.ko, the sampling profiler on kunwind's walk: what its
 * files share.  A user of kunwind's exported API (kunwind_api.h) and of
 * nothing else of kunwind's; enum kunwind_stop is unwind/kunwind.h's, as
 * kunwind_api.h says.
 *
 *   table.c      the stack tables: per CPU, the session's, snapshots
 *   sample.c     the sample handler, CPU hotplug, start / stop / reset
 *   selfcheck.c  each sample walked by ORC too, and compared
 *   folded.c     debugfs folded and modules: the stacks, rendered
 *   debugfs.c    debugfs stats, selfcheck_report, control, settings
 *   main.c       init, exit, naming the frames of modules that go
 *
 * Locking: prof_mutex (table.c) for everything but the handler's own
 * counters and the table it writes (table.c, "Storage").
 */
#ifndef _KUNWIND_PROF_H
#define _KUNWIND_PROF_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include "kunwind_api.h"
#include "../unwind/kunwind.h"

struct dentry;
struct perf_event;
struct pt_regs;

#define PROF_DEPTH		64	/* frames a sample keeps */
#define PROF_CPU_SLOTS		4096	/* distinct stacks per CPU table */
#define PROF_CPU_WORDS		65536	/* their frames */
/* The session's table: a CPU table's size at first, doubled up to this. */
#define PROF_SLOTS		131072
#define PROF_WORDS		(2048 * 1024)
#define PROF_DIFFS		8	/* self-check differences kept */
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
	unsigned long *words;
	u32 nr_slots, nr_words;
	u32 used_slots, used_words;
	unsigned long dropped;
};

struct prof_sample {
	struct kunwind_frame frame[PROF_DEPTH];	/* the walk's */
	unsigned long ip[PROF_DEPTH];
	struct prof_entry key;		/* depth, flags, stop, regs, orc, why */
	struct kunwind_steps steps;	/* of the frames kept */
	bool trunc;
};

struct prof_cpu {
	struct prof_table tab[2];	/* online this session: table.c */
	unsigned int active;		/* tab[] the handler writes */
	struct perf_event *event;
	int event_err;			/* its last online's, 0 if it got one */
	u64 online_ns, online_since;	/* time with an event */
	unsigned int onlines;		/* online callbacks this session */
	unsigned int onlines_sampled;	/* ... followed by a sample */
	bool sampled;			/* a sample since the last online */
	/* counted by the handler */
	unsigned long samples, user, trunc, throttled;
	unsigned long thunk, thunk_entry, thunk_stopped;
	unsigned long steps_table, steps_fb[KUNWIND_FALLBACK_NR];
	u64 handler_ns, handler_max_ns;
	unsigned long equal, equal_orc, equal_stopped;
	unsigned long equal_fb[KUNWIND_FALLBACK_NR];	/* their steps */
	unsigned long differ, orc_incomplete;
	u64 walk_ns, orc_ns;		/* self-check: both walks' time */
	struct prof_sample s;		/* the handler's scratch */
	unsigned long orc[PROF_DEPTH];
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

/* table.c */
extern struct mutex prof_mutex;
extern struct prof_cpu __percpu *prof_cpus;
extern struct prof_table prof_agg;
extern struct list_head prof_snaps;
extern unsigned long prof_dropped_cpu;
bool prof_add(struct prof_table *t, const unsigned long *w,
	      const struct prof_entry *k, u64 count);
int prof_table_alloc(struct prof_table *t, u32 slots, u32 words);
void prof_table_free(struct prof_table *t);
int prof_tables_alloc(void);
void prof_tables_free(void);
void prof_free_cpu_tables(void);
void prof_drain(void);
struct prof_snap *prof_snapshot(void);
void prof_snap_free(struct prof_snap *snap);

/* sample.c */
enum prof_event { PROF_CPU_CLOCK, PROF_CYCLES, PROF_EVENT_NR };
/* The handler: kunwind's; the bench's baselines, nothing or ORC's walk. */
enum prof_mode { PROF_KUNWIND, PROF_NOOP, PROF_ORC, PROF_MODE_NR };
extern const char *const prof_event_names[];
extern const char *const prof_mode_names[];
extern bool prof_running, prof_selfcheck;
extern unsigned int prof_hz;
extern enum prof_event prof_event;
extern enum prof_mode prof_mode;
extern u64 prof_started, prof_elapsed;
extern int prof_event_err;
int prof_start(void);
void prof_stop(void);
int prof_reset(void);

/* selfcheck.c */
struct prof_orc_walk {		/* ORC's walk of a sample, timed */
	unsigned int n;
	bool complete;
	u64 ns;
};

struct prof_diff {
	unsigned long kun[PROF_DEPTH], orc[PROF_DEPTH];
	unsigned int nk, no;
	int stop;
};

/* The first equal samples with a fallback step: where, and why. */
struct prof_fb_sample {
	unsigned long ip[PROF_DEPTH];
	struct prof_entry key;
};

extern struct prof_diff prof_diffs[PROF_DIFFS];
extern atomic_t prof_nr_diffs;
extern struct prof_fb_sample prof_fbs[PROF_DIFFS];
extern atomic_t prof_nr_fbs;
bool prof_in_thunk(unsigned long ip, bool *entry);
bool prof_orc(struct pt_regs *regs, unsigned long *ip, unsigned int *n);
void prof_orc_timed(struct prof_cpu *pc, struct pt_regs *regs,
		    struct prof_orc_walk *o);
void prof_check(struct prof_cpu *pc, int stop, u64 walk_ns,
		const struct prof_orc_walk *o);

/* main.c: names of the frames of modules gone */
extern char *prof_names[PROF_NAMES];
extern unsigned int prof_nr_names;

/* folded.c, debugfs.c */
extern const struct file_operations prof_folded_fops, prof_modules_fops;
struct dentry *prof_debugfs_create(struct dentry *parent);

#endif /* _KUNWIND_PROF_H */
