// SPDX-License-Identifier: GPL-2.0
/*
 * A sampling profiler on kunwind's walk: per-CPU perf events, each sample
 * the callchain of the interrupted context, aggregated into folded stacks
 * (debugfs kunwind/profile/, Documentation/kernel.rst "The profiler").
 *
 * Sampling.  One kernel perf event per online CPU (created and released
 * by CPU hotplug callbacks, as kernel/watchdog_perf.c does): cpu-clock,
 * an hrtimer whose overflow handler runs in hardirq (the only kind QEMU
 * TCG has), or CPU cycles on a machine with a PMU (the handler runs in
 * NMI).  The handler walks from the interrupted registers; a sample that
 * interrupted user mode is one frame, the task's name.  Each CPU counts
 * its onlines, the onlines after which it took a sample, the error of an
 * event it could not get, and the samples with which perf throttled its
 * event (stats: "cpuN:" lines).
 *
 * Storage.  Each CPU that comes online during a session gets two tables
 * (allocated by its online callback, freed at stop): the handler adds to
 * the active one, aggregating identical stacks in place (a hash of the
 * frames, linear probing, the frames in an arena).  No lock, no
 * allocation; a stack that finds no room is dropped and counted.  A
 * drain (every 100 ms while running, and before every read) flips each
 * CPU's active table, waits for the handlers that may still write the
 * other one (synchronize_rcu(): handlers run with interrupts off), and
 * merges it into the session's table, in process context under
 * prof_mutex; the session's table starts small and doubles as the drains
 * need it.  So a reader sees every sample once, from a table nobody
 * writes.
 *
 * Modules.  Frames are return addresses; a module's frames are named
 * before its code goes: at MODULE_STATE_GOING (its exit has run) the
 * session is drained and every frame inside the module is replaced by
 * the index of its name ("func [module]"), kept for the session; at
 * MODULE_STATE_LIVE, those in its init text, which is freed next.  The
 * same is done in every snapshot a reader holds open (folded, modules),
 * so that a file opened before an unload and read after it still names
 * the module's frames.
 *
 * Self-check.  With selfcheck on, each kernel sample is also walked by
 * the kernel's ORC unwinder from the same registers (as arch_stack_walk()
 * does) and the two are compared: equal (every step by kunwind's tables,
 * or with steps by the ORC fallback, counted), different, or ORC
 * incomplete (ORC ended on an error).  The first differences are kept.
 */
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/ctype.h>
#include <linux/jhash.h>
#include <linux/math64.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <asm/nospec-branch.h>
#include <asm/unwind.h>
#include "internal.h"

#define PROF_DEPTH		64	/* frames a sample keeps */
#define PROF_CPU_SLOTS		4096	/* distinct stacks per CPU table */
#define PROF_CPU_WORDS		65536	/* their frames */
/* The session's table: a CPU table's size at first, doubled up to this. */
#define PROF_SLOTS		131072
#define PROF_WORDS		(2048 * 1024)
#define PROF_PROBES		16	/* linear probing, then dropped */
#define PROF_MAX_HZ		100000
#define PROF_DRAIN_MS		100
#define PROF_DIFFS		8	/* self-check differences kept */
/* A frame word below this is the index of a name (a module gone). */
#define PROF_NAMES		4096
/* Entries of a snapshot summed per prof_mutex hold (modules) */
#define PROF_CHUNK		256
/* perf's MAX_INTERRUPTS (kernel/events/core.c): hw.interrupts throttled */
#define PROF_THROTTLED		(~0ULL)

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
	unsigned long ip[PROF_DEPTH];
	struct prof_entry key;		/* depth, flags, stop, regs, orc, why */
	struct kunwind_steps steps;	/* of the frames kept */
	bool trunc;
};

struct prof_diff {
	unsigned long kun[PROF_DEPTH], orc[PROF_DEPTH];
	unsigned int nk, no;
	int stop;
};

struct prof_cpu {
	struct prof_table tab[2];	/* online this session: see Storage */
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

enum prof_event { PROF_CPU_CLOCK, PROF_CYCLES };
static const char *const prof_event_names[] = {
	[PROF_CPU_CLOCK] = "cpu-clock", [PROF_CYCLES] = "cycles",
};

/* stats' keys for enum kunwind_stop ("stopped_<key>") */
static const char *const prof_stop_keys[] = {
	[KUNWIND_STOP_NONE] = "none",
	[KUNWIND_STOP_END] = "end",
	[KUNWIND_STOP_NO_ROW] = "no_row",
	[KUNWIND_STOP_BAD_READ] = "bad_read",
	[KUNWIND_STOP_SP_DIRECTION] = "sp_direction",
	[KUNWIND_STOP_DEPTH] = "depth",
	[KUNWIND_STOP_UNSUPPORTED] = "unsupported",
	[KUNWIND_STOP_BAD_RA] = "bad_ra",
};
static_assert(ARRAY_SIZE(prof_stop_keys) == KUNWIND_STOP_NR);

/* ... and for enum kunwind_fallback, as debugfs kunwind/stats has them */
static const char *const prof_fallback_keys[] = {
	[KUNWIND_FALLBACK_NO_TABLE] = "no_table",
	[KUNWIND_FALLBACK_NO_ROW] = "no_row",
	[KUNWIND_FALLBACK_STEP_FAILED] = "row_step_failed",
	[KUNWIND_FALLBACK_TRACER] = "tracer_helper_missing",
};
static_assert(ARRAY_SIZE(prof_fallback_keys) == KUNWIND_FALLBACK_NR);

static DEFINE_MUTEX(prof_mutex);	/* everything below but the handler's */
static struct prof_cpu __percpu *prof_cpus;
static struct prof_table prof_agg;	/* the session's stacks */
static LIST_HEAD(prof_snaps);		/* the snapshots open */
/*
 * Names of frames of modules gone, [0] for any that could not get one.
 * Only added to (a reader may use one without prof_mutex), freed at
 * kunwind.ko's exit.
 */
static char *prof_names[PROF_NAMES] = { "[unnamed module frame]" };
static unsigned int prof_nr_names = 1;
static bool prof_running;
static unsigned int prof_hz = 1000;
static enum prof_event prof_event = PROF_CPU_CLOCK;
static bool prof_selfcheck;
/* The handler: kunwind's; the bench's baselines, nothing or ORC's walk. */
enum prof_mode { PROF_KUNWIND, PROF_NOOP, PROF_ORC };
static const char *const prof_mode_names[] = {
	[PROF_KUNWIND] = "kunwind", [PROF_NOOP] = "noop", [PROF_ORC] = "orc",
};
static enum prof_mode prof_mode;
static int prof_cpuhp = -1;
static u64 prof_started, prof_elapsed;
static int prof_event_err;
static unsigned long prof_dropped_cpu;	/* in the per-CPU tables */
static struct prof_diff prof_diffs[PROF_DIFFS];
static atomic_t prof_nr_diffs;
/* The first equal samples with a fallback step: where, and why. */
struct prof_fb_sample {
	unsigned long ip[PROF_DEPTH];
	struct prof_entry key;
};
static struct prof_fb_sample prof_fbs[PROF_DIFFS];
static atomic_t prof_nr_fbs;

/*
 * The retpoline thunks (__x86_indirect_thunk_rax ... _r15, one
 * RETPOLINE_THUNK_SIZE apart): ORC's entry for them is
 * UNWIND_HINT_UNDEFINED (before 6.3, an end of stack).  At a thunk's
 * first instruction (a "call" nothing has pushed before) the frame is a
 * plain call frame (CFA = sp + 8, the return address at sp), which the
 * vmlinux table describes (gen/orc.c): the walk goes on, and such samples
 * are counted apart (stats "retpoline_thunk_entry").  Past it nothing
 * describes the thunk, and a walk from there stops, the sample one frame
 * deep (retpoline_thunk_stopped).
 */
#if defined(CONFIG_MITIGATION_RETPOLINE) || defined(CONFIG_RETPOLINE)
static bool prof_in_thunk(unsigned long ip, bool *entry)
{
	unsigned long lo = (unsigned long)__x86_indirect_thunk_rax;
	unsigned long hi = (unsigned long)__x86_indirect_thunk_r15 +
			   RETPOLINE_THUNK_SIZE;

	*entry = !((ip - lo) % RETPOLINE_THUNK_SIZE);
	return ip >= lo && ip < hi;
}
#else
static bool prof_in_thunk(unsigned long ip, bool *entry)
{
	*entry = false;
	return false;
}
#endif

/* ---- tables: the one insert, for the handler and the drain ---------- */

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
static bool prof_add(struct prof_table *t, const unsigned long *w,
		     const struct prof_entry *k, u64 count)
{
	u32 h = prof_hash(w, k);
	unsigned int i;

	for (i = 0; i < PROF_PROBES; i++) {
		struct prof_entry *e = &t->slot[(h + i) & (t->nr_slots - 1)];

		if (e->hash == h && prof_same(t, e, w, k)) {
			e->count += count;
			return true;
		}
		if (e->hash)
			continue;
		if (t->used_words + k->depth > t->nr_words)
			break;
		memcpy(t->words + t->used_words, w, k->depth * sizeof(*w));
		*e = *k;
		e->off = t->used_words;
		t->used_words += k->depth;
		t->used_slots++;
		e->count = count;
		e->hash = h;
		return true;
	}
	return false;
}

static void prof_table_clear(struct prof_table *t)
{
	memset(t->slot, 0, t->nr_slots * sizeof(*t->slot));
	t->used_slots = 0;
	t->used_words = 0;
	t->dropped = 0;
}

static void prof_table_free(struct prof_table *t)
{
	kvfree(t->slot);
	kvfree(t->words);
	memset(t, 0, sizeof(*t));
}

static int prof_table_alloc(struct prof_table *t, u32 slots, u32 words)
{
	memset(t, 0, sizeof(*t));
	t->slot = kvcalloc(slots, sizeof(*t->slot), GFP_KERNEL);
	t->words = kvcalloc(words, sizeof(*t->words), GFP_KERNEL);
	t->nr_slots = slots;
	t->nr_words = words;
	if (t->slot && t->words)
		return 0;
	prof_table_free(t);
	return -ENOMEM;
}

/*
 * Make room in the session's table for what t holds: double it (up to
 * PROF_SLOTS and PROF_WORDS) while it would be more than half full, or
 * its arena short; with more, at least double its slots (a stack whose
 * probes all found other stacks: linear probing clusters).  Without
 * room, the drain drops what does not fit.
 */
static void prof_agg_grow(const struct prof_table *t, bool more)
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
		return;
	if (prof_table_alloc(&new, slots, words))
		return;
	for (i = 0; i < prof_agg.nr_slots; i++) {
		const struct prof_entry *e = &prof_agg.slot[i];

		if (e->hash && !prof_add(&new, prof_agg.words + e->off, e,
					 e->count))
			new.dropped += e->count;
	}
	new.dropped += prof_agg.dropped;
	prof_table_free(&prof_agg);
	prof_agg = new;
}

/* A kernel sample whose walk ended before the end of the stack. */
static bool prof_entry_stopped(const struct prof_entry *e)
{
	return !(e->flags & (PROF_USER | PROF_TRUNC)) &&
	       e->stop != KUNWIND_STOP_END;
}

/* ... at 2 frames or fewer: a sample with nothing to show. */
static bool prof_entry_lost(const struct prof_entry *e)
{
	return prof_entry_stopped(e) && e->depth <= 2;
}

/* ---- the handler ----------------------------------------------------- */

/*
 * The sample's frames into pc->s, by the walk API itself (no callback a
 * frame) and through this CPU's lookup cache for the handler's context
 * (kunwind_walk_start_regs() takes it), with its steps by tables and by
 * the fallback.  Returns the stop reason; KUNWIND_STOP_NONE if truncated.
 */
static __kunwind_walk int prof_walk(struct prof_cpu *pc, struct pt_regs *regs)
{
	struct prof_sample *s = &pc->s;
	struct prof_entry *k = &s->key;
	struct kunwind_walk w;
	unsigned int n = 0;
	bool more;

	memset(k, 0, sizeof(*k));
	memset(&s->steps, 0, sizeof(s->steps));
	s->trunc = false;
	more = kunwind_walk_start_regs(&w, regs);
	while (more) {
		if (n == PROF_DEPTH) {
			s->trunc = true;
			break;
		}
		if (w.frame_flags & KUNWIND_FRAME_REGS)
			k->regs |= 1ULL << n;
		/* the step to this frame, out of the one before */
		if (n && (w.frame_flags & KUNWIND_FRAME_ORC)) {
			k->orc |= 1ULL << (n - 1);
			k->why[0] |= (u64)(w.fallback & 1) << (n - 1);
			k->why[1] |= (u64)(w.fallback >> 1 & 1) << (n - 1);
			s->steps.fallback[w.fallback]++;
		} else if (n) {
			s->steps.tables++;
		}
		s->ip[n++] = w.s.ip;
		more = kunwind_walk_next(&w);
	}
	k->depth = n;
	k->flags = s->trunc ? PROF_TRUNC : 0;
	k->stop = s->trunc ? KUNWIND_STOP_NONE : w.s.stop;
	kunwind_walk_end(&w);
	return k->stop;
}

/* The reason of the fallback step out of word i of e. */
static unsigned int prof_why(const struct prof_entry *e, unsigned int i)
{
	return (e->why[0] >> i & 1) | (e->why[1] >> i & 1) << 1;
}

/*
 * ORC from regs, as arch_stack_walk() drives it; false on an ORC error.
 * At a retpoline thunk's first instruction ORC stops (its entry is
 * UNWIND_HINT_UNDEFINED, before 6.3 an end of stack), where the frame is
 * a plain call frame that kunwind's table describes (gen/orc.c's thunk
 * rows): the oracle for the rest of the stack is then ORC from the
 * thunk's caller, the return address on top of the stack, looked up at
 * ip - 1 (the call itself) as the interrupted ip ORC takes a regs' ip for.
 */
static bool prof_orc(struct pt_regs *regs, unsigned long *ip, unsigned int *n)
{
	struct unwind_state state;
	struct kunwind_rule rule;
	struct pt_regs caller;
	unsigned long addr;
	bool entry;

	*n = 0;
	ip[(*n)++] = regs->ip;
	/*
	 * Only where kunwind's table has the thunk's row (without the
	 * vmlinux table kunwind takes ORC's step there, and ORC is its own
	 * oracle); a tracer's trampoline there: ORC from regs, which undoes
	 * it.
	 */
	if (prof_in_thunk(regs->ip, &entry) && entry &&
	    kunwind_find_rule(regs->ip, &rule) &&
	    rule.type == KUNWIND_TYPE_CALL &&
	    !get_kernel_nofault(addr, (unsigned long *)regs->sp) &&
	    kunwind_text_address(addr) &&
	    addr != kunwind_sym.return_to_handler &&
	    addr != kunwind_sym.rethook_trampoline) {
		ip[(*n)++] = addr;
		caller = *regs;
		caller.ip = addr - 1;
		caller.sp = regs->sp + sizeof(long);
		regs = &caller;
	}
	for (unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || *n == PROF_DEPTH)
			break;
		ip[(*n)++] = addr;
	}
	return !unwind_error(&state);
}

/* ORC's walk of the sample, timed. */
struct prof_orc_walk {
	unsigned int n;
	bool complete;
	u64 ns;
};

static void prof_orc_timed(struct prof_cpu *pc, struct pt_regs *regs,
			   struct prof_orc_walk *o)
{
	u64 t0 = local_clock();

	o->complete = prof_orc(regs, pc->orc, &o->n);
	o->ns = local_clock() - t0;
}

/*
 * Equal: the same frames, and both walks complete or both not (a walk
 * stopped where ORC stops too, such as in a retpoline thunk: counted in
 * equal_stopped as well).  Equal samples are split by who walked them:
 * every step by kunwind's tables, or some by the ORC fallback (those
 * steps counted), which took the step ORC would and so cannot differ.
 */
static void prof_check(struct prof_cpu *pc, int stop, u64 walk_ns,
		       const struct prof_orc_walk *o)
{
	struct prof_sample *s = &pc->s;
	bool complete = stop == KUNWIND_STOP_END || s->trunc;
	unsigned int n = o->n, nk = s->key.depth, slot, i;

	pc->orc_ns += o->ns;
	pc->walk_ns += walk_ns;
	if (n == nk && !memcmp(pc->orc, s->ip, n * sizeof(*s->ip)) &&
	    o->complete == complete) {
		pc->equal++;
		if (kunwind_steps_fallback(&s->steps)) {
			pc->equal_orc++;
			for (i = 0; i < KUNWIND_FALLBACK_NR; i++)
				pc->equal_fb[i] += s->steps.fallback[i];
			slot = atomic_inc_return(&prof_nr_fbs) - 1;
			if (slot < PROF_DIFFS) {
				memcpy(prof_fbs[slot].ip, s->ip,
				       nk * sizeof(*s->ip));
				prof_fbs[slot].key = s->key;
			}
		}
		if (!complete)
			pc->equal_stopped++;
		return;
	}
	if (!o->complete) {
		pc->orc_incomplete++;
		return;
	}
	pc->differ++;
	slot = atomic_inc_return(&prof_nr_diffs) - 1;
	if (slot < PROF_DIFFS) {
		struct prof_diff *d = &prof_diffs[slot];

		memcpy(d->kun, s->ip, nk * sizeof(*s->ip));
		memcpy(d->orc, pc->orc, n * sizeof(*s->ip));
		d->nk = nk;
		d->no = n;
		d->stop = stop;
	}
}

static void prof_handler(struct perf_event *event,
			 struct perf_sample_data *data, struct pt_regs *regs)
{
	struct prof_cpu *pc = this_cpu_ptr(prof_cpus);
	struct prof_table *t = &pc->tab[READ_ONCE(pc->active)];
	struct prof_sample *s = &pc->s;
	u64 t0 = local_clock(), t1;
	struct prof_entry *k = &s->key;
	struct prof_orc_walk o;
	enum prof_mode mode;
	bool check, orc_first, thunk_entry;
	unsigned int i, n;
	int stop;

	if (!pc->sampled) {
		pc->sampled = true;
		pc->onlines_sampled++;
	}
	/* perf throttles the event with this sample (until the next tick) */
	if (event->hw.interrupts == PROF_THROTTLED)
		pc->throttled++;
	mode = READ_ONCE(prof_mode);
	if (mode == PROF_NOOP)
		goto out;
	pc->samples++;
	if (user_mode(regs)) {
		unsigned long comm[TASK_COMM_LEN / sizeof(long)] = {};

		strscpy((char *)comm, current->comm, sizeof(comm));
		pc->user++;
		memset(k, 0, sizeof(*k));
		k->depth = ARRAY_SIZE(comm);
		k->flags = PROF_USER;
		k->stop = KUNWIND_STOP_END;
		if (!prof_add(t, comm, k, 1))
			t->dropped++;
		goto out;
	}
	if (mode == PROF_ORC) {		/* the same profiler on ORC's walk */
		memset(k, 0, sizeof(*k));
		o.complete = prof_orc(regs, s->ip, &n);
		k->depth = n;
		k->stop = o.complete ? KUNWIND_STOP_END : KUNWIND_STOP_NO_ROW;
		k->regs = 1;
		if (!prof_add(t, s->ip, k, 1))
			t->dropped++;
		goto out;
	}
	/*
	 * The self-check times both walks, taking turns at going first: the
	 * second finds the stack (and under QEMU TCG, its soft TLB) warm.
	 */
	check = READ_ONCE(prof_selfcheck);
	orc_first = check && (pc->samples & 1);
	if (orc_first)
		prof_orc_timed(pc, regs, &o);
	if (check)
		t1 = local_clock();
	stop = prof_walk(pc, regs);
	if (check)
		t1 = local_clock() - t1;
	if (check && !orc_first)
		prof_orc_timed(pc, regs, &o);
	if (s->trunc)
		pc->trunc++;
	pc->steps_table += s->steps.tables;
	for (i = 0; i < KUNWIND_FALLBACK_NR; i++)
		pc->steps_fb[i] += s->steps.fallback[i];
	if (prof_in_thunk(regs->ip, &thunk_entry)) {
		pc->thunk++;
		pc->thunk_entry += thunk_entry;
		/*
		 * Stopped there, or "complete" at the thunk alone: before
		 * 6.3 ORC's entry for it is an end of stack, which a walk
		 * without the vmlinux table's thunk rows takes from ORC.
		 */
		pc->thunk_stopped += (stop != KUNWIND_STOP_END ||
				      k->depth == 1) && !s->trunc;
	}
	if (!prof_add(t, s->ip, k, 1))
		t->dropped++;
	if (check)
		prof_check(pc, stop, t1, &o);
out:
	t1 = local_clock() - t0;
	pc->handler_ns += t1;
	if (t1 > pc->handler_max_ns)
		pc->handler_max_ns = t1;
}

/* ---- events and CPU hotplug ----------------------------------------- */

/*
 * Its tables, if this session has none for it yet (the first online);
 * kept over an offline (its samples are drained later), freed at stop.
 */
static int prof_cpu_tables(struct prof_cpu *pc)
{
	int err;

	if (pc->tab[0].slot)
		return 0;
	err = prof_table_alloc(&pc->tab[0], PROF_CPU_SLOTS, PROF_CPU_WORDS);
	err = err ?: prof_table_alloc(&pc->tab[1], PROF_CPU_SLOTS,
				      PROF_CPU_WORDS);
	if (err)
		prof_table_free(&pc->tab[0]);
	return err;
}

static int prof_cpu_online(unsigned int cpu)
{
	struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.pinned = 1,
	};
	struct perf_event *ev;
	int err;

	if (prof_event == PROF_CYCLES) {
		attr.type = PERF_TYPE_HARDWARE;
		attr.config = PERF_COUNT_HW_CPU_CYCLES;
		attr.freq = 1;
		attr.sample_freq = prof_hz;
	} else {
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = PERF_COUNT_SW_CPU_CLOCK;
		attr.sample_period = NSEC_PER_SEC / prof_hz;
	}
	pc->onlines++;
	pc->sampled = false;
	err = prof_cpu_tables(pc);
	ev = err ? ERR_PTR(err) :
	     perf_event_create_kernel_counter(&attr, cpu, NULL, prof_handler,
					      NULL);
	if (IS_ERR(ev)) {
		pc->event_err = PTR_ERR(ev);
		WRITE_ONCE(prof_event_err, PTR_ERR(ev));
		/*
		 * A CPU coming online in a running session goes on without
		 * samples (stats says why: its event_error, and an online
		 * not followed by a sample), as the perf lockup detector
		 * does; at start the error is the writer's.
		 */
		if (prof_running)
			return 0;
		/* perf's "no such event here" (no PMU: QEMU TCG) */
		return PTR_ERR(ev) == -ENOENT ? -EOPNOTSUPP : PTR_ERR(ev);
	}
	pc->event_err = 0;
	pc->event = ev;
	pc->online_since = ktime_get_ns();
	return 0;
}

static int prof_cpu_offline(unsigned int cpu)
{
	struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);

	if (!pc->event)
		return 0;
	perf_event_disable(pc->event);
	perf_event_release_kernel(pc->event);
	pc->event = NULL;
	pc->online_ns += ktime_get_ns() - pc->online_since;
	return 0;
}

/* ---- the drain ------------------------------------------------------- */

/*
 * CPU hotplug held off: the online callbacks allocate tables, which
 * then hold still until stop.
 */
static void prof_drain(void)
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
		for (i = 0; t->used_slots && i < t->nr_slots; i++) {
			struct prof_entry *e = &t->slot[i];

			if (!e->hash ||
			    prof_add(&prof_agg, t->words + e->off, e, e->count))
				continue;
			prof_agg_grow(t, true);
			if (!prof_add(&prof_agg, t->words + e->off, e, e->count))
				prof_agg.dropped += e->count;
		}
		prof_dropped_cpu += t->dropped;
		if (t->used_slots || t->dropped)
			prof_table_clear(t);
	}
	cpus_read_unlock();
}

static void prof_drain_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(prof_drain_work, prof_drain_fn);

/*
 * Never waits for prof_mutex: prof_stop() cancels this work holding it.
 * Busy: another drain is under way or due; try again later.
 */
static void prof_drain_fn(struct work_struct *work)
{
	if (!mutex_trylock(&prof_mutex)) {
		schedule_delayed_work(&prof_drain_work,
				      msecs_to_jiffies(PROF_DRAIN_MS));
		return;
	}
	if (prof_running) {
		prof_drain();
		schedule_delayed_work(&prof_drain_work,
				      msecs_to_jiffies(PROF_DRAIN_MS));
	}
	mutex_unlock(&prof_mutex);
}

/* ---- start, stop, reset --------------------------------------------- */

/* The per-CPU tables: at stop, after the last drain. */
static void prof_free_cpu_tables(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);

		prof_table_free(&pc->tab[0]);
		prof_table_free(&pc->tab[1]);
	}
}

static void prof_free(void)
{
	if (prof_cpus) {
		prof_free_cpu_tables();
		free_percpu(prof_cpus);
		prof_cpus = NULL;
	}
	prof_table_free(&prof_agg);
}

/* A new session: empty tables, counters at 0.  Stopped only. */
static int prof_reset(void)
{
	int err;

	prof_free();
	prof_cpus = alloc_percpu(struct prof_cpu);
	if (!prof_cpus)
		return -ENOMEM;
	err = prof_table_alloc(&prof_agg, PROF_CPU_SLOTS, PROF_CPU_WORDS);
	if (err) {
		prof_free();
		return err;
	}
	prof_elapsed = 0;
	prof_event_err = 0;
	prof_dropped_cpu = 0;
	atomic_set(&prof_nr_diffs, 0);
	atomic_set(&prof_nr_fbs, 0);
	return 0;
}

static int prof_start(void)
{
	unsigned int cpu;
	int err = 0;

	if (prof_running)
		return 0;
	if (!prof_cpus)
		err = prof_reset();
	if (err)
		return err;
	prof_event_err = 0;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(prof_cpus, cpu)->event_err = 0;
	prof_started = ktime_get_ns();
	err = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "kunwind/profile:online",
				prof_cpu_online, prof_cpu_offline);
	if (err < 0) {
		prof_free_cpu_tables();
		return err;
	}
	prof_cpuhp = err;
	prof_running = true;
	schedule_delayed_work(&prof_drain_work, msecs_to_jiffies(PROF_DRAIN_MS));
	return 0;
}

static void prof_stop(void)
{
	if (!prof_running)
		return;
	cpuhp_remove_state(prof_cpuhp);		/* releases every event */
	prof_cpuhp = -1;
	prof_running = false;
	prof_elapsed += ktime_get_ns() - prof_started;
	cancel_delayed_work_sync(&prof_drain_work);
	prof_drain();
	prof_free_cpu_tables();
}

/* ---- modules going: name their frames -------------------------------- */

static unsigned long prof_name_of(unsigned long ip, bool exact)
{
	char buf[KSYM_SYMBOL_LEN];
	unsigned int i;

	snprintf(buf, sizeof(buf), "%ps", (void *)(exact ? ip : ip - 1));
	for (i = 0; i < prof_nr_names; i++)
		if (!strcmp(prof_names[i], buf))
			return i;
	if (prof_nr_names == PROF_NAMES)
		return 0;
	prof_names[prof_nr_names] = kstrdup(buf, GFP_KERNEL);
	if (!prof_names[prof_nr_names])
		return 0;
	/* the name before the count: readers take names below the count */
	smp_store_release(&prof_nr_names, prof_nr_names + 1);
	return prof_nr_names - 1;
}

/*
 * LIVE: its init text is about to be freed (samples of its init function
 * are named then); GOING: the whole module (its exit function has run).
 */
static bool prof_in_module(unsigned long addr, struct module *mod, bool going)
{
	return going ? within_module(addr, mod) : within_module_init(addr, mod);
}

/* Name the frames of mod in one entry (words w). */
static void prof_name_entry(const struct prof_entry *e, unsigned long *w,
			    struct module *mod, bool going)
{
	unsigned int j;

	if (e->flags & PROF_USER)
		return;
	for (j = 0; j < e->depth; j++)
		if (w[j] >= PROF_NAMES && prof_in_module(w[j], mod, going))
			w[j] = prof_name_of(w[j], e->regs & (1ULL << j));
}

static int prof_module_notify(struct notifier_block *nb, unsigned long val,
			      void *data)
{
	struct module *mod = data;
	bool going = val == MODULE_STATE_GOING;
	struct prof_snap *snap;
	unsigned int i;

	if (val != MODULE_STATE_GOING && val != MODULE_STATE_LIVE)
		return NOTIFY_DONE;
	mutex_lock(&prof_mutex);
	if (prof_cpus) {
		prof_drain();
		for (i = 0; i < prof_agg.nr_slots; i++) {
			struct prof_entry *e = &prof_agg.slot[i];

			if (e->hash)
				prof_name_entry(e, prof_agg.words + e->off,
						mod, going);
		}
	}
	list_for_each_entry(snap, &prof_snaps, node)
		for (i = 0; i < snap->nr; i++)
			prof_name_entry(&snap->ent[i],
					snap->words + snap->ent[i].off,
					mod, going);
	mutex_unlock(&prof_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block prof_module_nb = {
	.notifier_call = prof_module_notify,
};

/* ---- output ----------------------------------------------------------- */

/* One frame's name: "func [module]" or "func", as %ps prints it. */
static void prof_put_frame(struct seq_file *m, unsigned long w, bool exact)
{
	if (w < PROF_NAMES)
		/* pairs with prof_name_of()'s release: the name is there */
		seq_puts(m, w < smp_load_acquire(&prof_nr_names) ?
			 prof_names[w] : prof_names[0]);
	else
		seq_printf(m, "%ps", (void *)(exact ? w : w - 1));
}

/*
 * A task's name, which any task sets (prctl(PR_SET_NAME), its file's
 * name): nothing in it may split a frame, a stack or a line.
 */
static void prof_put_comm(struct seq_file *m, const char *comm)
{
	unsigned int i;

	for (i = 0; i < TASK_COMM_LEN && comm[i]; i++)
		seq_putc(m, isgraph(comm[i]) && comm[i] != ';' ? comm[i] : '_');
}

static void prof_snap_free(struct prof_snap *snap)
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
static struct prof_snap *prof_snapshot(void)
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

/*
 * folded: one stack a record, prof_mutex held from start to stop (one
 * read()'s worth of stacks) so that no module notifier renames a frame
 * while it is printed.
 */
static void *folded_start(struct seq_file *m, loff_t *pos)
{
	struct prof_snap *snap = m->private;

	mutex_lock(&prof_mutex);
	return *pos < snap->nr ? &snap->ent[*pos] : NULL;
}

static void *folded_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct prof_snap *snap = m->private;

	++*pos;
	return *pos < snap->nr ? &snap->ent[*pos] : NULL;
}

static void folded_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&prof_mutex);
}

/*
 * Folded stacks: outermost frame first.  A walk that did not reach the
 * end of the stack gets a root frame saying why; a user-mode sample is
 * its task's name.
 */
static int folded_show(struct seq_file *m, void *v)
{
	const struct prof_snap *snap = m->private;
	const struct prof_entry *e = v;
	const unsigned long *w = snap->words + e->off;
	unsigned int j;

	if (e->flags & PROF_USER) {
		prof_put_comm(m, (const char *)w);
		seq_printf(m, " (user) %llu\n", e->count);
		return 0;
	}
	if (e->flags & PROF_TRUNC)
		seq_puts(m, "[truncated];");
	else if (e->stop != KUNWIND_STOP_END)
		seq_printf(m, "[stopped: %s];", kunwind_stop_str(e->stop));
	for (j = e->depth; j-- > 0;) {
		prof_put_frame(m, w[j], e->regs & (1ULL << j));
		seq_putc(m, j ? ';' : ' ');
	}
	if (!e->depth)
		seq_puts(m, "[no frame] ");
	seq_printf(m, "%llu\n", e->count);
	return 0;
}

static const struct seq_operations folded_sops = {
	.start = folded_start,
	.next = folded_next,
	.stop = folded_stop,
	.show = folded_show,
};

static int folded_open(struct inode *inode, struct file *file)
{
	struct prof_snap *snap = prof_snapshot();
	int err;

	if (IS_ERR(snap))
		return PTR_ERR(snap);
	err = seq_open(file, &folded_sops);
	if (err) {
		prof_snap_free(snap);
		return err;
	}
	((struct seq_file *)file->private_data)->private = snap;
	return 0;
}

static int folded_release(struct inode *inode, struct file *file)
{
	prof_snap_free(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

static const struct file_operations folded_fops = {
	.owner = THIS_MODULE,
	.open = folded_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = folded_release,
};

/* The module of a frame, as %ps names it ("vmlinux" if none). */
static void prof_module_of(unsigned long w, bool exact, char *mod, size_t len)
{
	char buf[KSYM_SYMBOL_LEN];
	const char *p, *q;

	if (w < PROF_NAMES)
		/* pairs with prof_name_of()'s release */
		strscpy(buf, w < smp_load_acquire(&prof_nr_names) ?
			prof_names[w] : "", sizeof(buf));
	else
		snprintf(buf, sizeof(buf), "%ps", (void *)(exact ? w : w - 1));
	p = strchr(buf, '[');
	q = p ? strchr(p, ']') : NULL;
	if (!p || !q) {
		strscpy(mod, "vmlinux", len);
		return;
	}
	strscpy(mod, p + 1, min_t(size_t, len, q - p));
}

struct prof_mod {
	char name[MODULE_NAME_LEN];
	unsigned long samples, lost, stopped[KUNWIND_STOP_NR];
	/* steps out of its frames by the fallback, per reason */
	unsigned long fallback[KUNWIND_FALLBACK_NR];
};

/* The per-module summary modules shows: its entries are mods[0..n). */
struct prof_mods {
	unsigned int n;
	unsigned long total;
	struct prof_mod mods[];
};

#define PROF_MODS	128

static struct prof_mod *prof_mod_get(struct prof_mods *pm, const char *name)
{
	unsigned int i;

	for (i = 0; i < pm->n; i++)
		if (!strcmp(pm->mods[i].name, name))
			return &pm->mods[i];
	if (pm->n == PROF_MODS)
		return NULL;
	strscpy(pm->mods[pm->n].name, name, sizeof(pm->mods[pm->n].name));
	return &pm->mods[pm->n++];
}

/* One entry into the summary. */
static void prof_mods_add(struct prof_mods *pm, const struct prof_entry *e,
			  const unsigned long *w)
{
	char name[MODULE_NAME_LEN];
	struct prof_mod *mod;
	unsigned int j;

	pm->total += e->count;
	if (e->flags & PROF_USER || !e->depth)
		strscpy(name, e->flags & PROF_USER ? "(user)" : "(none)",
			sizeof(name));
	else
		prof_module_of(w[0], e->regs & 1, name, sizeof(name));
	mod = prof_mod_get(pm, name);
	if (mod)
		mod->samples += e->count;
	for (j = 0; j < e->depth; j++) {	/* whose step fell back */
		if (!(e->orc & (1ULL << j)))
			continue;
		prof_module_of(w[j], e->regs & (1ULL << j), name, sizeof(name));
		mod = prof_mod_get(pm, name);
		if (mod)
			mod->fallback[prof_why(e, j)] += e->count;
	}
	if (!prof_entry_stopped(e))
		return;
	if (e->depth)	/* where it stopped */
		prof_module_of(w[e->depth - 1],
			       e->regs & (1ULL << (e->depth - 1)),
			       name, sizeof(name));
	mod = prof_mod_get(pm, name);
	if (!mod)
		return;
	mod->stopped[e->stop] += e->count;
	if (prof_entry_lost(e))
		mod->lost += e->count;
}

/*
 * Per module: samples whose interrupted ip is in it; steps from its
 * frames taken by the ORC fallback; walks that stopped in it (before the
 * end of the stack, at any depth), by reason; and of those the lost
 * ones, at most 2 frames deep: a sample with nothing to show.
 */
static int modules_show(struct seq_file *m, void *v)
{
	const struct prof_mods *pm = m->private;
	unsigned int i, r;

	seq_printf(m, "# samples %lu; per module: samples (interrupted there), lost (walk stopped there at <= 2 frames), lost %% of all samples, where walks stopped (at any depth) and why, steps out of its frames by the ORC fallback and why\n",
		   pm->total);
	seq_printf(m, "%-24s %10s %8s %8s  %s\n", "module", "samples", "lost",
		   "lost%", "stopped, fallback");
	for (i = 0; i < pm->n; i++) {
		const struct prof_mod *mod = &pm->mods[i];
		unsigned long permyriad = pm->total ?
			mod->lost * 10000 / pm->total : 0;

		seq_printf(m, "%-24s %10lu %8lu %5lu.%02lu ", mod->name,
			   mod->samples, mod->lost, permyriad / 100,
			   permyriad % 100);
		for (r = 0; r < KUNWIND_STOP_NR; r++)
			if (mod->stopped[r])
				seq_printf(m, " stopped: %s=%lu",
					   kunwind_stop_str(r), mod->stopped[r]);
		for (r = 0; r < KUNWIND_FALLBACK_NR; r++)
			if (mod->fallback[r])
				seq_printf(m, " fallback: %s=%lu",
					   kunwind_fallback_str(r),
					   mod->fallback[r]);
		seq_putc(m, '\n');
	}
	return 0;
}

/*
 * The summary is made at open, from a snapshot (freed then), PROF_CHUNK
 * entries per prof_mutex hold: a module going meanwhile has its frames
 * named in the snapshot first.  The file holds its lines, no more.
 */
static int modules_open(struct inode *inode, struct file *file)
{
	struct prof_snap *snap = prof_snapshot();
	struct prof_mods *pm;
	unsigned int i;
	int err;

	if (IS_ERR(snap))
		return PTR_ERR(snap);
	pm = kvzalloc(struct_size(pm, mods, PROF_MODS), GFP_KERNEL);
	if (!pm) {
		prof_snap_free(snap);
		return -ENOMEM;
	}
	for (i = 0; i < snap->nr; i++) {
		if (!(i % PROF_CHUNK))
			mutex_lock(&prof_mutex);
		prof_mods_add(pm, &snap->ent[i], snap->words + snap->ent[i].off);
		if (i % PROF_CHUNK == PROF_CHUNK - 1 || i == snap->nr - 1)
			mutex_unlock(&prof_mutex);
	}
	prof_snap_free(snap);
	/* a line is at most ~80 bytes and 8 reasons of ~30 */
	err = single_open_size(file, modules_show, pm, (pm->n + 2) * 400);
	if (err)
		kvfree(pm);
	return err;
}

static int modules_release(struct inode *inode, struct file *file)
{
	kvfree(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
}

static const struct file_operations modules_fops = {
	.owner = THIS_MODULE,
	.open = modules_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = modules_release,
};

struct prof_totals {
	unsigned long samples, user, trunc, throttled;
	unsigned long thunk, thunk_entry, thunk_stopped;
	unsigned long steps_table, steps_fb[KUNWIND_FALLBACK_NR];
	unsigned long equal, equal_orc, equal_stopped;
	unsigned long equal_fb[KUNWIND_FALLBACK_NR];
	unsigned long differ, incomplete;
	unsigned int onlines, onlines_unsampled, cpu_tables;
	u64 online, handler, handler_max, walk, orc;
};

static unsigned long prof_sum_fb(const unsigned long *fb)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < KUNWIND_FALLBACK_NR; i++)
		n += fb[i];
	return n;
}

/* The CPUs' counters summed; prof_mutex and cpus_read_lock() held. */
static void prof_sum(struct prof_totals *s, u64 now)
{
	unsigned int cpu, i;
	u64 max_ns;

	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc;

		if (!prof_cpus)
			break;
		pc = per_cpu_ptr(prof_cpus, cpu);
		s->samples += pc->samples;
		s->user += pc->user;
		s->trunc += pc->trunc;
		s->throttled += pc->throttled;
		s->thunk += pc->thunk;
		s->thunk_entry += pc->thunk_entry;
		s->thunk_stopped += pc->thunk_stopped;
		s->steps_table += pc->steps_table;
		for (i = 0; i < KUNWIND_FALLBACK_NR; i++) {
			s->steps_fb[i] += pc->steps_fb[i];
			s->equal_fb[i] += pc->equal_fb[i];
		}
		s->onlines += pc->onlines;
		s->onlines_unsampled += pc->onlines - pc->onlines_sampled;
		s->cpu_tables += !!pc->tab[0].slot;
		s->online += pc->online_ns +
			     (pc->event ? now - pc->online_since : 0);
		s->handler += pc->handler_ns;
		/* the handler's own, racy on purpose: a statistic */
		max_ns = data_race(pc->handler_max_ns);
		s->handler_max = max(s->handler_max, max_ns);
		s->equal += pc->equal;
		s->equal_orc += pc->equal_orc;
		s->equal_stopped += pc->equal_stopped;
		s->differ += pc->differ;
		s->incomplete += pc->orc_incomplete;
		s->walk += pc->walk_ns;
		s->orc += pc->orc_ns;
	}
}

/*
 * Per CPU that came online this session: its onlines, those followed by
 * a sample (a CPU whose event was not re-created after an online is
 * never sampled again), samples, throttles and its last event error.
 */
static void prof_show_cpus(struct seq_file *m)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc;

		if (!prof_cpus)
			break;
		pc = per_cpu_ptr(prof_cpus, cpu);
		if (!pc->onlines)
			continue;
		seq_printf(m, "cpu%u: onlines=%u sampled_onlines=%u samples=%lu throttled=%lu event_error=%d\n",
			   cpu, pc->onlines, pc->onlines_sampled, pc->samples,
			   pc->throttled, pc->event_err);
	}
}

static int stats_show(struct seq_file *m, void *v)
{
	unsigned long stopped[KUNWIND_STOP_NR] = {}, all = 0, lost = 0;
	unsigned long dropped, table_kib;
	struct prof_totals s;
	u64 elapsed, now;
	unsigned int i;

	mutex_lock(&prof_mutex);
	prof_drain();
	cpus_read_lock();	/* the hotplug callbacks' fields hold still */
	now = ktime_get_ns();
	elapsed = prof_elapsed + (prof_running ? now - prof_started : 0);
	prof_sum(&s, now);
	for (i = 0; prof_cpus && i < prof_agg.nr_slots; i++) {
		const struct prof_entry *e = &prof_agg.slot[i];

		if (!e->hash || !prof_entry_stopped(e))
			continue;
		stopped[e->stop] += e->count;
		all += e->count;
		if (prof_entry_lost(e))
			lost += e->count;
	}
	dropped = prof_agg.dropped + prof_dropped_cpu;
	/* what the tables hold allocated now */
	table_kib = ((unsigned long)s.cpu_tables * 2 *
		     (PROF_CPU_SLOTS * sizeof(struct prof_entry) +
		      PROF_CPU_WORDS * sizeof(long)) +
		     prof_agg.nr_slots * sizeof(struct prof_entry) +
		     prof_agg.nr_words * sizeof(long)) / SZ_1K;
	seq_printf(m, "state: %s\n", prof_running ? "running" : "stopped");
	seq_printf(m, "event: %s\n", prof_event_names[prof_event]);
	seq_printf(m, "event_error: %d\n", prof_event_err);
	seq_printf(m, "requested_hz: %u\n", prof_hz);
	/* per CPU, over the time each CPU had an event */
	seq_printf(m, "achieved_hz: %llu\n", s.online ?
		   mul_u64_u64_div_u64(s.samples, NSEC_PER_SEC, s.online) : 0);
	seq_printf(m, "throttled: %lu\n", s.throttled);
	seq_printf(m, "elapsed_ms: %llu\n", div64_u64(elapsed, NSEC_PER_MSEC));
	seq_printf(m, "cpu_online_ms: %llu\n", div64_u64(s.online, NSEC_PER_MSEC));
	seq_printf(m, "cpu_onlines: %u\n", s.onlines);
	seq_printf(m, "cpu_onlines_unsampled: %u\n", s.onlines_unsampled);
	seq_printf(m, "cpu_tables: %u\n", s.cpu_tables);
	seq_printf(m, "table_kib: %lu\n", table_kib);
	seq_printf(m, "samples: %lu\n", s.samples);
	seq_printf(m, "user_samples: %lu\n", s.user);
	seq_printf(m, "dropped: %lu\n", dropped);
	seq_printf(m, "dropped_cpu_table_full: %lu\n", prof_dropped_cpu);
	seq_printf(m, "dropped_session_table_full: %lu\n", prof_agg.dropped);
	seq_printf(m, "stacks: %u\n", prof_cpus ? prof_agg.used_slots : 0);
	seq_printf(m, "truncated: %lu\n", s.trunc);
	seq_printf(m, "stopped: %lu\n", all);
	for (i = 0; i < KUNWIND_STOP_NR; i++)
		if (i != KUNWIND_STOP_NONE && i != KUNWIND_STOP_END)
			seq_printf(m, "stopped_%s: %lu\n", prof_stop_keys[i],
				   stopped[i]);
	seq_printf(m, "stopped_deep: %lu\n", all - lost);
	seq_printf(m, "lost: %lu\n", lost);
	seq_printf(m, "retpoline_thunk: %lu\n", s.thunk);
	seq_printf(m, "retpoline_thunk_entry: %lu\n", s.thunk_entry);
	seq_printf(m, "retpoline_thunk_stopped: %lu\n", s.thunk_stopped);
	seq_printf(m, "steps_tables: %lu\n", s.steps_table);
	seq_printf(m, "steps_fallback: %lu\n", prof_sum_fb(s.steps_fb));
	for (i = 0; i < KUNWIND_FALLBACK_NR; i++)
		seq_printf(m, "steps_fallback_%s: %lu\n", prof_fallback_keys[i],
			   s.steps_fb[i]);
	seq_printf(m, "handler_ns: %llu\n", s.handler);
	seq_printf(m, "handler_max_ns: %llu\n", s.handler_max);
	/* handler time over the CPUs' time, in millionths */
	seq_printf(m, "handler_ppm: %llu\n", s.online ?
		   mul_u64_u64_div_u64(s.handler, 1000000, s.online) : 0);
	seq_printf(m, "selfcheck_equal: %lu\n", s.equal);
	seq_printf(m, "selfcheck_equal_tables: %lu\n", s.equal - s.equal_orc);
	seq_printf(m, "selfcheck_equal_fallback: %lu\n", s.equal_orc);
	seq_printf(m, "selfcheck_equal_fallback_steps: %lu\n",
		   prof_sum_fb(s.equal_fb));
	for (i = 0; i < KUNWIND_FALLBACK_NR; i++)
		seq_printf(m, "selfcheck_equal_fallback_%s: %lu\n",
			   prof_fallback_keys[i], s.equal_fb[i]);
	seq_printf(m, "selfcheck_equal_stopped: %lu\n", s.equal_stopped);
	seq_printf(m, "selfcheck_differ: %lu\n", s.differ);
	seq_printf(m, "selfcheck_orc_incomplete: %lu\n", s.incomplete);
	seq_printf(m, "selfcheck_kunwind_ns: %llu\n", s.walk);
	seq_printf(m, "selfcheck_orc_ns: %llu\n", s.orc);
	prof_show_cpus(m);
	cpus_read_unlock();
	mutex_unlock(&prof_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int selfcheck_report_show(struct seq_file *m, void *v)
{
	struct prof_totals s;
	unsigned int i, j, nr;

	mutex_lock(&prof_mutex);
	cpus_read_lock();
	prof_sum(&s, ktime_get_ns());
	cpus_read_unlock();
	seq_printf(m, "equal: %lu\ndiffer: %lu\norc_incomplete: %lu\n", s.equal,
		   s.differ, s.incomplete);
	seq_printf(m, "equal, every step by tables: %lu\n",
		   s.equal - s.equal_orc);
	seq_printf(m, "equal with fallback steps: %lu (%lu steps:", s.equal_orc,
		   prof_sum_fb(s.equal_fb));
	for (i = 0; i < KUNWIND_FALLBACK_NR; i++)
		seq_printf(m, "%s %s %lu", i ? "," : "",
			   kunwind_fallback_str(i), s.equal_fb[i]);
	seq_puts(m, ")\n");
	seq_printf(m, "equal, both stopped before the end: %lu\n",
		   s.equal_stopped);
	nr = min_t(unsigned int, atomic_read(&prof_nr_fbs), PROF_DIFFS);
	for (i = 0; i < nr; i++) {
		const struct prof_entry *k = &prof_fbs[i].key;

		for (j = 0; j < k->depth; j++)
			if (k->orc & (1ULL << j))
				seq_printf(m, "fallback %u: frame %u of %u, %pS: %s\n",
					   i, j, k->depth,
					   (void *)(prof_fbs[i].ip[j] -
						    !(k->regs & (1ULL << j))),
					   kunwind_fallback_str(prof_why(k, j)));
	}
	nr = min_t(unsigned int, atomic_read(&prof_nr_diffs), PROF_DIFFS);
	for (i = 0; i < nr; i++) {
		const struct prof_diff *d = &prof_diffs[i];

		seq_printf(m, "difference %u: kunwind %u frames (%s), ORC %u frames\n",
			   i, d->nk, kunwind_stop_str(d->stop), d->no);
		for (j = 0; j < max(d->nk, d->no); j++)
			seq_printf(m, "  %2u %-48pS %pS\n", j,
				   j < d->nk ? (void *)d->kun[j] : NULL,
				   j < d->no ? (void *)d->orc[j] : NULL);
	}
	mutex_unlock(&prof_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(selfcheck_report);

/* ---- control files --------------------------------------------------- */

static ssize_t prof_write_word(const char __user *ubuf, size_t len,
			       char *buf, size_t size)
{
	if (len >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);
	return len;
}

static int control_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s\n", READ_ONCE(prof_running) ? "running" : "stopped");
	return 0;
}

static int control_open(struct inode *inode, struct file *file)
{
	return single_open(file, control_show, NULL);
}

static ssize_t control_write(struct file *file, const char __user *ubuf,
			     size_t len, loff_t *ppos)
{
	char buf[16];
	ssize_t ret = prof_write_word(ubuf, len, buf, sizeof(buf));
	int err = 0;

	if (ret < 0)
		return ret;
	mutex_lock(&prof_mutex);
	if (!strcmp(buf, "start"))
		err = prof_start();
	else if (!strcmp(buf, "stop"))
		prof_stop();
	else if (!strcmp(buf, "reset"))
		err = prof_running ? -EBUSY : prof_reset();
	else
		err = -EINVAL;
	mutex_unlock(&prof_mutex);
	return err ?: ret;
}

static const struct file_operations control_fops = {
	.owner = THIS_MODULE,
	.open = control_open,
	.read = seq_read,
	.write = control_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int settings_show(struct seq_file *m, void *v)
{
	const char *what = m->private;

	if (!strcmp(what, "frequency"))
		seq_printf(m, "%u\n", prof_hz);
	else if (!strcmp(what, "event"))
		seq_printf(m, "%s\n", prof_event_names[prof_event]);
	else if (!strcmp(what, "selfcheck"))
		seq_printf(m, "%d\n", prof_selfcheck);
	else
		seq_printf(m, "%s\n", prof_mode_names[prof_mode]);
	return 0;
}

static int settings_open(struct inode *inode, struct file *file)
{
	return single_open(file, settings_show, inode->i_private);
}

/* frequency and event change only while stopped; selfcheck any time. */
static ssize_t settings_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *ppos)
{
	const char *what = ((struct seq_file *)file->private_data)->private;
	char buf[16];
	ssize_t ret = prof_write_word(ubuf, len, buf, sizeof(buf));
	unsigned int val;
	int err = 0;

	if (ret < 0)
		return ret;
	mutex_lock(&prof_mutex);
	if (!strcmp(what, "selfcheck")) {
		err = kstrtouint(buf, 0, &val) ?: val > 1 ? -EINVAL : 0;
		if (!err)
			WRITE_ONCE(prof_selfcheck, val);
	} else if (prof_running) {
		err = -EBUSY;
	} else if (!strcmp(what, "frequency")) {
		err = kstrtouint(buf, 0, &val) ?:
		      !val || val > PROF_MAX_HZ ? -EINVAL : 0;
		if (!err)
			prof_hz = val;
	} else if (!strcmp(what, "event")) {
		if (!strcmp(buf, "cpu-clock"))
			prof_event = PROF_CPU_CLOCK;
		else if (!strcmp(buf, "cycles"))
			prof_event = PROF_CYCLES;
		else
			err = -EINVAL;
	} else {	/* handler: the bench's baselines */
		err = match_string(prof_mode_names, ARRAY_SIZE(prof_mode_names),
				   buf);
		if (err >= 0) {
			WRITE_ONCE(prof_mode, err);
			err = 0;
		}
	}
	mutex_unlock(&prof_mutex);
	return err ?: ret;
}

static const struct file_operations settings_fops = {
	.owner = THIS_MODULE,
	.open = settings_open,
	.read = seq_read,
	.write = settings_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* ---- init ------------------------------------------------------------ */

void kunwind_profile_debugfs(struct dentry *parent)
{
	struct dentry *d = debugfs_create_dir("profile", parent);
	static const char *const settings[] = {
		"frequency", "event", "selfcheck", "handler",
	};
	unsigned int i;

	debugfs_create_file("control", 0600, d, NULL, &control_fops);
	for (i = 0; i < ARRAY_SIZE(settings); i++)
		debugfs_create_file(settings[i], 0600, d, (void *)settings[i],
				    &settings_fops);
	debugfs_create_file("folded", 0400, d, NULL, &folded_fops);
	debugfs_create_file("stats", 0400, d, NULL, &stats_fops);
	debugfs_create_file("modules", 0400, d, NULL, &modules_fops);
	debugfs_create_file("selfcheck_report", 0400, d, NULL,
			    &selfcheck_report_fops);
}

int kunwind_profile_init(void)
{
	return register_module_notifier(&prof_module_nb);
}

/* After debugfs is gone: nobody can start a session any more. */
void kunwind_profile_exit(void)
{
	unsigned int i;

	mutex_lock(&prof_mutex);
	prof_stop();
	prof_free();
	mutex_unlock(&prof_mutex);
	unregister_module_notifier(&prof_module_nb);
	for (i = 1; i < prof_nr_names; i++)
		kfree(prof_names[i]);
}
