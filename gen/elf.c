// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF file, through libelf: sections, the relocations of a relocatable
 * object, .symtab as it is (kelf_sym()) and the function symbols that
 * name frames (kelf_symbol()).  The other files ask here rather than
 * parse ELF themselves (embed.c, which rewrites an object, excepted).
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stages.h"

struct krel {
	u64 off;
	u64 val;		/* S + A, S relative to its section */
	unsigned int shndx;
};

struct krels {
	unsigned int target;	/* the section these relocate */
	struct krel *rel;
	size_t nr;
};

struct ksym {
	u64 addr, size;
	const char *name;
	int rank;		/* among aliases: 0 GLOBAL, 1 WEAK, 2 LOCAL */
};

struct kelf {
	char *path;
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	const struct kgen_arch *arch;
	struct ksec *sec;
	unsigned int nr_secs;
	struct krels *rels;
	unsigned int nr_rels;
	struct ksym *sym;		/* kelf_symbol()'s functions, sorted */
	size_t nr_syms;
	bool syms_loaded;
	Elf_Data *symtab, *symtab_shndx;	/* .symtab as it is, for kelf_sym() */
	size_t nr_symtab, symtab_strtab;
	Elf *debug_elf;		/* separate debug file, for .symtab */
	int debug_fd;
};

static int rel_cmp(const void *a, const void *b)
{
	const struct krel *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Read one SHT_RELA section of an ET_REL file into a sorted array. */
static int load_rela(struct kelf *e, Elf_Scn *scn, GElf_Shdr *sh,
		     struct krels *out)
{
	Elf_Data *d = elf_getdata(scn, NULL), *symd;
	Elf_Scn *symscn = elf_getscn(e->elf, sh->sh_link);
	size_t i, n;

	symd = symscn ? elf_getdata(symscn, NULL) : NULL;
	if (!d || !symd)
		return -1;
	n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	out->target = sh->sh_info;
	out->rel = calloc(n ? n : 1, sizeof(*out->rel));
	out->nr = 0;
	if (!out->rel)
		return -1;
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym s;

		if (!gelf_getrela(d, i, &r) ||
		    !gelf_getsym(symd, GELF_R_SYM(r.r_info), &s))
			continue;
		if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		out->rel[out->nr].off = r.r_offset;
		out->rel[out->nr].val = s.st_value + r.r_addend;
		out->rel[out->nr].shndx = s.st_shndx;
		out->nr++;
	}
	qsort(out->rel, out->nr, sizeof(*out->rel), rel_cmp);
	return 0;
}

struct kelf *kelf_open(const char *path)
{
	struct kelf *e = calloc(1, sizeof(*e));
	size_t shstrndx, nsec, i;

	if (!e)
		return NULL;
	e->debug_fd = -1;
	e->path = strdup(path);
	elf_version(EV_CURRENT);
	e->fd = open(path, O_RDONLY);
	if (e->fd < 0) {
		fprintf(stderr, "kunwind: %s: cannot open\n", path);
		goto err;
	}
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	if (e->elf && elf_kind(e->elf) == ELF_K_ELF && gelf_getehdr(e->elf, &e->ehdr) &&
	    gelf_getclass(e->elf) == ELFCLASS64 &&
	    e->ehdr.e_ident[EI_DATA] == ELFDATA2LSB)
		e->arch = kgen_arch_of(e->ehdr.e_machine);
	if (!e->arch) {
		fprintf(stderr, "kunwind: %s: not an ELF64 x86-64 or arm64 file\n",
			path);
		goto err;
	}
	if (elf_getshdrstrndx(e->elf, &shstrndx) || elf_getshdrnum(e->elf, &nsec)) {
		fprintf(stderr, "kunwind: %s: %s\n", path, elf_errmsg(-1));
		goto err;
	}
	e->nr_secs = nsec;
	e->sec = calloc(nsec ? nsec : 1, sizeof(*e->sec));
	if (!e->sec)
		goto err;
	for (i = 1; i < nsec; i++) {
		Elf_Scn *scn = elf_getscn(e->elf, i);
		struct ksec *s = &e->sec[i];
		GElf_Shdr sh;
		Elf_Data *d;

		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		/*
		 * A section without a name is left out, as one that cannot
		 * be read: the table names its segments after sections, and
		 * every kelf_*() lookup would otherwise need to check.
		 */
		s->name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (!s->name) {
			fprintf(stderr,
				"kunwind: %s: section %zu: name unreadable: section ignored\n",
				path, i);
			continue;
		}
		s->idx = i;
		d = sh.sh_type != SHT_NOBITS ? elf_getdata(scn, NULL) : NULL;
		if (sh.sh_type == SHT_SYMTAB && !e->symtab && sh.sh_entsize && d) {
			e->symtab = d;
			e->nr_symtab = d->d_size / sh.sh_entsize;
			e->symtab_strtab = sh.sh_link;
		} else if (sh.sh_type == SHT_SYMTAB_SHNDX) {
			e->symtab_shndx = d;
		}
		s->addr = sh.sh_addr;
		s->size = sh.sh_size;
		s->flags = sh.sh_flags;
		if (d && d->d_size == sh.sh_size)
			s->data = d->d_buf;
		if (sh.sh_type == SHT_RELA && e->ehdr.e_type == ET_REL) {
			struct krels *r = realloc(e->rels, (e->nr_rels + 1) * sizeof(*r));

			if (!r)
				goto err;
			e->rels = r;
			if (!load_rela(e, scn, &sh, &r[e->nr_rels]))
				e->nr_rels++;
		}
	}
	return e;
err:
	kelf_close(e);
	return NULL;
}

void kelf_close(struct kelf *e)
{
	unsigned int i;

	if (!e)
		return;
	for (i = 0; i < e->nr_rels; i++)
		free(e->rels[i].rel);
	free(e->rels);
	free(e->sym);
	free(e->sec);
	if (e->debug_elf)
		elf_end(e->debug_elf);
	if (e->debug_fd >= 0)
		close(e->debug_fd);
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->path);
	free(e);
}

int kelf_type(const struct kelf *e)
{
	return e->ehdr.e_type;
}

const struct kgen_arch *kelf_arch(const struct kelf *e)
{
	return e->arch;
}

const char *kelf_path(const struct kelf *e)
{
	return e->path;
}

unsigned int kelf_nr_secs(const struct kelf *e)
{
	return e->nr_secs;
}

const struct ksec *kelf_sec(const struct kelf *e, unsigned int idx)
{
	return idx && idx < e->nr_secs && e->sec[idx].name ? &e->sec[idx] : NULL;
}

const struct ksec *kelf_sec_by_name(const struct kelf *e, const char *name)
{
	unsigned int i;

	for (i = 1; i < e->nr_secs; i++)
		if (e->sec[i].name && !strcmp(e->sec[i].name, name))
			return &e->sec[i];
	return NULL;
}

const struct ksec *kelf_text_at(const struct kelf *e, u64 addr)
{
	unsigned int i;

	for (i = 1; i < e->nr_secs; i++) {
		const struct ksec *s = &e->sec[i];

		if ((s->flags & SHF_EXECINSTR) && (s->flags & SHF_ALLOC) &&
		    addr - s->addr < s->size)
			return s;
	}
	return NULL;
}

int kelf_reloc_at(const struct kelf *e, const struct ksec *sec, u64 off,
		  unsigned int *shndx, u64 *val)
{
	unsigned int i;

	for (i = 0; i < e->nr_rels; i++) {
		const struct krels *r = &e->rels[i];
		size_t lo = 0, hi = r->nr;

		if (r->target != sec->idx)
			continue;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (r->rel[mid].off < off)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < r->nr && r->rel[lo].off == off) {
			*shndx = r->rel[lo].shndx;
			*val = r->rel[lo].val;
			return 1;
		}
	}
	return 0;
}

u64 kelf_load_base(const struct kelf *e)
{
	size_t n, i;

	if (elf_getphdrnum(e->elf, &n))
		return 0;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e->elf, i, &ph) && ph.p_type == PT_LOAD)
			return ph.p_vaddr - ph.p_offset;
	}
	return 0;
}

size_t kelf_nr_syms(const struct kelf *e)
{
	return e->nr_symtab;
}

bool kelf_sym(const struct kelf *e, size_t i, struct kelf_sym *out)
{
	Elf32_Word xndx = 0;
	GElf_Sym s;

	if (i >= e->nr_symtab ||
	    !gelf_getsymshndx(e->symtab, e->symtab_shndx, i, &s, &xndx))
		return false;
	out->name = elf_strptr(e->elf, e->symtab_strtab, s.st_name);
	out->value = s.st_value;
	out->size = s.st_size;
	out->shndx = s.st_shndx == SHN_XINDEX ? xndx : s.st_shndx;
	out->type = GELF_ST_TYPE(s.st_info);
	out->bind = GELF_ST_BIND(s.st_info);
	return true;
}

bool kelf_sym_by_name(const struct kelf *e, const char *name,
		      struct kelf_sym *out)
{
	size_t i;

	for (i = 1; i < e->nr_symtab; i++)
		if (kelf_sym(e, i, out) && out->name && !strcmp(out->name, name))
			return true;
	return false;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Among aliases prefer sized symbols, then GLOBAL, WEAK, LOCAL (as eu-stack). */
	if (!x->size != !y->size)
		return !x->size - !y->size;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(x->name, y->name);
}

static void add_syms(struct kelf *e, Elf *elf, size_t *alloc)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			struct ksym *p;
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    s.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (!name || !*name)
				continue;
			p = kgen_grow(e->sym, alloc, e->nr_syms, sizeof(*p), 256);
			if (!p)
				return;
			e->sym = p;
			e->sym[e->nr_syms].addr = s.st_value;
			e->sym[e->nr_syms].size = s.st_size;
			e->sym[e->nr_syms].name = name;
			e->sym[e->nr_syms].rank =
				GELF_ST_BIND(s.st_info) == STB_GLOBAL ? 0 :
				GELF_ST_BIND(s.st_info) == STB_WEAK ? 1 : 2;
			e->nr_syms++;
		}
	}
}

/* The separate debug file named by the build-id note, if installed. */
static void open_debug_file(struct kelf *e)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off))) {
			const u8 *id = (const u8 *)d->d_buf + desc_off;
			char path[256];
			int len, i;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_descsz < 2)
				continue;
			len = snprintf(path, sizeof(path),
				       "/usr/lib/debug/.build-id/%02x/", id[0]);
			for (i = 1; i < (int)nh.n_descsz && len < 200; i++)
				len += snprintf(path + len, sizeof(path) - len, "%02x", id[i]);
			snprintf(path + len, sizeof(path) - len, ".debug");
			e->debug_fd = open(path, O_RDONLY);
			if (e->debug_fd >= 0)
				e->debug_elf = elf_begin(e->debug_fd, ELF_C_READ_MMAP, NULL);
			return;
		}
	}
}

const char *kelf_symbol(struct kelf *e, u64 addr, u64 *off)
{
	size_t lo = 0, hi;

	if (!e->syms_loaded) {
		size_t alloc = 0;

		e->syms_loaded = true;
		add_syms(e, e->elf, &alloc);
		open_debug_file(e);
		if (e->debug_elf)
			add_syms(e, e->debug_elf, &alloc);
		if (e->nr_syms)
			qsort(e->sym, e->nr_syms, sizeof(*e->sym), sym_cmp);
	}
	hi = e->nr_syms;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (e->sym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* Among symbols at the same address the sort put sized ones first. */
	hi = lo - 1;
	while (hi && e->sym[hi - 1].addr == e->sym[lo - 1].addr)
		hi--;
	if (e->sym[hi].size && addr - e->sym[hi].addr >= e->sym[hi].size)
		return NULL;
	*off = addr - e->sym[hi].addr;
	return e->sym[hi].name;
}
