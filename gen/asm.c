// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind-gen asm: the table of a linked executable (a first link of
 * vmlinux) as assembler source, for the next link to carry
 * (scripts/link-vmlinux.sh in a kernel whose unwinder is kunwind).
 *
 * A row is an offset from its segment's base, so the rows stay right in
 * a later link as long as each text section's contents do not change,
 * which holds between the links of vmlinux (kallsyms, BTF and this
 * table come after the text).  Only the bases move: each is written as
 * a global symbol of the same section plus a constant, which the next
 * link resolves and the kernel's relocation at boot (KASLR) moves on.
 * The source is the table's bytes as .quad words, the bases replaced.
 */
#include <elf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"

/* A name the assembler takes as a symbol as it is. */
static bool plain_name(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '.' || (*s >= '0' && *s <= '9') ||
		      (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

/*
 * The global symbol of section shndx nearest at or below addr: the
 * segment's anchor.  Local names may repeat; a global one is unique in
 * a link, and the next link defines it again.
 */
static bool anchor(const struct kelf *e, unsigned int shndx, u64 addr,
		   struct kelf_sym *best)
{
	struct kelf_sym s;
	bool found = false;
	size_t i;

	for (i = 0; i < kelf_nr_syms(e); i++) {
		if (!kelf_sym(e, i, &s) || s.shndx != shndx ||
		    (s.bind != STB_GLOBAL && s.bind != STB_WEAK) ||
		    s.value > addr || !plain_name(s.name))
			continue;
		if (!found || s.value > best->value ||
		    (s.value == best->value && strcmp(s.name, best->name) < 0)) {
			*best = s;
			found = true;
		}
	}
	return found;
}

int kgen_asm(const char *in, const char *out)
{
	struct cfi_stats cs;
	struct table_stats ts;
	struct kunwind_hdr *t;
	const struct kunwind_seg *segs;
	struct kelf *e = kelf_open(in);
	FILE *f = NULL;
	char *tmp = NULL;
	size_t len, off, seg_lo, seg_hi;
	int ret = -1;

	if (!e)
		return -1;
	if (kelf_type(e) != ET_EXEC && kelf_type(e) != ET_DYN) {
		fprintf(stderr, "kunwind-gen: %s: asm wants a linked file\n", in);
		goto out;
	}
	t = kgen_build(e, NULL, 0, &len, &cs, &ts, NULL);
	if (!t)
		goto out;
	if (!cs.sections) {
		fprintf(stderr, "kunwind-gen: %s: no .eh_frame or .debug_frame section\n",
			in);
		goto out_table;
	}
	segs = kunwind_segs(t);
	seg_lo = (const u8 *)segs - (const u8 *)t;
	seg_hi = seg_lo + t->nr_segs * sizeof(*segs);
	if (out) {
		size_t size = strlen(out) + sizeof(".tmp");

		tmp = malloc(size);
		if (!tmp)
			goto out_table;
		snprintf(tmp, size, "%s.tmp", out);
		f = fopen(tmp, "w");
	} else {
		f = stdout;
	}
	if (!f) {
		fprintf(stderr, "kunwind-gen: %s: cannot write\n", tmp);
		goto out_table;
	}
	fprintf(f,
		"/* kunwind's table of %s, by kunwind-gen asm: %zu bytes, %u segments, %zu rows. */\n",
		in, len, t->nr_segs, ts.rows);
	fprintf(f, "\t.section .kunwind_table, \"a\"\n\t.balign 8\n");
	for (off = 0; off < len; off += 8) {
		u64 w = 0;

		if (off >= seg_lo && off < seg_hi &&
		    (off - seg_lo) % sizeof(*segs) == offsetof(struct kunwind_seg, base)) {
			const struct kunwind_seg *seg = &segs[(off - seg_lo) / sizeof(*segs)];
			const char *name = kunwind_seg_name(t, seg);
			const struct ksec *sec = kelf_sec_by_name(e, name);
			struct kelf_sym a = { 0 };

			if (!sec || !anchor(e, sec->idx, seg->base, &a)) {
				fprintf(stderr,
					"kunwind-gen: %s: no global symbol in %s at or below %#llx\n",
					in, name, (unsigned long long)seg->base);
				goto out_file;
			}
			fprintf(f, "\t.quad %s + %#llx\t/* %s */\n", a.name,
				(unsigned long long)(seg->base - a.value), name);
			continue;
		}
		memcpy(&w, (const u8 *)t + off, len - off < 8 ? len - off : 8);
		fprintf(f, "\t.quad %#llx\n", (unsigned long long)w);
	}
	if (out && (fflush(f) || ferror(f))) {
		fprintf(stderr, "kunwind-gen: %s: write failed\n", tmp);
		goto out_file;
	}
	ret = 0;
out_file:
	if (out) {
		fclose(f);
		if (!ret && rename(tmp, out)) {
			fprintf(stderr, "kunwind-gen: %s: cannot rename to %s\n", tmp, out);
			ret = -1;
		}
		if (ret)
			remove(tmp);
	}
out_table:
	free(tmp);
	free(t);
out:
	kelf_close(e);
	return ret;
}
