// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/kunwind/
 *   tables  each registered table: name, bytes, rules, bias, and its
 *           segments (section, run-time base, size, rows, state)
 *   stats   walk counters: walks, frames, ORC fallback steps, and how the
 *           walks ended (one line per stop reason)
 *   profile/  the sampling profiler's (kunwind_prof.ko, prof/)
 * Root only: the tables file shows kernel addresses.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include "counters.h"
#include "debugfs.h"
#include "registry.h"

static struct dentry *kunwind_dir;

static int tables_show(struct seq_file *m, void *v)
{
	kunwind_registry_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tables);

static int stats_show(struct seq_file *m, void *v)
{
	int c;

	for (c = 0; c < KUNWIND_CNT_NR; c++) {
		if (c == KUNWIND_CNT_STOP + KUNWIND_STOP_NONE)
			seq_printf(m, "stop: %-22s %lu\n", "by the caller",
				   kunwind_counter_read(c));
		else
			seq_printf(m, "%s%-*s %lu\n",
				   c >= KUNWIND_CNT_STOP ? "stop: " : "",
				   c >= KUNWIND_CNT_STOP ? 22 : 28,
				   kunwind_counter_name(c),
				   kunwind_counter_read(c));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

void kunwind_debugfs_init(void)
{
	kunwind_dir = debugfs_create_dir("kunwind", NULL);
	debugfs_create_file("tables", 0400, kunwind_dir, NULL, &tables_fops);
	debugfs_create_file("stats", 0400, kunwind_dir, NULL, &stats_fops);
}

void kunwind_debugfs_exit(void)
{
	debugfs_remove_recursive(kunwind_dir);
}
