/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elf.c: the ELF file as the generator and kunwind-stack see it.  The only
 * way they read ELF (embed.c, which rewrites an object, excepted): a file's
 * sections, the relocations of a relocatable object, its .symtab, and the
 * function names that name frames.
 */
#ifndef _KUNWIND_KELF_H
#define _KUNWIND_KELF_H

#include <stddef.h>
#include "../unwind/env.h"
#include "arch.h"

struct kelf;

/* A section; kelf_sec() and the others give none whose name is unreadable. */
struct ksec {
	const char *name;
	unsigned int idx;
	u64 addr, size, flags;		/* sh_addr, sh_size, sh_flags */
	const u8 *data;			/* NULL for SHT_NOBITS */
};

struct kelf *kelf_open(const char *path);
void kelf_close(struct kelf *e);
int kelf_type(const struct kelf *e);		/* ET_REL, ET_EXEC, ET_DYN */
/* The file's architecture (x86-64 or arm64: kelf_open() takes no other). */
const struct kgen_arch *kelf_arch(const struct kelf *e);
const char *kelf_path(const struct kelf *e);
unsigned int kelf_nr_secs(const struct kelf *e);
const struct ksec *kelf_sec(const struct kelf *e, unsigned int idx);
const struct ksec *kelf_sec_by_name(const struct kelf *e, const char *name);
/* The executable section holding addr (ET_EXEC/ET_DYN), or NULL. */
const struct ksec *kelf_text_at(const struct kelf *e, u64 addr);
/*
 * ET_REL only: the relocation of the field at offset off of section sec.
 * Returns 0 if there is none; else sets *shndx to the target section and
 * *val to S + A with S section relative (so PC-relative fields need no
 * further adjustment: the value is the target's offset in *shndx).
 */
int kelf_reloc_at(const struct kelf *e, const struct ksec *sec, u64 off,
		  unsigned int *shndx, u64 *val);
/*
 * The file's own .symtab, entry by entry (entry 0 is the null symbol;
 * values are section offsets in ET_REL, addresses otherwise).  name is
 * NULL if it cannot be read; shndx is resolved through SHN_XINDEX.
 */
struct kelf_sym {
	const char *name;
	u64 value, size;
	unsigned int shndx;
	unsigned int type, bind;	/* STT_*, STB_* */
};

size_t kelf_nr_syms(const struct kelf *e);
/* Entry i; false if there is none or it cannot be read. */
bool kelf_sym(const struct kelf *e, size_t i, struct kelf_sym *out);
/* The first entry called name; false if there is none. */
bool kelf_sym_by_name(const struct kelf *e, const char *name,
		      struct kelf_sym *out);
/*
 * For backtraces: the nearest function symbol at or below addr, from
 * .symtab, .dynsym and the separate debug file; name and offset, NULL if
 * none.
 */
const char *kelf_symbol(struct kelf *e, u64 addr, u64 *off);
/* p_vaddr - p_offset of the first PT_LOAD: what a load bias is taken from. */
u64 kelf_load_base(const struct kelf *e);

#endif /* _KUNWIND_KELF_H */
