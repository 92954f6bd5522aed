// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: a whole ELF file -> kgen_build() (elf.c, cfi.c with the
 * relocations of ET_REL, cfa.c, hints.c, orc.c, table.c) -> the table's
 * checks.
 *
 * cfi_fuzz reaches the CFI parser alone; this one the paths that depend
 * on the file: section names and flags, relocations, symbols, hints, ORC.
 * Whatever the file, the generator must not crash, and a table it builds
 * must pass kunwind_table_check() and say where it is: each segment is
 * an executable section of the file, of that section's name and size,
 * based at its address (0 in a relocatable object, whose rows are
 * section offsets).
 *
 * Input: the file's bytes, as they are.  Seeds: fuzz/corpus/elf (small
 * objects, and the hostile ones of fuzz/hostile.test).
 */
#define _GNU_SOURCE
#include "table_invariants.h"
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>
#include "../gen/gen.h"

#define FULL_PROBE_LIMIT	1024
#define MAX_SPAN		(1ULL << 22)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void check_segs(const struct kelf *e, const struct kunwind_hdr *t)
{
	unsigned int i, j;

	for (i = 0; i < t->nr_segs; i++) {
		const struct kunwind_seg *seg = &kunwind_segs(t)[i];
		const char *name = kunwind_seg_name(t, seg);
		const struct ksec *sec = NULL;

		for (j = 1; j < kelf_nr_secs(e) && !sec; j++) {
			const struct ksec *s = kelf_sec(e, j);

			if (s && (s->flags & SHF_EXECINSTR) &&
			    !strcmp(s->name, name) && s->size == seg->size &&
			    seg->base == (kelf_type(e) == ET_REL ? 0 : s->addr))
				sec = s;
		}
		if (!sec)
			fuzz_fail("segment %u (%s, base %#llx, size %#x) is no "
				  "executable section of the file", i, name,
				  (unsigned long long)seg->base, seg->size);
	}
}

/*
 * Sections the format holds but that take long to build (a 4 GiB
 * segment has 16 M buckets) only slow the fuzzer down, as in cfi_fuzz.
 */
static bool spans_ok(const struct kelf *e)
{
	unsigned int i;

	for (i = 1; i < kelf_nr_secs(e); i++) {
		const struct ksec *s = kelf_sec(e, i);

		if (s && (s->flags & SHF_EXECINSTR) && s->size > MAX_SPAN)
			return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static FILE *devnull;
	struct cfi_stats cs;
	struct table_stats ts;
	struct kelf *e;
	char path[64];
	size_t tlen = 0;
	void *t;
	int fd;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	fd = memfd_create("elf_fuzz", 0);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	e = kelf_open(path);
	if (e && spans_ok(e)) {
		t = kgen_build(e, NULL, 0, &tlen, &cs, &ts, NULL);
		if (t) {
			enum kunwind_bad bad = kunwind_table_check(t, tlen);

			if (bad)
				fuzz_fail("the checker refuses a built table: %s",
					  kunwind_bad_str(bad));
			check_segs(e, t);
			fuzz_check_table(t, len, FULL_PROBE_LIMIT);
			if (tlen <= 4096)
				dump_table(devnull, t);
			free(t);
		}
	}
	kelf_close(e);
	close(fd);
	return 0;
}
