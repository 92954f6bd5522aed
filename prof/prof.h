/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind_prof.ko, the sampling profiler on kunwind's walk: what its
 * files share.  A user of kunwind's exported API (kunwind_api.h) and of
 * nothing else of kunwind's; enum kunwind_stop is unwind/kunwind.h's, as
 * kunwind_api.h says.
 *
 *   table.c      the stack tables: per CPU, the session's, snapshots
 *                (table.h)
 *   sample.c     the sample handler, CPU hotplug, start / stop / reset
 *   selfcheck.c  each sample walked by ORC too, and compared
 *                (selfcheck.h)
 *   folded.c     debugfs folded and modules: the stacks, rendered
 *   debugfs.c    debugfs stats, selfcheck_report, control, settings
 *   main.c       init, exit, naming the frames of modules that go
 *
 * Locking: prof_mutex (table.c) for everything but the handler's own
 * counters and the table it writes (table.c, "Storage").
 */
#ifndef _KUNWIND_PROF_H
#define _KUNWIND_PROF_H

#include <linux/types.h>
#include "kunwind_api.h"
#include "table.h"

struct dentry;
struct perf_event;

#define PROF_DEPTH		64	/* frames a sample keeps */

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
	unsigned long gained;		/* arm64: the caller frame records lost */
	u64 walk_ns, orc_ns;		/* self-check: both walks' time */
	struct prof_sample s;		/* the handler's scratch */
	unsigned long orc[PROF_DEPTH];
};

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

/* main.c: names of the frames of modules gone */
extern char *prof_names[PROF_NAMES];
extern unsigned int prof_nr_names;

/* folded.c, debugfs.c */
extern const struct file_operations prof_folded_fops, prof_modules_fops;
struct dentry *prof_debugfs_create(struct dentry *parent);

#endif /* _KUNWIND_PROF_H */
