// SPDX-License-Identifier: GPL-2.0
/*
 * Which table describes an address, decided without kunwind's registry.
 *
 * A walk that takes the ORC fallback says why (no table, no row, ...);
 * the comparison with ORC (trace.c) must check that reason against
 * something the walk did not use.  The walk found its table through the
 * registry (kunwind_registry_seg()); this file finds it again from what
 * the loader and the build produced:
 *
 *   vmlinux   the table file itself, vmlinux.kunwind, which
 *             tests/harness/kunit-run.sh copies into the initramfs next to the
 *             link-time addresses of two exported functions
 *             (vmlinux.map, from System.map): the run-time place of the
 *             table's segments is link address + the KASLR offset those
 *             two measure.  Built in (CONFIG_KUNWIND=y) there is no
 *             vmlinux table by design (Documentation/kernel.rst).
 *   modules   the module owning the address, named by kallsyms
 *             (sprint_symbol(): "fn+off/size [mod]"), then its own
 *             .kunwind section where the loader put it,
 *             /sys/module/<mod>/sections/.kunwind; the table is copied
 *             with copy_from_kernel_nofault() (the module may be going)
 *             and its .text segment must sit at
 *             /sys/module/<mod>/sections/.text, where the loader placed
 *             the text, or the answer is "unknown" (a failure).
 *
 * The row is then the core's pure lookup (kunwind_table_check(),
 * kunwind_seg_at(), kunwind_seg_rule(): unwind/lookup.c) on that copy.
 * Process context only: files are read.
 */
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/kernel_read_file.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "main.h"
#include "oracle.h"

static const char *const cover_str[KT_COVER_NR] = {
	[KT_COVER_ROW]		= "a row kunwind follows",
	[KT_COVER_NOT_FOLLOWED]	= "a row kunwind does not follow",
	[KT_COVER_GAP]		= "its table has no row there",
	[KT_COVER_NO_TABLE]	= "no table describes that text",
	[KT_COVER_UNKNOWN]	= "the oracle could not tell",
};

const char *kt_cover_str(enum kt_cover c)
{
	return (unsigned int)c < KT_COVER_NR ? cover_str[c] : "?";
}

/* ---- vmlinux: the table file ---- */

static DEFINE_MUTEX(kt_vmlinux_lock);
static struct {
	bool loaded;
	const struct kunwind_hdr *table;	/* vmalloc'ed, checked */
	unsigned long bias;			/* run-time - link-time */
	char why[96];				/* no table, or why unknown */
	bool unknown;
} kt_vmlinux;

/* A whole file of the initramfs, vmalloc'ed; its size in *len. */
static void *read_whole(const char *name, size_t *len, int *err)
{
	char *path = kasprintf(GFP_KERNEL, "%s/%s", kt_module_dir, name);
	void *buf = NULL;
	ssize_t n;

	if (!path) {
		*err = -ENOMEM;
		return NULL;
	}
	n = kernel_read_file_from_path(path, 0, &buf, INT_MAX, NULL,
				       READING_UNKNOWN);
	kfree(path);
	if (n < 0) {
		*err = n;
		return NULL;
	}
	*len = n;
	return buf;
}

/* In System.map's format ("ffffffff81234560 T sprint_symbol"), name's address. */
static unsigned long map_addr(const char *map, size_t len, const char *name)
{
	const char *p = map, *end = map + len, *nl;
	size_t n = strlen(name);
	char hex[17];

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		/* 16 hex digits, a space, a type letter, a space, the name */
		if (nl - p == 19 + n && p[16] == ' ' && p[18] == ' ' &&
		    !memcmp(p + 19, name, n)) {
			unsigned long v;

			memcpy(hex, p, 16);
			hex[16] = '\0';
			if (!kstrtoul(hex, 16, &v))
				return v;
		}
	}
	return 0;
}

static void vmlinux_load(void)
{
	size_t len = 0, map_len = 0;
	void *table, *map;
	unsigned long a, b;
	enum kunwind_bad bad;
	int err = 0;

	if (IS_BUILTIN(CONFIG_KUNWIND)) {
		strscpy(kt_vmlinux.why, "built in: no vmlinux table by design",
			sizeof(kt_vmlinux.why));
		return;
	}
	kt_vmlinux.unknown = true;
	table = read_whole("vmlinux.kunwind", &len, &err);
	if (!table) {
		snprintf(kt_vmlinux.why, sizeof(kt_vmlinux.why),
			 "%s/vmlinux.kunwind: error %d", kt_module_dir, err);
		return;
	}
	bad = kunwind_table_check(table, len);
	map = read_whole("vmlinux.map", &map_len, &err);
	if (bad || !map) {
		snprintf(kt_vmlinux.why, sizeof(kt_vmlinux.why),
			 bad ? "vmlinux.kunwind: %s" : "%s/vmlinux.map: error %d",
			 bad ? kunwind_bad_str(bad) : kt_module_dir, err);
		vfree(table);
		vfree(map);
		return;
	}
	/* Two anchors, so that a map of another kernel is caught. */
	a = map_addr(map, map_len, "sprint_symbol");
	b = map_addr(map, map_len, "msleep");
	vfree(map);
	if (!a || !b || (unsigned long)sprint_symbol - a != (unsigned long)msleep - b) {
		snprintf(kt_vmlinux.why, sizeof(kt_vmlinux.why),
			 "vmlinux.map: sprint_symbol %lx, msleep %lx: not this kernel's",
			 a, b);
		vfree(table);
		return;
	}
	kt_vmlinux.table = table;
	kt_vmlinux.bias = (unsigned long)sprint_symbol - a;
	kt_vmlinux.unknown = false;
}

/* ---- modules: their own .kunwind section ---- */

/*
 * The address in /sys/module/<mod>/sections/<sec>; 0 with *err -ENOENT if
 * there is no such file (no such module, or no such section in it).
 */
static unsigned long sect_addr(const char *mod, const char *sec, int *err)
{
	char *path = kasprintf(GFP_KERNEL, "/sys/module/%s/sections/%s", mod, sec);
	char buf[32] = "";
	unsigned long addr = 0;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	*err = -ENOMEM;
	if (!path)
		return 0;
	f = filp_open(path, O_RDONLY, 0);
	kfree(path);
	if (IS_ERR(f)) {
		*err = PTR_ERR(f);
		return 0;
	}
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	*err = n < 0 ? n : -EINVAL;
	if (n > 0) {
		buf[n] = '\0';
		strim(buf);
		/* "0x0000000000000000": addresses hidden from this reader */
		if (!kstrtoul(buf, 0, &addr) && addr)
			*err = 0;
	}
	return addr;
}

/* kallsyms' module of addr ("fn+0x1/0x2 [mod]"), false for vmlinux or none. */
static bool owner_module(unsigned long addr, char *mod, size_t size)
{
	char s[KSYM_SYMBOL_LEN];
	char *open, *close;

	sprint_symbol(s, addr);
	open = strstr(s, " [");
	close = open ? strchr(open, ']') : NULL;
	if (!close || close - open - 2 >= size)
		return false;
	memcpy(mod, open + 2, close - open - 2);
	mod[close - open - 2] = '\0';
	return true;
}

/* The segment of t named name, NULL if none. */
static const struct kunwind_seg *seg_named(const struct kunwind_hdr *t,
					   const char *name)
{
	unsigned int i;

	for (i = 0; i < t->nr_segs; i++)
		if (!strcmp(kunwind_seg_name(t, &kunwind_segs(t)[i]), name))
			return &kunwind_segs(t)[i];
	return NULL;
}

/* ---- the answer ---- */

static enum kt_cover from_table(const struct kunwind_hdr *t, unsigned long addr,
				struct kt_cover_info *ci)
{
	const struct kunwind_seg *seg = kunwind_seg_at(t, addr);

	if (!seg) {
		ci->why = "outside every segment of its table";
		return KT_COVER_NO_TABLE;
	}
	ci->seg = kunwind_seg_name(t, seg);
	ci->rule = *kunwind_seg_rule(t, seg, addr - seg->base);
	switch (ci->rule.type) {
	case KUNWIND_TYPE_NONE:
		return KT_COVER_GAP;
	case KUNWIND_TYPE_UNDEFINED:
	case KUNWIND_TYPE_UNSUPPORTED:
		return KT_COVER_NOT_FOLLOWED;
	default:
		return KT_COVER_ROW;
	}
}

#define KT_MAX_TABLE	(64 << 20)

static enum kt_cover module_cover(unsigned long addr, struct kt_cover_info *ci)
{
	const struct kunwind_seg *text_seg;
	struct kunwind_hdr hdr, *t;
	unsigned long sec, text;
	enum kunwind_bad bad;
	enum kt_cover c;
	int err;

	sec = sect_addr(ci->table, ".kunwind", &err);
	if (err == -ENOENT) {
		ci->why = "the module has no .kunwind section";
		return KT_COVER_NO_TABLE;
	}
	if (err) {
		ci->why = "/sys/module/<mod>/sections/.kunwind unreadable";
		return KT_COVER_UNKNOWN;
	}
	if (copy_from_kernel_nofault(&hdr, (void *)sec, sizeof(hdr)) ||
	    hdr.size < sizeof(hdr) || hdr.size > KT_MAX_TABLE) {
		ci->why = "its .kunwind section is no table (unreadable, or its size)";
		return KT_COVER_NO_TABLE;
	}
	t = kvmalloc(hdr.size, GFP_KERNEL);
	if (!t) {
		ci->why = "no memory for a copy of its table";
		return KT_COVER_UNKNOWN;
	}
	if (copy_from_kernel_nofault(t, (void *)sec, hdr.size)) {
		ci->why = "its table could not be read (module gone?)";
		c = KT_COVER_UNKNOWN;
		goto out;
	}
	bad = kunwind_table_check(t, hdr.size);
	if (bad) {
		/* A refused table describes nothing (the bad-table module). */
		ci->why = kunwind_bad_str(bad);
		c = KT_COVER_NO_TABLE;
		goto out;
	}
	/* Relocated where the loader put the text, or no answer. */
	text_seg = seg_named(t, ".text");
	text = sect_addr(ci->table, ".text", &err);
	if (text_seg && (err || text_seg->base != text)) {
		ci->why = "its table's .text is not at the module's .text";
		c = KT_COVER_UNKNOWN;
		goto out;
	}
	c = from_table(t, addr, ci);
out:
	kvfree(t);
	return c;
}

enum kt_cover kt_cover(unsigned long addr, struct kt_cover_info *ci)
{
	memset(ci, 0, sizeof(*ci));
	mutex_lock(&kt_vmlinux_lock);
	if (!kt_vmlinux.loaded) {
		vmlinux_load();
		kt_vmlinux.loaded = true;
	}
	mutex_unlock(&kt_vmlinux_lock);

	if (kt_vmlinux.table &&
	    kunwind_seg_at(kt_vmlinux.table, addr - kt_vmlinux.bias)) {
		strscpy(ci->table, "vmlinux", sizeof(ci->table));
		if (owner_module(addr, ci->table, sizeof(ci->table))) {
			ci->why = "in vmlinux's table and in a module";
			return KT_COVER_UNKNOWN;
		}
		return from_table(kt_vmlinux.table, addr - kt_vmlinux.bias, ci);
	}
	if (owner_module(addr, ci->table, sizeof(ci->table)))
		return module_cover(addr, ci);
	strscpy(ci->table, "vmlinux", sizeof(ci->table));
	if (kt_vmlinux.unknown) {
		ci->why = kt_vmlinux.why;
		return KT_COVER_UNKNOWN;
	}
	ci->why = kt_vmlinux.table ? "not in vmlinux's table, and in no module" :
				     kt_vmlinux.why;
	return KT_COVER_NO_TABLE;
}

void kt_cover_release(void)
{
	mutex_lock(&kt_vmlinux_lock);
	vfree(kt_vmlinux.table);
	memset(&kt_vmlinux, 0, sizeof(kt_vmlinux));
	mutex_unlock(&kt_vmlinux_lock);
}
