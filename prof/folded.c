// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs kunwind/profile/folded and modules (prof.h: kunwind_prof.ko):
 * the session's stacks, from a snapshot taken at open (table.c), as
 * folded stacks and per module.
 */
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "prof.h"

/* Entries of a snapshot summed per prof_mutex hold (modules) */
#define PROF_CHUNK		256

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

const struct file_operations prof_folded_fops = {
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

const struct file_operations prof_modules_fops = {
	.owner = THIS_MODULE,
	.open = modules_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = modules_release,
};
