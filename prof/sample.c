// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's sampling (prof.h: kunwind_prof.ko): per-CPU perf
 * events, each sample the callchain of the interrupted context, walked
 * by kunwind_save_frames() and added to this CPU's table (table.c).
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
 * A session: control's start, stop and reset (debugfs.c), under
 * prof_mutex.
 */
#include <linux/cpuhotplug.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include "prof.h"
#include "selfcheck.h"

/* A drain's period, at the highest and the lowest rates: prof_drain_ms(). */
#define PROF_DRAIN_MIN_MS	100
#define PROF_DRAIN_MAX_MS	10000
/* perf's MAX_INTERRUPTS (kernel/events/core.c): hw.interrupts throttled */
#define PROF_THROTTLED		(~0ULL)

const char *const prof_event_names[] = {
	[PROF_CPU_CLOCK] = "cpu-clock", [PROF_CYCLES] = "cycles",
};

static_assert(ARRAY_SIZE(prof_event_names) == PROF_EVENT_NR);

const char *const prof_mode_names[] = {
	[PROF_KUNWIND] = "kunwind", [PROF_NOOP] = "noop",
	/* the kernel's own unwinder: ORC, or arm64's frame records */
	[PROF_ORC] = IS_ENABLED(CONFIG_ARM64) ? "fp" : "orc",
};

static_assert(ARRAY_SIZE(prof_mode_names) == PROF_MODE_NR);

/* Settings (debugfs.c writes them under prof_mutex) and the session's. */
bool prof_running;
unsigned int prof_hz = 1000;
enum prof_event prof_event = PROF_CPU_CLOCK;
bool prof_selfcheck;
enum prof_mode prof_mode;
static int prof_cpuhp = -1;
u64 prof_started, prof_elapsed;
int prof_event_err;

/* ---- the handler ----------------------------------------------------- */

/*
 * The sample's frames into pc->s, by kunwind_save_frames() (no callback
 * a frame), with their steps by tables and by the fallback.  Returns the
 * stop reason; KUNWIND_STOP_NONE if truncated.
 */
static int prof_walk(struct prof_cpu *pc, struct pt_regs *regs)
{
	struct prof_sample *s = &pc->s;
	struct prof_entry *k = &s->key;
	unsigned int i, n;
	int stop;

	memset(k, 0, sizeof(*k));
	memset(&s->steps, 0, sizeof(s->steps));
	stop = kunwind_save_frames(NULL, regs, s->frame, PROF_DEPTH, &n);
	s->trunc = stop == KUNWIND_STOP_NONE && n == PROF_DEPTH;
	for (i = 0; i < n; i++) {
		const struct kunwind_frame *f = &s->frame[i];

		if (f->flags & KUNWIND_FRAME_REGS)
			k->regs |= 1ULL << i;
		/* the step to this frame, out of the one before */
		if (i && (f->flags & KUNWIND_FRAME_ORC)) {
			k->orc |= 1ULL << (i - 1);
			k->why[0] |= (u64)(f->fallback & 1) << (i - 1);
			k->why[1] |= (u64)(f->fallback >> 1 & 1) << (i - 1);
			s->steps.fallback[f->fallback]++;
		} else if (i) {
			s->steps.tables++;
		}
		s->ip[i] = f->ip;
	}
	k->depth = n;
	k->flags = s->trunc ? PROF_TRUNC : 0;
	k->stop = s->trunc ? KUNWIND_STOP_NONE : stop;
	return k->stop;
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
	if (prof_in_thunk(instruction_pointer(regs), &thunk_entry)) {
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
		prof_check(pc, regs, stop, t1, &o);
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
	err = prof_table_alloc(&pc->tab[0], PROF_CPU_SLOTS, PROF_CPU_WORDS,
			       PROF_CPU_PROBES);
	err = err ?: prof_table_alloc(&pc->tab[1], PROF_CPU_SLOTS,
				      PROF_CPU_WORDS, PROF_CPU_PROBES);
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

static void prof_drain_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(prof_drain_work, prof_drain_fn);

/*
 * Drain while running as often as a CPU's table may fill a quarter of its
 * slots, and no more often: its words hold PROF_CPU_WORDS / PROF_DEPTH
 * (1,024) samples of the deepest stacks, taken at the session's rate in
 * about 10 s at 100 Hz, 1 s at 1 kHz, 100 ms at 10 kHz.  Each drain
 * waits for a grace period in a kworker: at a fixed 100 ms, that was most
 * of the profiler's cost at 100 Hz (bench/README.md).  Reads drain first.
 */
static unsigned long prof_drain_ms(void)
{
	unsigned long ms = PROF_CPU_WORDS / PROF_DEPTH * MSEC_PER_SEC /
			   max(prof_hz, 1U);

	return clamp_t(unsigned long, ms, PROF_DRAIN_MIN_MS, PROF_DRAIN_MAX_MS);
}

/*
 * Never waits for prof_mutex: prof_stop() cancels this work holding it.
 * Busy: another drain is under way or due; try again later.
 */
static void prof_drain_fn(struct work_struct *work)
{
	if (!mutex_trylock(&prof_mutex)) {
		schedule_delayed_work(&prof_drain_work,
				      msecs_to_jiffies(prof_drain_ms()));
		return;
	}
	if (prof_running) {
		prof_drain();
		schedule_delayed_work(&prof_drain_work,
				      msecs_to_jiffies(prof_drain_ms()));
	}
	mutex_unlock(&prof_mutex);
}

/* ---- start, stop, reset --------------------------------------------- */

/* A new session: empty tables, counters at 0.  Stopped only. */
int prof_reset(void)
{
	int err = prof_tables_alloc();

	if (err)
		return err;
	prof_elapsed = 0;
	prof_event_err = 0;
	atomic_set(&prof_nr_diffs, 0);
	atomic_set(&prof_nr_fbs, 0);
	return 0;
}

int prof_start(void)
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
	schedule_delayed_work(&prof_drain_work, msecs_to_jiffies(prof_drain_ms()));
	return 0;
}

void prof_stop(void)
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
