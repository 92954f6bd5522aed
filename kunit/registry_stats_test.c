// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_registry (registry_test.c), its cases on what kunwind
 * tells of itself: the walk counters, and the debugfs files that print
 * them and the registered tables, read as a user would.
 */
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include "unwind/linux/counters.h"
#include "unwind/linux/kwalk.h"
#include "unwind/linux/registry.h"
#include "main.h"
#include "registry_test.h"
#include "trace.h"

/*
 * debugfs files are seq_files without read_iter, which kernel_read()
 * refuses: a shell copies the file to the initramfs (ramfs), read from
 * there.  Nothing walks meanwhile, so the copy is of this instant.
 */
static char *read_debugfs(struct kunit *test, const char *name)
{
	char cmd[128], path[64];
	struct file *f;
	char *buf;
	loff_t pos = 0;
	ssize_t n, len = 0;
	int err;

	snprintf(path, sizeof(path), "/tmp/kunwind-%s", name);
	snprintf(cmd, sizeof(cmd), "cat /sys/kernel/debug/kunwind/%s > %s",
		 name, path);
	err = kt_run("/bin/sh", "-c", cmd);
	if (err) {
		KUNIT_FAIL(test, "%s: exit %d", cmd, err);
		return NULL;
	}
	f = filp_open(path, O_RDONLY, 0);
	if (IS_ERR(f)) {
		KUNIT_FAIL(test, "open %s: %ld", path, PTR_ERR(f));
		return NULL;
	}
	buf = kunit_kzalloc(test, 16384, GFP_KERNEL);
	while (buf && len < 16383 &&
	       (n = kernel_read(f, buf + len, 16383 - len, &pos)) > 0)
		len += n;
	filp_close(f, NULL);
	return buf;
}

/* The number on the line of counter name, as debugfs prints it. */
static bool stats_value(const char *buf, const char *line_start,
			unsigned long *val)
{
	size_t n = strlen(line_start), len;
	const char *p = buf;
	char num[24];

	while (p && *p) {
		if (!strncmp(p, line_start, n) && p[n] == ' ') {
			p += n;
			while (*p == ' ')
				p++;
			len = strcspn(p, "\n");
			if (len >= sizeof(num))
				return false;
			memcpy(num, p, len);
			num[len] = '\0';
			return !kstrtoul(num, 10, val);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

static noinline void walk_to_no_row(void)
{
	unsigned long fake[2] = { 0, 0 };
	struct kunwind_kstate w;

	/* ip: data, no table, no ORC entry: the fallback fails too. */
	kunwind_walk_start(&w, NULL, (unsigned long)fake, (unsigned long)fake,
			   0, false);
	while (kunwind_walk_next(&w))
		;
	kunwind_walk_end(&w);
}

void registry_stats_count_walks_and_stop_reasons(struct kunit *test)
{
	enum kunwind_counter end = KUNWIND_CNT_STOP + KUNWIND_STOP_END;
	enum kunwind_counter no_row = KUNWIND_CNT_STOP + KUNWIND_STOP_NO_ROW;
	unsigned long walks = kunwind_counter_read(KUNWIND_CNT_WALKS);
	unsigned long ends = kunwind_counter_read(end);
	unsigned long no_rows = kunwind_counter_read(no_row);
	unsigned long failed = kunwind_counter_read(KUNWIND_CNT_ORC_FAILED);
	unsigned long frames = kunwind_counter_read(KUNWIND_CNT_FRAMES);
	unsigned long store[KT_MAX_FRAMES], v;
	unsigned int n;
	char line[40];
	char *buf;

	n = kunwind_save(store, KT_MAX_FRAMES, 0, NULL);
	walk_to_no_row();
	KUNIT_EXPECT_EQ(test, kunwind_counter_read(KUNWIND_CNT_WALKS), walks + 2);
	KUNIT_EXPECT_EQ(test, kunwind_counter_read(end), ends + 1);
	KUNIT_EXPECT_EQ(test, kunwind_counter_read(no_row), no_rows + 1);
	KUNIT_EXPECT_EQ(test, kunwind_counter_read(KUNWIND_CNT_ORC_FAILED), failed + 1);
	KUNIT_EXPECT_GE(test, kunwind_counter_read(KUNWIND_CNT_FRAMES), frames + n);

	buf = read_debugfs(test, "stats");
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_TRUE_MSG(test, stats_value(buf, "walks", &v) &&
			      v == kunwind_counter_read(KUNWIND_CNT_WALKS),
			      "stats file:\n%s", buf);
	snprintf(line, sizeof(line), "stop: %s", kunwind_stop_str(KUNWIND_STOP_END));
	KUNIT_EXPECT_TRUE_MSG(test, stats_value(buf, line, &v) &&
			      v == kunwind_counter_read(end),
			      "no \"%s\" line matching the counter in:\n%s", line, buf);
	snprintf(line, sizeof(line), "stop: %s", kunwind_stop_str(KUNWIND_STOP_NO_ROW));
	KUNIT_EXPECT_TRUE_MSG(test, stats_value(buf, line, &v) &&
			      v == kunwind_counter_read(no_row),
			      "no \"%s\" line matching the counter in:\n%s", line, buf);
}

void registry_debugfs_tables_lists_registrations(struct kunit *test)
{
	char *buf = read_debugfs(test, "tables");

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "kunwind_test "),
				  "kunwind_test missing in:\n%s", buf);
	/* Listed if registered (not built in: registry_vmlinux_table_registered) */
	if (kunwind_module_registration(NULL))
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(buf, "vmlinux"),
					  "vmlinux missing in:\n%s", buf);
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, ".text"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "live"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(buf, "looked-up segments: "));
	KUNIT_EXPECT_NULL_MSG(test, strstr(buf, HELPER),
			      "the unloaded helper is still listed:\n%s", buf);
	KUNIT_EXPECT_NULL(test, strstr(buf, BADTABLE));
}
