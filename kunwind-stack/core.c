// SPDX-License-Identifier: GPL-2.0
/*
 * An ELF core file of an x86-64 Linux process, through libelf.
 *
 * The notes give the threads (NT_PRSTATUS: pid and struct user_regs_struct),
 * the file mappings (NT_FILE) and the auxiliary vector (NT_AUXV: AT_ENTRY
 * says which mapping is the main executable).  The PT_LOAD segments give
 * the memory, one per mapping.  A segment's p_filesz may be less than its
 * p_memsz: with the default coredump_filter (0x33) the kernel dumps only
 * the first page of a read-only file mapping (its ELF header) and none of
 * its text; gdb's gcore does the same.  Those bytes are read from the
 * mapped file, at the mapping's file offset.  Nothing else is invented:
 * a read outside the segments, or past p_filesz of a segment no file
 * backs, fails.
 *
 * A core file is input from anyone: its notes are read with memcpy (a
 * note's descriptor is 4-byte aligned, its words are 8 bytes), and the
 * paths NT_FILE names are opened once each, without blocking, and used
 * only if they are regular files (core_file_fd()).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/procfs.h>
#include <sys/stat.h>
#include <sys/user.h>
#include <unistd.h>
#include "core.h"

struct core_seg {
	uint64_t vaddr, memsz, filesz, offset;
	bool exec;		/* PF_X */
};

/* An open mapped file, shared by the mappings of one path. */
struct core_file {
	const char *path;
	int fd;			/* -1: could not open, do not retry */
};

struct core {
	int fd;
	Elf *elf;
	const uint8_t *image;	/* the whole core file (libelf's mmap) */
	size_t size;
	struct core_seg *seg;	/* sorted by vaddr */
	unsigned int nr_segs, last;
	struct core_thread *thr;
	unsigned int nr_thr;
	struct core_map *map;	/* sorted by start */
	unsigned int nr_maps;
	struct core_file *file;
	unsigned int nr_files;
	uint64_t entry;		/* AT_ENTRY, 0 if unknown */
};

/*
 * Open a file named by the core (or by the user) for reading: not a FIFO,
 * a device or a directory, which could block the open or the reads, or
 * be anything at all.  O_NONBLOCK makes the open of a FIFO return at
 * once; fstat() then refuses it.  An fd or -1, with a message.
 */
static int open_regular(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "kunwind-stack: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "kunwind-stack: %s: not a regular file\n", path);
		close(fd);
		return -1;
	}
	return fd;
}

/* Note words: 8 bytes at a 4-byte aligned address. */
static uint64_t word_at(const uint8_t *p, size_t i)
{
	uint64_t w;

	memcpy(&w, p + 8 * i, sizeof(w));
	return w;
}

static int seg_cmp(const void *a, const void *b)
{
	const struct core_seg *x = a, *y = b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

static int map_cmp(const void *a, const void *b)
{
	const struct core_map *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int add_thread(struct core *c, const void *desc, size_t len)
{
	struct elf_prstatus st;
	struct user_regs_struct regs;
	struct core_thread *t;

	if (len < sizeof(st)) {
		fprintf(stderr, "kunwind: core: NT_PRSTATUS of %zu bytes\n",
			len);
		return -1;
	}
	memcpy(&st, desc, sizeof(st));
	_Static_assert(sizeof(st.pr_reg) == sizeof(regs), "pr_reg layout");
	memcpy(&regs, &st.pr_reg, sizeof(regs));
	t = realloc(c->thr, (c->nr_thr + 1) * sizeof(*t));
	if (!t)
		return -1;
	c->thr = t;
	t += c->nr_thr++;
	t->tid = st.pr_pid;
	t->ip = regs.rip;
	t->sp = regs.rsp;
	t->bp = regs.rbp;
	return 0;
}

/*
 * NT_FILE: count, page size, count * (start, end, offset in pages), then
 * count NUL-terminated paths.
 */
static int add_files(struct core *c, const uint8_t *desc, size_t len)
{
	uint64_t count, pgsize, i;
	const char *name, *end = (const char *)desc + len;

	if (len < 16)
		goto bad;
	count = word_at(desc, 0);
	pgsize = word_at(desc, 1);
	if (count > (len - 16) / 24)
		goto bad;
	c->map = calloc(count ? count : 1, sizeof(*c->map));
	if (!c->map)
		return -1;
	name = (const char *)desc + 8 * (2 + 3 * count);
	for (i = 0; i < count; i++) {
		struct core_map *m = &c->map[i];
		size_t n = strnlen(name, end - name);

		if (name + n >= end)
			goto bad;
		m->start = word_at(desc, 2 + 3 * i);
		m->end = word_at(desc, 3 + 3 * i);
		m->offset = word_at(desc, 4 + 3 * i) * pgsize;
		m->path = name;
		name += n + 1;
	}
	c->nr_maps = count;
	qsort(c->map, c->nr_maps, sizeof(*c->map), map_cmp);
	return 0;
bad:
	fprintf(stderr, "kunwind: core: malformed NT_FILE note\n");
	return -1;
}

static void read_auxv(struct core *c, const uint8_t *desc, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len / 8; i += 2)
		if (word_at(desc, i) == 9)		/* AT_ENTRY */
			c->entry = word_at(desc, i + 1);
}

static int read_notes(struct core *c, const GElf_Phdr *ph)
{
	Elf_Data *d = elf_getdata_rawchunk(c->elf, ph->p_offset, ph->p_filesz,
					   ELF_T_NHDR);
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	if (!d)
		return -1;
	while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off))) {
		const uint8_t *desc = (const uint8_t *)d->d_buf + desc_off;
		const char *name = (const char *)d->d_buf + name_off;

		if (nh.n_namesz != 5 || memcmp(name, "CORE", 5))
			continue;
		switch (nh.n_type) {
		case NT_PRSTATUS:
			if (add_thread(c, desc, nh.n_descsz))
				return -1;
			break;
		case NT_FILE:
			if (c->map)
				break;
			if (add_files(c, desc, nh.n_descsz))
				return -1;
			break;
		case NT_AUXV:
			read_auxv(c, desc, nh.n_descsz);
			break;
		}
	}
	return 0;
}

struct core *core_open(const char *path)
{
	struct core *c = calloc(1, sizeof(*c));
	GElf_Ehdr eh;
	size_t n, i;

	if (!c)
		return NULL;
	elf_version(EV_CURRENT);
	c->fd = open_regular(path);
	if (c->fd < 0)
		goto err;
	c->elf = elf_begin(c->fd, ELF_C_READ_MMAP, NULL);
	if (!c->elf || !gelf_getehdr(c->elf, &eh) || eh.e_type != ET_CORE ||
	    eh.e_machine != EM_X86_64 || gelf_getclass(c->elf) != ELFCLASS64) {
		fprintf(stderr, "kunwind: %s: not an x86-64 ELF core file\n",
			path);
		goto err;
	}
	c->image = (const uint8_t *)elf_rawfile(c->elf, &c->size);
	if (!c->image || elf_getphdrnum(c->elf, &n)) {
		fprintf(stderr, "kunwind: %s: %s\n", path, elf_errmsg(-1));
		goto err;
	}
	c->seg = calloc(n ? n : 1, sizeof(*c->seg));
	if (!c->seg)
		goto err;
	for (i = 0; i < n; i++) {
		struct core_seg *s = &c->seg[c->nr_segs];
		GElf_Phdr ph;

		if (!gelf_getphdr(c->elf, i, &ph))
			continue;
		if (ph.p_type == PT_NOTE) {
			if (read_notes(c, &ph))
				goto err;
			continue;
		}
		if (ph.p_type != PT_LOAD || !ph.p_memsz)
			continue;
		s->vaddr = ph.p_vaddr;
		s->memsz = ph.p_memsz;
		s->offset = ph.p_offset;
		s->exec = ph.p_flags & PF_X;
		s->filesz = ph.p_filesz < ph.p_memsz ? ph.p_filesz : ph.p_memsz;
		/* A truncated core: what is missing is missing. */
		if (s->offset > c->size)
			s->filesz = 0;
		else if (s->filesz > c->size - s->offset)
			s->filesz = c->size - s->offset;
		c->nr_segs++;
	}
	qsort(c->seg, c->nr_segs, sizeof(*c->seg), seg_cmp);
	if (!c->nr_thr) {
		fprintf(stderr, "kunwind: %s: no NT_PRSTATUS note\n", path);
		goto err;
	}
	c->file = calloc(c->nr_maps ? c->nr_maps : 1, sizeof(*c->file));
	if (!c->file)
		goto err;
	return c;
err:
	core_close(c);
	return NULL;
}

void core_close(struct core *c)
{
	unsigned int i;

	if (!c)
		return;
	for (i = 0; i < c->nr_files; i++)
		if (c->file[i].fd >= 0)
			close(c->file[i].fd);
	free(c->file);
	free(c->map);
	free(c->thr);
	free(c->seg);
	if (c->elf)
		elf_end(c->elf);
	if (c->fd >= 0)
		close(c->fd);
	free(c);
}

unsigned int core_nr_threads(const struct core *c)
{
	return c->nr_thr;
}

const struct core_thread *core_thread(const struct core *c, unsigned int i)
{
	return i < c->nr_thr ? &c->thr[i] : NULL;
}

unsigned int core_nr_maps(const struct core *c)
{
	return c->nr_maps;
}

const struct core_map *core_map(const struct core *c, unsigned int i)
{
	return i < c->nr_maps ? &c->map[i] : NULL;
}

const struct core_map *core_map_at(const struct core *c, uint64_t addr)
{
	unsigned int lo = 0, hi = c->nr_maps;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (c->map[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < c->map[lo - 1].end)
		return &c->map[lo - 1];
	return NULL;
}

int core_set_exe(struct core *c, const char *path)
{
	const struct core_map *m = c->entry ? core_map_at(c, c->entry) : NULL;
	const char *old;
	unsigned int i;

	if (!m) {
		fprintf(stderr, "kunwind: core: no mapping holds AT_ENTRY\n");
		return -1;
	}
	old = m->path;		/* points into the note: stays valid */
	for (i = 0; i < c->nr_maps; i++)
		if (!strcmp(c->map[i].path, old))
			c->map[i].path = path;
	return 0;
}

static const struct core_seg *seg_at(struct core *c, uint64_t addr)
{
	const struct core_seg *s = c->nr_segs ? &c->seg[c->last] : NULL;
	unsigned int lo = 0, hi = c->nr_segs;

	/* The walker reads one stack word after the other: try the last. */
	if (s && addr - s->vaddr < s->memsz)
		return s;
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (c->seg[mid].vaddr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - c->seg[lo - 1].vaddr >= c->seg[lo - 1].memsz)
		return NULL;
	c->last = lo - 1;
	return &c->seg[lo - 1];
}

int core_file_fd(struct core *c, const char *path)
{
	unsigned int i;

	for (i = 0; i < c->nr_files; i++)
		if (!strcmp(c->file[i].path, path))
			return c->file[i].fd;
	/* One slot per mapping at most, allocated in core_open(). */
	if (i == c->nr_maps)
		return -1;
	c->file[i].path = path;
	c->file[i].fd = open_regular(path);
	c->nr_files++;
	return c->file[i].fd;
}

/* Up to len bytes at addr from the file mapped there; 0 if none. */
static size_t read_file(struct core *c, uint64_t addr, void *buf, size_t len)
{
	const struct core_map *m = core_map_at(c, addr);
	ssize_t got;
	int fd;

	if (!m || (fd = core_file_fd(c, m->path)) < 0)
		return 0;
	if (len > m->end - addr)
		len = m->end - addr;
	got = pread(fd, buf, len, m->offset + (addr - m->start));
	return got > 0 ? (size_t)got : 0;
}

bool core_read(struct core *c, uint64_t addr, void *buf, size_t len)
{
	const struct core_seg *last = c->nr_segs ? &c->seg[c->last] : NULL;
	uint64_t in = last ? addr - last->vaddr : 0;
	uint8_t *p = buf;

	/* The walker's common case: a word of the stack it read last. */
	if (last && in < last->filesz && len <= last->filesz - in) {
		memcpy(buf, c->image + last->offset + in, len);
		return true;
	}
	while (len) {
		const struct core_seg *s = seg_at(c, addr);
		size_t n;

		if (!s)
			return false;
		in = addr - s->vaddr;
		n = s->memsz - in < len ? s->memsz - in : len;
		if (in < s->filesz) {
			if (n > s->filesz - in)
				n = s->filesz - in;
			memcpy(p, c->image + s->offset + in, n);
		} else if (!(n = read_file(c, addr, p, n))) {
			return false;
		}
		p += n;
		addr += n;
		len -= n;
	}
	return true;
}

bool core_code_at(struct core *c, uint64_t addr)
{
	const struct core_seg *s = seg_at(c, addr);

	return s && s->exec;
}

bool core_segment(struct core *c, uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	const struct core_seg *s = seg_at(c, addr);

	if (!s)
		return false;
	*lo = s->vaddr;
	*hi = s->vaddr + s->memsz;
	return true;
}
