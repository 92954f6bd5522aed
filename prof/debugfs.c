// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs kunwind/profile/ (prof.h: kunwind_prof.ko), Documentation/
 * kernel.rst "The profiler":
 *   control           start, stop, reset; reads running or stopped
 *   frequency, event  the sampling (while stopped); selfcheck (any time);
 *   handler           kunwind, or the bench's baselines noop and orc
 *   folded, modules   the stacks (folded.c)
 *   stats             the session's counters, then one line a CPU
 *   selfcheck_report  the self-check's counts, fallback steps, differences
 * Root only: the files show kernel symbols.
 */
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "prof.h"
#include "selfcheck.h"

#define PROF_MAX_HZ		100000

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

/* ---- stats, selfcheck_report ------------------------------------------ */

struct prof_totals {
	unsigned long samples, user, trunc, throttled;
	unsigned long thunk, thunk_entry, thunk_stopped;
	unsigned long steps_table, steps_fb[KUNWIND_FALLBACK_NR];
	unsigned long equal, equal_orc, equal_stopped;
	unsigned long equal_fb[KUNWIND_FALLBACK_NR];
	unsigned long differ, gained, incomplete;
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
		s->gained += pc->gained;
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
	if (IS_ENABLED(CONFIG_ARM64))
		seq_printf(m, "selfcheck_gained: %lu\n", s.gained);
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
		err = match_string(prof_mode_names, PROF_MODE_NR, buf);
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

/* ---- the directory ---------------------------------------------------- */

struct dentry *prof_debugfs_create(struct dentry *parent)
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
	debugfs_create_file("folded", 0400, d, NULL, &prof_folded_fops);
	debugfs_create_file("stats", 0400, d, NULL, &stats_fops);
	debugfs_create_file("modules", 0400, d, NULL, &prof_modules_fops);
	debugfs_create_file("selfcheck_report", 0400, d, NULL,
			    &selfcheck_report_fops);
	return d;
}
