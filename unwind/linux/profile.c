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
 * interrupted user mode is one frame, the task's name.
 *
 * Storage.  Each CPU has two tables, preallocated at start: the handler
 * adds to the active one, aggregating identical stacks in place (a hash
 * of the frames, linear probing, the frames in an arena).  No lock, no
 * allocation; a stack that finds no room is dropped and counted.  A
 * drain (every 100 ms while running, and before every read) flips each
 * CPU's active table, waits for the handlers that may still write the
 * other one (synchronize_rcu(): handlers run with interrupts off), and
 * merges it into the session's table, in process context under
 * prof_mutex.  So a reader sees every sample once, from a table nobody
 * writes.
 *
 * Modules.  Frames are return addresses; a module's frames are named
 * before its code goes: at MODULE_STATE_GOING (its exit has run) the
 * session is drained and every frame inside the module is replaced by
 * the index of its name ("func [module]"), kept for the session; at
 * MODULE_STATE_LIVE, those in its init text, which is freed next.
 *
 * Self-check.  With selfcheck on, each kernel sample is also walked by
 * the kernel's ORC unwinder from the same registers (as arch_stack_walk()
 * does) and the two are compared: equal, different, or ORC incomplete
 * (ORC ended on an error).  The first differences are kept.
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
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <asm/unwind.h>
#include "internal.h"

#define PROF_DEPTH		64	/* frames a sample keeps */
#define PROF_CPU_SLOTS		4096	/* distinct stacks per CPU table */
#define PROF_CPU_WORDS		65536	/* their frames */
#define PROF_SLOTS		131072	/* the session's table */
#define PROF_WORDS		(2048 * 1024)
#define PROF_PROBES		16	/* linear probing, then dropped */
#define PROF_MAX_HZ		100000
#define PROF_DRAIN_MS		100
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
};

struct prof_table {
	struct prof_entry *slot;
	unsigned long *words;
	u32 nr_slots, nr_words;
	u32 used_words;
	unsigned long dropped;
};

struct prof_sample {
	unsigned long ip[PROF_DEPTH];
	unsigned int n;
	u64 regs;
	bool trunc;
};

struct prof_diff {
	unsigned long kun[PROF_DEPTH], orc[PROF_DEPTH];
	unsigned int nk, no;
	int stop;
};

struct prof_cpu {
	struct prof_table tab[2];
	unsigned int active;		/* tab[] the handler writes */
	struct perf_event *event;
	u64 online_ns, online_since;	/* time with an event */
	/* counted by the handler */
	unsigned long samples, user, trunc;
	u64 handler_ns, handler_max_ns;
	unsigned long equal, differ, orc_incomplete;
	u64 walk_ns, orc_ns;		/* self-check: both walks' time */
	struct prof_sample s;		/* the handler's scratch */
	unsigned long orc[PROF_DEPTH];
};

enum prof_event { PROF_CPU_CLOCK, PROF_CYCLES };
static const char *const prof_event_names[] = {
	[PROF_CPU_CLOCK] = "cpu-clock", [PROF_CYCLES] = "cycles",
};

static DEFINE_MUTEX(prof_mutex);	/* everything below but the handler's */
static struct prof_cpu __percpu *prof_cpus;
static struct prof_table prof_agg;	/* the session's stacks */
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

/* ---- tables: the one insert, for the handler and the drain ---------- */

static u32 prof_hash(const unsigned long *w, unsigned int n, u8 flags,
		     u8 stop, u64 regs)
{
	u32 h = jhash(w, n * sizeof(*w), flags | stop << 8);

	h = jhash_2words((u32)regs, (u32)(regs >> 32), h);
	return h ?: 1;
}

static bool prof_same(const struct prof_table *t, const struct prof_entry *e,
		      const unsigned long *w, unsigned int n, u8 flags,
		      u8 stop, u64 regs)
{
	return e->depth == n && e->flags == flags && e->stop == stop &&
	       e->regs == regs &&
	       !memcmp(t->words + e->off, w, n * sizeof(*w));
}

/* Add count samples of a stack; false (and counted) if there is no room. */
static bool prof_add(struct prof_table *t, const unsigned long *w,
		     unsigned int n, u8 flags, u8 stop, u64 regs, u64 count)
{
	u32 h = prof_hash(w, n, flags, stop, regs);
	unsigned int i;

	for (i = 0; i < PROF_PROBES; i++) {
		struct prof_entry *e = &t->slot[(h + i) & (t->nr_slots - 1)];

		if (e->hash == h && prof_same(t, e, w, n, flags, stop, regs)) {
			e->count += count;
			return true;
		}
		if (e->hash)
			continue;
		if (t->used_words + n > t->nr_words)
			break;
		memcpy(t->words + t->used_words, w, n * sizeof(*w));
		e->off = t->used_words;
		t->used_words += n;
		e->depth = n;
		e->flags = flags;
		e->stop = stop;
		e->regs = regs;
		e->count = count;
		e->hash = h;
		return true;
	}
	t->dropped += count;
	return false;
}

static void prof_table_clear(struct prof_table *t)
{
	memset(t->slot, 0, t->nr_slots * sizeof(*t->slot));
	t->used_words = 0;
	t->dropped = 0;
}

static int prof_table_alloc(struct prof_table *t, u32 slots, u32 words)
{
	t->slot = kvcalloc(slots, sizeof(*t->slot), GFP_KERNEL);
	t->words = kvcalloc(words, sizeof(*t->words), GFP_KERNEL);
	t->nr_slots = slots;
	t->nr_words = words;
	t->used_words = 0;
	t->dropped = 0;
	return t->slot && t->words ? 0 : -ENOMEM;
}

static void prof_table_free(struct prof_table *t)
{
	kvfree(t->slot);
	kvfree(t->words);
	t->slot = NULL;
	t->words = NULL;
}

/* Distinct stacks in the session's table. */
static unsigned int prof_stacks(void)
{
	unsigned int i, n = 0;

	for (i = 0; prof_cpus && i < prof_agg.nr_slots; i++)
		n += !!prof_agg.slot[i].hash;
	return n;
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
 * (kunwind_walk_start_regs() takes it).  Returns the stop reason;
 * KUNWIND_STOP_NONE if truncated.
 */
static __kunwind_walk int prof_walk(struct prof_cpu *pc, struct pt_regs *regs)
{
	struct prof_sample *s = &pc->s;
	struct kunwind_walk w;
	bool more;
	int stop;

	s->n = 0;
	s->regs = 0;
	s->trunc = false;
	more = kunwind_walk_start_regs(&w, regs);
	while (more) {
		if (s->n == PROF_DEPTH) {
			s->trunc = true;
			break;
		}
		if (w.frame_flags & KUNWIND_FRAME_REGS)
			s->regs |= 1ULL << s->n;
		s->ip[s->n++] = w.s.ip;
		more = kunwind_walk_next(&w);
	}
	stop = w.s.stop;
	kunwind_walk_end(&w);
	return stop;
}

/* ORC from regs, as arch_stack_walk() drives it; false on an ORC error. */
static bool prof_orc(struct pt_regs *regs, unsigned long *ip, unsigned int *n)
{
	struct unwind_state state;
	unsigned long addr;

	*n = 0;
	ip[(*n)++] = regs->ip;
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

static void prof_check(struct prof_cpu *pc, int stop, u64 walk_ns,
		       const struct prof_orc_walk *o)
{
	struct prof_sample *s = &pc->s;
	unsigned int n = o->n, slot;

	pc->orc_ns += o->ns;
	pc->walk_ns += walk_ns;
	if (n == s->n && !memcmp(pc->orc, s->ip, n * sizeof(*s->ip)) &&
	    o->complete == (stop == KUNWIND_STOP_END || s->trunc)) {
		pc->equal++;
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

		memcpy(d->kun, s->ip, s->n * sizeof(*s->ip));
		memcpy(d->orc, pc->orc, n * sizeof(*s->ip));
		d->nk = s->n;
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
	struct prof_orc_walk o;
	enum prof_mode mode;
	bool check, orc_first;
	int stop;

	mode = READ_ONCE(prof_mode);
	if (mode == PROF_NOOP)
		goto out;
	pc->samples++;
	if (user_mode(regs)) {
		unsigned long comm[TASK_COMM_LEN / sizeof(long)] = {};

		strscpy((char *)comm, current->comm, sizeof(comm));
		pc->user++;
		prof_add(t, comm, ARRAY_SIZE(comm), PROF_USER, KUNWIND_STOP_END,
			 0, 1);
		goto out;
	}
	if (mode == PROF_ORC) {		/* the same profiler on ORC's walk */
		o.complete = prof_orc(regs, s->ip, &s->n);
		prof_add(t, s->ip, s->n, 0, o.complete ? KUNWIND_STOP_END :
			 KUNWIND_STOP_NO_ROW, 1, 1);
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
	prof_add(t, s->ip, s->n, s->trunc ? PROF_TRUNC : 0, stop, s->regs, 1);
	if (check)
		prof_check(pc, stop, t1, &o);
out:
	t1 = local_clock() - t0;
	pc->handler_ns += t1;
	if (t1 > pc->handler_max_ns)
		pc->handler_max_ns = t1;
}

/* ---- events and CPU hotplug ----------------------------------------- */

static int prof_cpu_online(unsigned int cpu)
{
	struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.pinned = 1,
	};
	struct perf_event *ev;

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
	ev = perf_event_create_kernel_counter(&attr, cpu, NULL, prof_handler,
					      NULL);
	if (IS_ERR(ev)) {
		WRITE_ONCE(prof_event_err, PTR_ERR(ev));
		/*
		 * A CPU coming online in a running session goes on without
		 * samples (stats says why), as the perf lockup detector does;
		 * at start the error is the writer's.
		 */
		if (prof_running)
			return 0;
		/* perf's "no such event here" (no PMU: QEMU TCG) */
		return PTR_ERR(ev) == -ENOENT ? -EOPNOTSUPP : PTR_ERR(ev);
	}
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

static void prof_drain(void)
{
	unsigned int cpu, i;

	lockdep_assert_held(&prof_mutex);
	if (!prof_cpus)
		return;
	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);

		WRITE_ONCE(pc->active, !pc->active);
	}
	/* Handlers run with interrupts off: after this none writes the old. */
	synchronize_rcu();
	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);
		struct prof_table *t = &pc->tab[!pc->active];

		for (i = 0; i < t->nr_slots; i++) {
			struct prof_entry *e = &t->slot[i];

			if (e->hash)
				prof_add(&prof_agg, t->words + e->off, e->depth,
					 e->flags, e->stop, e->regs, e->count);
		}
		prof_dropped_cpu += t->dropped;
		prof_table_clear(t);
	}
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

static void prof_free(void)
{
	unsigned int cpu;

	if (prof_cpus) {
		for_each_possible_cpu(cpu) {
			struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);

			prof_table_free(&pc->tab[0]);
			prof_table_free(&pc->tab[1]);
		}
		free_percpu(prof_cpus);
		prof_cpus = NULL;
	}
	prof_table_free(&prof_agg);
}

/* A new session: empty tables, counters at 0.  Stopped only. */
static int prof_reset(void)
{
	unsigned int cpu;
	int err;

	prof_free();
	prof_cpus = alloc_percpu(struct prof_cpu);
	if (!prof_cpus)
		return -ENOMEM;
	err = prof_table_alloc(&prof_agg, PROF_SLOTS, PROF_WORDS);
	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc = per_cpu_ptr(prof_cpus, cpu);

		err = err ?: prof_table_alloc(&pc->tab[0], PROF_CPU_SLOTS,
					      PROF_CPU_WORDS);
		err = err ?: prof_table_alloc(&pc->tab[1], PROF_CPU_SLOTS,
					      PROF_CPU_WORDS);
	}
	if (err) {
		prof_free();
		return err;
	}
	prof_elapsed = 0;
	prof_event_err = 0;
	prof_dropped_cpu = 0;
	atomic_set(&prof_nr_diffs, 0);
	return 0;
}

static int prof_start(void)
{
	int err = 0;

	if (prof_running)
		return 0;
	if (!prof_cpus)
		err = prof_reset();
	if (err)
		return err;
	prof_event_err = 0;
	prof_started = ktime_get_ns();
	err = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "kunwind/profile:online",
				prof_cpu_online, prof_cpu_offline);
	if (err < 0)
		return err;
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

static int prof_module_notify(struct notifier_block *nb, unsigned long val,
			      void *data)
{
	struct module *mod = data;
	bool going = val == MODULE_STATE_GOING;
	unsigned int i, j;

	if (val != MODULE_STATE_GOING && val != MODULE_STATE_LIVE)
		return NOTIFY_DONE;
	mutex_lock(&prof_mutex);
	if (prof_cpus) {
		prof_drain();
		for (i = 0; i < prof_agg.nr_slots; i++) {
			struct prof_entry *e = &prof_agg.slot[i];
			unsigned long *w = prof_agg.words + e->off;

			if (!e->hash || (e->flags & PROF_USER))
				continue;
			for (j = 0; j < e->depth; j++)
				if (w[j] >= PROF_NAMES &&
				    prof_in_module(w[j], mod, going))
					w[j] = prof_name_of(w[j],
							    e->regs & (1ULL << j));
		}
	}
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

/*
 * Folded stacks: outermost frame first.  A walk that did not reach the
 * end of the stack gets a root frame saying why; a user-mode sample is
 * its task's name.  From the copy folded_open() took.
 */
static int folded_show(struct seq_file *m, void *v)
{
	const struct prof_table *t = m->private;
	unsigned int i, j;

	for (i = 0; t && i < t->nr_slots; i++) {
		const struct prof_entry *e = &t->slot[i];
		const unsigned long *w = t->words + e->off;

		if (!e->hash)
			continue;
		if (e->flags & PROF_USER) {
			prof_put_comm(m, (const char *)w);
			seq_printf(m, " (user) %llu\n", e->count);
			continue;
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
	}
	return 0;
}

static void prof_copy_free(struct prof_table *t)
{
	if (t)
		prof_table_free(t);
	kfree(t);
}

/*
 * Drain and copy the session's table, for a file to show: every sample
 * up to the open, however many read() calls take it, rendered (a
 * kallsyms lookup a frame) without holding prof_mutex, which the drains
 * and module loads and unloads need.  An empty table if no session.
 * *size: about what folded prints of it (40 bytes a frame, 48 a line).
 */
static struct prof_table *prof_snapshot(size_t *size)
{
	struct prof_table *t = kzalloc(sizeof(*t), GFP_KERNEL);
	int err = t ? 0 : -ENOMEM;

	*size = 0;
	mutex_lock(&prof_mutex);
	prof_drain();
	if (!err && prof_cpus) {
		err = prof_table_alloc(t, prof_agg.nr_slots,
				       max(prof_agg.used_words, 1U));
		if (!err) {
			memcpy(t->slot, prof_agg.slot,
			       t->nr_slots * sizeof(*t->slot));
			memcpy(t->words, prof_agg.words,
			       prof_agg.used_words * sizeof(*t->words));
			*size = (size_t)prof_agg.used_words * 40 +
				(size_t)prof_stacks() * 48;
		}
	}
	mutex_unlock(&prof_mutex);
	if (err) {
		prof_copy_free(t);
		return ERR_PTR(err);
	}
	return t;
}

/* single_open_size() on a snapshot: folded and modules. */
static int prof_snapshot_open(struct file *file,
			      int (*show)(struct seq_file *, void *))
{
	size_t size;
	struct prof_table *t = prof_snapshot(&size);
	int err;

	if (IS_ERR(t))
		return PTR_ERR(t);
	err = single_open_size(file, show, t,
			       clamp_t(size_t, size, PAGE_SIZE, SZ_256M));
	if (err)
		prof_copy_free(t);
	return err;
}

static int prof_snapshot_release(struct inode *inode, struct file *file)
{
	prof_copy_free(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
}

static int folded_open(struct inode *inode, struct file *file)
{
	return prof_snapshot_open(file, folded_show);
}

static const struct file_operations folded_fops = {
	.owner = THIS_MODULE,
	.open = folded_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = prof_snapshot_release,
};

/* The module of a frame, as %ps names it ("" for vmlinux). */
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
};

static struct prof_mod *prof_mod_get(struct prof_mod *mods, unsigned int *n,
				     unsigned int max, const char *name)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(mods[i].name, name))
			return &mods[i];
	if (*n == max)
		return NULL;
	strscpy(mods[*n].name, name, sizeof(mods[*n].name));
	return &mods[(*n)++];
}

#define PROF_MODS	128

/*
 * Per module: samples whose interrupted ip is in it; walks that stopped
 * in it (before the end of the stack), by reason; and of those the lost
 * ones, at most 2 frames deep: a sample with nothing to show.
 */
static int modules_show(struct seq_file *m, void *v)
{
	const struct prof_table *t = m->private;
	struct prof_mod *mods = kvcalloc(PROF_MODS, sizeof(*mods), GFP_KERNEL);
	unsigned int n = 0, i, r;
	char name[MODULE_NAME_LEN];
	unsigned long total = 0;

	if (!mods)
		return -ENOMEM;
	for (i = 0; i < t->nr_slots; i++) {
		const struct prof_entry *e = &t->slot[i];
		const unsigned long *w = t->words + e->off;
		struct prof_mod *pm;

		if (!e->hash)
			continue;
		total += e->count;
		if (e->flags & PROF_USER || !e->depth)
			strscpy(name, e->flags & PROF_USER ? "(user)" : "(none)",
				sizeof(name));
		else
			prof_module_of(w[0], e->regs & 1, name, sizeof(name));
		pm = prof_mod_get(mods, &n, PROF_MODS, name);
		if (pm)
			pm->samples += e->count;
		if (!prof_entry_stopped(e))
			continue;
		if (e->depth)	/* where it stopped */
			prof_module_of(w[e->depth - 1],
				       e->regs & (1ULL << (e->depth - 1)),
				       name, sizeof(name));
		pm = prof_mod_get(mods, &n, PROF_MODS, name);
		if (!pm)
			continue;
		pm->stopped[e->stop] += e->count;
		if (prof_entry_lost(e))
			pm->lost += e->count;
	}
	seq_printf(m, "# samples %lu; per module: samples (interrupted there), lost (walk stopped there at <= 2 frames), lost %% of all samples, where walks stopped and why\n",
		   total);
	seq_printf(m, "%-24s %10s %8s %8s  %s\n", "module", "samples", "lost",
		   "lost%", "stopped");
	for (i = 0; i < n; i++) {
		struct prof_mod *pm = &mods[i];
		unsigned long permyriad = total ? pm->lost * 10000 / total : 0;

		seq_printf(m, "%-24s %10lu %8lu %5lu.%02lu ", pm->name,
			   pm->samples, pm->lost, permyriad / 100,
			   permyriad % 100);
		for (r = 0; r < KUNWIND_STOP_NR; r++)
			if (pm->stopped[r])
				seq_printf(m, " %s=%lu", kunwind_stop_str(r),
					   pm->stopped[r]);
		seq_putc(m, '\n');
	}
	kvfree(mods);
	return 0;
}

static int modules_open(struct inode *inode, struct file *file)
{
	return prof_snapshot_open(file, modules_show);
}

static const struct file_operations modules_fops = {
	.owner = THIS_MODULE,
	.open = modules_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = prof_snapshot_release,
};

static int stats_show(struct seq_file *m, void *v)
{
	unsigned long samples = 0, user = 0, trunc = 0, lost = 0, stopped = 0;
	unsigned long equal = 0, differ = 0, incomplete = 0, dropped = 0;
	u64 online = 0, handler = 0, handler_max = 0, walk = 0, orc = 0;
	u64 elapsed, now = ktime_get_ns();
	unsigned int cpu, i;

	mutex_lock(&prof_mutex);
	prof_drain();
	cpus_read_lock();	/* the hotplug callbacks' fields hold still */
	now = ktime_get_ns();
	elapsed = prof_elapsed + (prof_running ? now - prof_started : 0);
	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc;

		if (!prof_cpus)
			break;
		pc = per_cpu_ptr(prof_cpus, cpu);
		samples += pc->samples;
		user += pc->user;
		trunc += pc->trunc;
		online += pc->online_ns +
			  (pc->event ? now - pc->online_since : 0);
		handler += pc->handler_ns;
		/* the handler's own, racy on purpose: a statistic */
		handler_max = max(handler_max, data_race(pc->handler_max_ns));
		equal += pc->equal;
		differ += pc->differ;
		incomplete += pc->orc_incomplete;
		walk += pc->walk_ns;
		orc += pc->orc_ns;
	}
	for (i = 0; prof_cpus && i < prof_agg.nr_slots; i++) {
		const struct prof_entry *e = &prof_agg.slot[i];

		if (!e->hash || !prof_entry_stopped(e))
			continue;
		stopped += e->count;
		if (prof_entry_lost(e))
			lost += e->count;
	}
	cpus_read_unlock();
	dropped = prof_agg.dropped + prof_dropped_cpu;
	seq_printf(m, "state: %s\n", prof_running ? "running" : "stopped");
	seq_printf(m, "event: %s\n", prof_event_names[prof_event]);
	seq_printf(m, "event_error: %d\n", prof_event_err);
	seq_printf(m, "requested_hz: %u\n", prof_hz);
	/* per CPU, over the time each CPU had an event */
	seq_printf(m, "achieved_hz: %llu\n",
		   online ? mul_u64_u64_div_u64(samples, NSEC_PER_SEC, online) : 0);
	seq_printf(m, "elapsed_ms: %llu\n", div64_u64(elapsed, NSEC_PER_MSEC));
	seq_printf(m, "cpu_online_ms: %llu\n", div64_u64(online, NSEC_PER_MSEC));
	seq_printf(m, "samples: %lu\n", samples);
	seq_printf(m, "user_samples: %lu\n", user);
	seq_printf(m, "dropped: %lu\n", dropped);
	seq_printf(m, "dropped_cpu_table_full: %lu\n", prof_dropped_cpu);
	seq_printf(m, "dropped_session_table_full: %lu\n", prof_agg.dropped);
	seq_printf(m, "stacks: %u\n", prof_stacks());
	seq_printf(m, "truncated: %lu\n", trunc);
	seq_printf(m, "stopped: %lu\n", stopped);
	seq_printf(m, "lost: %lu\n", lost);
	seq_printf(m, "handler_ns: %llu\n", handler);
	seq_printf(m, "handler_max_ns: %llu\n", handler_max);
	/* handler time over the CPUs' time, in millionths */
	seq_printf(m, "handler_ppm: %llu\n",
		   online ? mul_u64_u64_div_u64(handler, 1000000, online) : 0);
	seq_printf(m, "selfcheck_equal: %lu\n", equal);
	seq_printf(m, "selfcheck_differ: %lu\n", differ);
	seq_printf(m, "selfcheck_orc_incomplete: %lu\n", incomplete);
	seq_printf(m, "selfcheck_kunwind_ns: %llu\n", walk);
	seq_printf(m, "selfcheck_orc_ns: %llu\n", orc);
	mutex_unlock(&prof_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int selfcheck_report_show(struct seq_file *m, void *v)
{
	unsigned long equal = 0, differ = 0, incomplete = 0;
	unsigned int cpu, i, j, nr;

	mutex_lock(&prof_mutex);
	for_each_possible_cpu(cpu) {
		struct prof_cpu *pc;

		if (!prof_cpus)
			break;
		pc = per_cpu_ptr(prof_cpus, cpu);
		equal += pc->equal;
		differ += pc->differ;
		incomplete += pc->orc_incomplete;
	}
	seq_printf(m, "equal: %lu\ndiffer: %lu\norc_incomplete: %lu\n", equal,
		   differ, incomplete);
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
