// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind-gen embed: put a module's table into the module's own .o, so
 * that modfinal links it into the .ko (one file to ship, signed with it)
 * and the kernel's module loader relocates it:
 *
 *   .kunwind        SHF_ALLOC, align 8: the table, segment bases 0
 *   .rela.kunwind   one R_X86_64_64 per segment, at its base field,
 *                   against the STT_SECTION symbol of its text section
 *   __kunwind_table GLOBAL STT_OBJECT at .kunwind + 0, sized; the kernel
 *                   finds the table by this name in the module's symtab
 *
 * The relocations are RELA with the base fields left 0: x86's
 * apply_relocate_add() refuses a non-zero field.  A later `ld -r` (the
 * .ko link) rewrites them against its own section symbols, so merged or
 * moved text sections stay right.
 *
 * Embedding again replaces the table, its relocations and the symbol's
 * size in place: `make` twice is harmless and a rebuilt .o (which has no
 * .kunwind) gets a fresh table.  The file is written to a temporary copy
 * and renamed, so an interrupted build never leaves a half-written .o.
 *
 * A table with no segment (an object without code, or without any CFI,
 * hint or ORC) is not embedded: the object is left as it is.
 *
 * This file and elf.c are the two that use libelf: elf.c reads, this
 * writes.  It also writes `kunwind-gen build`'s table file, the same way
 * (kgen_write_file()).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gen.h"

#define TABLE_SEC	".kunwind"
#define RELA_SEC	".rela.kunwind"
#define TABLE_SYM	"__kunwind_table"

struct embed {
	const char *path;		/* the input, for messages */
	void *table;
	size_t len;
	unsigned int *seg_shndx;	/* per segment: its text section */
	size_t nr_segs;

	Elf *elf;
	Elf_Scn *symtab, *xndx, *strtab, *shstrtab;
	Elf_Data *symd, *xndxd;
	size_t nr_syms;
	/* malloc'ed buffers handed to libelf, freed after elf_end() */
	void *keep[8];
	unsigned int nr_keep;
};

static void *keep(struct embed *m, size_t len)
{
	void *p;

	if (m->nr_keep == ARRAY_SIZE(m->keep))
		return NULL;
	p = calloc(1, len ? len : 1);
	if (p)
		m->keep[m->nr_keep++] = p;
	return p;
}

static bool has_code(const struct kelf *e)
{
	unsigned int i;

	for (i = 1; i < kelf_nr_secs(e); i++) {
		const struct ksec *s = kelf_sec(e, i);

		if (s && (s->flags & SHF_EXECINSTR) && s->size)
			return true;
	}
	return false;
}

/*
 * The table of in, as `kunwind-gen build` makes it, and each segment's
 * section; m->nr_segs 0 if it would be empty.
 */
static int build(struct embed *m)
{
	struct cfi_stats cs;
	struct table_stats ts;
	const struct kunwind_hdr *h;
	struct kelf *e;
	size_t k;
	int ret = -1;

	e = kelf_open(m->path);
	if (!e)
		return -1;
	if (kelf_type(e) != ET_REL) {
		fprintf(stderr, "kunwind-gen: %s: not a relocatable object (.o)\n",
			m->path);
		goto out;
	}
	m->seg_shndx = calloc(kelf_nr_secs(e) + 1, sizeof(*m->seg_shndx));
	if (!m->seg_shndx) {
		fprintf(stderr, "kunwind-gen: %s: out of memory\n", m->path);
		goto out;
	}
	m->table = kgen_build(e, NULL, 0, &m->len, &cs, &ts, m->seg_shndx);
	if (!m->table)
		goto out;
	if (cs.fdes_bad)
		fprintf(stderr,
			"kunwind-gen: %s: %zu FDEs with invalid CFI, unsupported from there on\n",
			m->path, cs.fdes_bad);
	h = m->table;
	m->nr_segs = h->nr_segs;
	/*
	 * A table without segments describes nothing, and the kernel would
	 * refuse it with a warning at every load: the object is left as it
	 * is, and this is no error, so that a module without code (or
	 * built without unwind information) still builds.
	 */
	if (!m->nr_segs) {
		if (has_code(e))
			fprintf(stderr,
				"kunwind-gen: %s: no unwind rows (no .debug_frame or .eh_frame: built without CONFIG_DEBUG_INFO?; no hint, no ORC): no table embedded\n",
				m->path);
		else
			fprintf(stderr, "kunwind-gen: %s: no code: no table embedded\n",
				m->path);
		ret = 0;
		goto out;
	}
	/* RELA: the base fields must be 0, the loader adds S + A. */
	for (k = 0; k < m->nr_segs; k++)
		((struct kunwind_seg *)&kunwind_segs(h)[k])->base = 0;
	ret = 0;
out:
	kelf_close(e);
	return ret;
}

static int elf_fail(const struct embed *m, const char *what)
{
	fprintf(stderr, "kunwind-gen: %s: %s: %s\n", m->path, what, elf_errmsg(-1));
	return -1;
}

/* Bytes in a section that libelf will write: the sum of its data chunks. */
static size_t scn_size(Elf_Scn *scn)
{
	Elf_Data *d = NULL;
	size_t n = 0;

	while ((d = elf_getdata(scn, d)))
		n = ((n + (d->d_align ? d->d_align : 1) - 1) &
		     ~((d->d_align ? d->d_align : 1) - 1)) + d->d_size;
	return n;
}

/* Append bytes to a section as a new data chunk; returns their offset. */
static long append(struct embed *m, Elf_Scn *scn, const void *p, size_t len,
		   Elf_Type type, size_t align)
{
	size_t off = (scn_size(scn) + align - 1) & ~(align - 1);
	void *buf = keep(m, len);
	Elf_Data *d;

	if (!buf)
		return -1;
	d = elf_newdata(scn);
	if (!d)
		return -1;
	memcpy(buf, p, len);
	d->d_buf = buf;
	d->d_size = len;
	d->d_type = type;
	d->d_align = align;
	d->d_version = EV_CURRENT;
	elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
	return off;
}

static long add_string(struct embed *m, Elf_Scn *scn, const char *s)
{
	return append(m, scn, s, strlen(s) + 1, ELF_T_BYTE, 1);
}

/* Replace the only data chunk of scn (or make one) with buf. */
static int set_data(struct embed *m, Elf_Scn *scn, const char *name,
		    void *buf, size_t len, Elf_Type type)
{
	Elf_Data *d = elf_getdata(scn, NULL);

	if (!d)
		d = elf_newdata(scn);
	if (!d)
		return elf_fail(m, "elf_newdata");
	if (elf_getdata(scn, d)) {
		fprintf(stderr, "kunwind-gen: %s: %s has several data chunks\n",
			m->path, name);
		return -1;
	}
	d->d_buf = buf;
	d->d_size = len;
	d->d_type = type;
	d->d_align = 8;
	d->d_off = 0;
	d->d_version = EV_CURRENT;
	elf_flagdata(d, ELF_C_SET, ELF_F_DIRTY);
	return 0;
}

static unsigned int sym_shndx(const struct embed *m, size_t i, GElf_Sym *s)
{
	Elf32_Word x = 0;

	if (!gelf_getsymshndx(m->symd, m->xndxd, i, s, &x))
		return SHN_UNDEF;
	return s->st_shndx == SHN_XINDEX ? x : s->st_shndx;
}

/*
 * The symbol to relocate a segment base against, and the addend: the
 * section symbol of its text section, as the design says.  gas (since
 * binutils 2.37) leaves out section symbols nothing refers to; the FDEs'
 * relocations make one for every section with CFI, but a hint-only
 * section may lack it: then any symbol defined in the section, with
 * -st_value as the addend, gives the same address.
 */
static int seg_symbol(const struct embed *m, unsigned int shndx, size_t *sym,
		      s64 *addend)
{
	bool found = false;
	size_t i;

	for (i = 1; i < m->nr_syms; i++) {
		GElf_Sym s;

		if (sym_shndx(m, i, &s) != shndx ||
		    s.st_shndx == SHN_UNDEF || s.st_shndx == SHN_ABS ||
		    s.st_shndx == SHN_COMMON)
			continue;
		if (GELF_ST_TYPE(s.st_info) == STT_SECTION) {
			*sym = i;
			*addend = 0;
			return 0;
		}
		if (!found && GELF_ST_TYPE(s.st_info) != STT_FILE) {
			found = true;
			*sym = i;
			*addend = -(s64)s.st_value;
		}
	}
	return found ? 0 : -1;
}

static int find_sections(struct embed *m, Elf_Scn **table, Elf_Scn **rela)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	if (elf_getshdrstrndx(m->elf, &shstrndx))
		return elf_fail(m, "elf_getshdrstrndx");
	m->shstrtab = elf_getscn(m->elf, shstrndx);
	*table = *rela = NULL;
	while ((scn = elf_nextscn(m->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return elf_fail(m, "gelf_getshdr");
		name = elf_strptr(m->elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB)
			m->symtab = scn;
		else if (sh.sh_type == SHT_SYMTAB_SHNDX)
			m->xndx = scn;
		if (!name)
			continue;
		if (!strcmp(name, TABLE_SEC))
			*table = scn;
		else if (!strcmp(name, RELA_SEC) && sh.sh_type == SHT_RELA)
			*rela = scn;
	}
	if (!m->symtab || !m->shstrtab) {
		fprintf(stderr, "kunwind-gen: %s: no symbol table\n", m->path);
		return -1;
	}
	m->symd = elf_getdata(m->symtab, NULL);
	if (!gelf_getshdr(m->symtab, &sh) || !sh.sh_entsize || !m->symd)
		return elf_fail(m, ".symtab");
	m->nr_syms = sh.sh_size / sh.sh_entsize;
	m->strtab = elf_getscn(m->elf, sh.sh_link);
	if (!m->strtab || !elf_getdata(m->strtab, NULL))
		return elf_fail(m, ".strtab");
	m->xndxd = m->xndx ? elf_getdata(m->xndx, NULL) : NULL;
	if (m->xndx && !m->xndxd)
		return elf_fail(m, ".symtab_shndx");
	/* Read every section we append to before appending (libelf). */
	if (!elf_getdata(m->shstrtab, NULL))
		return elf_fail(m, ".shstrtab");
	return 0;
}

/* Make (or reuse) the table section and its relocation section. */
static int put_sections(struct embed *m, Elf_Scn **table, Elf_Scn **rela)
{
	GElf_Rela *r;
	GElf_Shdr sh;
	long name = -1;
	const struct kgen_arch *arch =
		kgen_arch_of_table(kunwind_table_arch(m->table));
	size_t k;

	/* ".kunwind" is the tail of ".rela.kunwind": one string for both. */
	if (!*table || !*rela) {
		name = add_string(m, m->shstrtab, RELA_SEC);
		if (name < 0)
			return elf_fail(m, "adding section names");
	}
	if (!*table) {
		*table = elf_newscn(m->elf);
		if (!*table || !gelf_getshdr(*table, &sh))
			return elf_fail(m, "elf_newscn");
		sh.sh_name = name + strlen(RELA_SEC) - strlen(TABLE_SEC);
	} else if (!gelf_getshdr(*table, &sh)) {
		return elf_fail(m, "gelf_getshdr");
	}
	sh.sh_type = SHT_PROGBITS;
	sh.sh_flags = SHF_ALLOC;
	sh.sh_addr = 0;
	sh.sh_size = m->len;
	sh.sh_addralign = 8;
	sh.sh_entsize = 0;
	sh.sh_link = 0;
	sh.sh_info = 0;
	if (!gelf_update_shdr(*table, &sh) ||
	    set_data(m, *table, TABLE_SEC, m->table, m->len, ELF_T_BYTE))
		return elf_fail(m, TABLE_SEC);

	r = keep(m, m->nr_segs * sizeof(*r));
	if (!r)
		return elf_fail(m, "out of memory");
	for (k = 0; k < m->nr_segs; k++) {
		size_t sym;
		s64 addend;

		if (seg_symbol(m, m->seg_shndx[k], &sym, &addend)) {
			fprintf(stderr,
				"kunwind-gen: %s: no symbol in text section %u to relocate the table against\n",
				m->path, m->seg_shndx[k]);
			return -1;
		}
		r[k].r_offset = sizeof(struct kunwind_hdr) +
				k * sizeof(struct kunwind_seg) +
				offsetof(struct kunwind_seg, base);
		r[k].r_info = GELF_R_INFO(sym, arch->r_abs64);
		r[k].r_addend = addend;
	}
	if (!*rela) {
		*rela = elf_newscn(m->elf);
		if (!*rela || !gelf_getshdr(*rela, &sh))
			return elf_fail(m, "elf_newscn");
		sh.sh_name = name;
	} else if (!gelf_getshdr(*rela, &sh)) {
		return elf_fail(m, "gelf_getshdr");
	}
	sh.sh_type = SHT_RELA;
	sh.sh_flags = SHF_INFO_LINK;
	sh.sh_addr = 0;
	sh.sh_size = m->nr_segs * sizeof(Elf64_Rela);
	sh.sh_addralign = 8;
	sh.sh_entsize = sizeof(Elf64_Rela);
	sh.sh_link = elf_ndxscn(m->symtab);
	sh.sh_info = elf_ndxscn(*table);
	if (!gelf_update_shdr(*rela, &sh) ||
	    set_data(m, *rela, RELA_SEC, r, m->nr_segs * sizeof(*r), ELF_T_RELA))
		return elf_fail(m, RELA_SEC);
	return 0;
}

/*
 * __kunwind_table: updated if there (from an earlier embed, or an
 * undefined reference: the module's own code may use `extern const u8
 * __kunwind_table[]`, which this defines), else appended.  Appending keeps
 * .symtab's sh_info (index of the first non-local symbol) right, as the
 * symbol is global.
 */
static int put_symbol(struct embed *m, Elf_Scn *table)
{
	size_t kidx = elf_ndxscn(table), i;
	Elf32_Word x = kidx >= SHN_LORESERVE ? kidx : 0;
	GElf_Sym s = {
		.st_info = GELF_ST_INFO(STB_GLOBAL, STT_OBJECT),
		.st_other = STV_DEFAULT,
		.st_shndx = kidx >= SHN_LORESERVE ? SHN_XINDEX : kidx,
		.st_value = 0,
		.st_size = m->len,
	};
	GElf_Shdr sh;

	if (!gelf_getshdr(m->symtab, &sh))
		return elf_fail(m, "gelf_getshdr");
	for (i = 1; i < m->nr_syms; i++) {
		GElf_Sym old;
		const char *name;

		if (!gelf_getsym(m->symd, i, &old))
			continue;
		name = elf_strptr(m->elf, sh.sh_link, old.st_name);
		if (!name || strcmp(name, TABLE_SYM) ||
		    (GELF_ST_BIND(old.st_info) != STB_GLOBAL &&
		     GELF_ST_BIND(old.st_info) != STB_WEAK))
			continue;
		s.st_name = old.st_name;
		if (!gelf_update_symshndx(m->symd, m->xndxd, i, &s, x))
			return elf_fail(m, "gelf_update_symshndx");
		elf_flagdata(m->symd, ELF_C_SET, ELF_F_DIRTY);
		if (m->xndxd)
			elf_flagdata(m->xndxd, ELF_C_SET, ELF_F_DIRTY);
		return 0;
	}

	{
		long name = add_string(m, m->strtab, TABLE_SYM);
		Elf64_Sym raw;

		if (name < 0)
			return elf_fail(m, "adding the symbol name");
		raw.st_name = name;
		raw.st_info = s.st_info;
		raw.st_other = s.st_other;
		raw.st_shndx = s.st_shndx;
		raw.st_value = s.st_value;
		raw.st_size = s.st_size;
		if (append(m, m->symtab, &raw, sizeof(raw), ELF_T_SYM, 8) < 0)
			return elf_fail(m, "adding " TABLE_SYM);
		if (m->xndx && append(m, m->xndx, &x, sizeof(x), ELF_T_WORD, 4) < 0)
			return elf_fail(m, "adding to .symtab_shndx");
	}
	return 0;
}

static int edit(struct embed *m, const char *tmp)
{
	Elf_Scn *table, *rela;
	int fd, ret = -1;

	elf_version(EV_CURRENT);
	fd = open(tmp, O_RDWR);
	if (fd < 0) {
		perror(tmp);
		return -1;
	}
	m->elf = elf_begin(fd, ELF_C_RDWR, NULL);
	if (!m->elf) {
		elf_fail(m, "elf_begin");
		goto out;
	}
	if (find_sections(m, &table, &rela) || put_sections(m, &table, &rela) ||
	    put_symbol(m, table))
		goto out;
	if (elf_update(m->elf, ELF_C_WRITE) < 0) {
		elf_fail(m, "elf_update");
		goto out;
	}
	ret = 0;
out:
	if (m->elf)
		elf_end(m->elf);
	if (close(fd) && !ret) {
		perror(tmp);
		ret = -1;
	}
	return ret;
}

/* All of p to fd; -1 with errno set if it cannot be written. */
static int write_all(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0)
			return -1;
		if (!w) {
			errno = EIO;
			return -1;
		}
		p = (const char *)p + w;
		n -= w;
	}
	return 0;
}

static int copy_file(const char *from, const char *to, int out)
{
	struct stat st;
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY);

	if (in < 0 || fstat(in, &st)) {
		perror(from);
		goto err;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, n)) {
			perror(to);
			goto err;
		}
	if (n < 0) {
		perror(from);
		goto err;
	}
	if (fchmod(out, st.st_mode & 07777)) {
		perror(to);
		goto err;
	}
	close(in);
	return 0;
err:
	if (in >= 0)
		close(in);
	return -1;
}

/* The file as written must hold exactly the table built. */
static int verify(const struct embed *m, const char *path)
{
	struct kelf *e = kelf_open(path);
	const struct ksec *s = e ? kelf_sec_by_name(e, TABLE_SEC) : NULL;
	int ret = 0;

	if (!s || !s->data || s->size != m->len ||
	    memcmp(s->data, m->table, m->len)) {
		fprintf(stderr,
			"kunwind-gen: %s: internal error: %s as written differs from the table\n",
			path, TABLE_SEC);
		ret = -1;
	}
	kelf_close(e);
	return ret;
}

/*
 * A new file beside path (same directory, so rename() can replace path
 * with it), opened for writing; -1 on error, reported.  *tmp is its name,
 * malloc'ed.
 */
static int tmp_beside(const char *path, char **tmp)
{
	size_t size = strlen(path) + sizeof(".kunwind-XXXXXX");
	int fd;

	*tmp = malloc(size);
	if (!*tmp) {
		fprintf(stderr, "kunwind-gen: %s: out of memory\n", path);
		return -1;
	}
	snprintf(*tmp, size, "%s.kunwind-XXXXXX", path);
	fd = mkstemp(*tmp);
	if (fd < 0)
		perror(*tmp);
	return fd;
}

/*
 * Write buf to path as a new file renamed over the old one: a reader (or
 * another link to the old file) sees the old table or the new one, never
 * a part of it, and a write that fails leaves the old one as it was.
 */
int kgen_write_file(const char *path, const void *buf, size_t len)
{
	char *tmp = NULL;
	mode_t mask = umask(0);
	int fd, ret = -1;

	umask(mask);
	fd = tmp_beside(path, &tmp);
	if (fd < 0)
		goto out;
	/* mkstemp() makes it 0600: give it what open() would have given. */
	if (write_all(fd, buf, len) || fchmod(fd, 0666 & ~mask)) {
		perror(path);
		close(fd);
		goto out;
	}
	if (close(fd) || rename(tmp, path)) {
		perror(path);
		goto out;
	}
	ret = 0;
out:
	if (tmp && ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

int kgen_embed(const char *in, const char *out)
{
	struct embed m = { .path = in };
	char *tmp = NULL;
	int fd = -1, ret = -1;
	unsigned int i;

	if (!out)
		out = in;
	if (build(&m))
		goto out;
	if (!m.nr_segs && !strcmp(in, out)) {
		ret = 0;		/* nothing to embed, nothing to write */
		goto out;
	}
	fd = tmp_beside(out, &tmp);
	if (fd < 0)
		goto out;
	if (copy_file(in, tmp, fd) || close(fd)) {
		fd = -1;
		goto out;
	}
	fd = -1;
	/* Nothing to embed: out is a copy of in. */
	if (m.nr_segs && (edit(&m, tmp) || verify(&m, tmp)))
		goto out;
	if (rename(tmp, out)) {
		perror(out);
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (tmp && ret)
		unlink(tmp);
	free(tmp);
	for (i = 0; i < m.nr_keep; i++)
		free(m.keep[i]);
	free(m.table);
	free(m.seg_shndx);
	return ret;
}
