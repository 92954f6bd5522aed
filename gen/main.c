// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind-gen: DWARF CFI -> kunwind table.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gen.h"

static const char usage[] =
"usage: kunwind-gen COMMAND [--frame eh_frame|debug_frame] [--no-orc|--only-orc]\n"
"                   FILE [-o OUT]\n"
"\n"
"Reads the call-frame information of an ELF64 x86-64 or arm64 object\n"
"(relocatable .o/.ko, executable, shared library, vmlinux) and builds a\n"
"kunwind table.\n"
"\n"
"  dump FILE         print the rows of the table built from FILE (or of a\n"
"                    table file), one per line: SECTION START END CFA FP RA\n"
"                    (FP: rbp, arm64's x29)\n"
"  build FILE -o T   write the binary table to T (a new file renamed over T)\n"
"  stats FILE        rows, distinct rules, unsupported rows, and bytes of\n"
"                    the table vs .eh_frame/.debug_frame/.eh_frame_hdr/ORC\n"
"  embed FILE.o [-o OUT.o]\n"
"                    add the table to the relocatable object FILE.o (in\n"
"                    place, or to OUT.o) as section .kunwind, relocated by\n"
"                    .rela.kunwind, with symbol __kunwind_table; a table\n"
"                    already there is replaced; an empty one is not\n"
"                    embedded (scripts/kunwind.mk)\n"
"  asm FILE [-o OUT.S]\n"
"                    the table of the linked FILE as assembler source\n"
"                    (section .kunwind_table), each segment's base a\n"
"                    global symbol of its section plus a constant, for a\n"
"                    later link of the same text (scripts/link-vmlinux.sh\n"
"                    of a kernel whose unwinder is kunwind)\n"
"\n"
"  --frame S         read only .S (eh_frame or debug_frame); default: both\n"
"  --no-orc          do not fill what CFI leaves out from the object's ORC\n"
"  --only-orc        the rows of the object's ORC alone (no CFI, no hints)\n"
"\n"
"Relocatable objects' assembly hints (unwind/linux/kunwind_asm.h, section\n"
KUNWIND_HINT_SECTION ") override the CFI rows they cover.  Where neither\n"
"CFI nor a hint says anything, a kernel object's ORC (.orc_unwind) gives\n"
"the rule, if the table can say it (gen/orc.c).\n"
"\n"
"See Documentation/format.rst and Documentation/gen.rst.\n";

struct built {
	struct cfi_stats cs;
	struct table_stats ts;
	struct kelf *e;
	const char *frame;		/* NULL: both */
	void *table;
	size_t len;
	double ms;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int build(const char *path, const char *frame, unsigned int flags,
		 struct built *b)
{
	double t0 = now_ms();

	memset(b, 0, sizeof(*b));
	b->frame = frame;
	b->e = kelf_open(path);
	if (!b->e)
		return -1;
	b->table = kgen_build(b->e, frame, flags, &b->len, &b->cs, &b->ts, NULL);
	b->ms = now_ms() - t0;
	if (!b->table)
		return -1;
	if (!b->cs.sections && !(flags & KGEN_ONLY_ORC)) {
		fprintf(stderr, "kunwind-gen: %s: no %s section\n", path,
			frame ? frame : ".eh_frame or .debug_frame");
		return -1;
	}
	if (b->cs.fdes_bad)
		fprintf(stderr,
			"kunwind-gen: %s: %zu FDEs with invalid CFI, unsupported from there on\n",
			path, b->cs.fdes_bad);
	return 0;
}

/* A table file given to dump: print it as it is. */
static int dump_table_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	void *buf = NULL;
	long len;
	enum kunwind_bad bad;

	if (!f || fseek(f, 0, SEEK_END))
		goto unreadable;
	len = ftell(f);
	if (len < 0 || fseek(f, 0, SEEK_SET) ||
	    posix_memalign(&buf, 8, len ? len : 8) ||
	    fread(buf, 1, len, f) != (size_t)len)
		goto unreadable;
	fclose(f);
	bad = kunwind_table_check(buf, len);
	if (bad) {
		fprintf(stderr, "kunwind-gen: %s: invalid table: %s\n", path,
			kunwind_bad_str(bad));
		return 1;
	}
	dump_table(stdout, buf);
	free(buf);
	return 0;
unreadable:
	fprintf(stderr, "kunwind-gen: %s: cannot read\n", path);
	if (f)
		fclose(f);
	free(buf);
	return 1;
}

static bool is_table_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	u32 magic = 0;

	if (!f)
		return false;
	if (fread(&magic, sizeof(magic), 1, f) != 1)
		magic = 0;
	fclose(f);
	return magic == KUNWIND_MAGIC;
}

static u64 sec_size(struct kelf *e, const char *name)
{
	const struct ksec *s = kelf_sec_by_name(e, name);

	return s ? s->size : 0;
}

static void print_ratio(const char *what, size_t table, u64 other)
{
	if (other)
		printf("ratio %s %.3f\n", what, (double)table / other);
}

static int stats(struct built *b)
{
	u64 eh = sec_size(b->e, ".eh_frame"), dbg = sec_size(b->e, ".debug_frame");
	u64 hdr = sec_size(b->e, ".eh_frame_hdr");
	u64 orc_u = sec_size(b->e, ".orc_unwind");
	u64 orc_ip = sec_size(b->e, ".orc_unwind_ip");
	u64 orc_l = sec_size(b->e, ".orc_lookup");
	u64 orc = orc_u + orc_ip + orc_l;

	printf("file %s\n", kelf_path(b->e));
	printf("frame_sections %s\n", b->frame ? b->frame :
	       eh && dbg ? "eh_frame+debug_frame" : eh ? "eh_frame" : "debug_frame");
	printf("cies %zu\nfdes %zu\nfdes_skipped %zu\nfdes_malformed %zu\n",
	       b->cs.cies, b->cs.fdes, b->cs.fdes_skipped, b->cs.fdes_bad);
	printf("cfi_rows %zu\nunsupported_rows %zu\n", b->cs.rows, b->cs.unsupported);
	printf("hints %zu\n", b->cs.hints);
	printf("orc_entries %zu\norc_rows %zu\nthunk_rows %zu\narch_rows %zu\n",
	       b->cs.orc_entries, b->cs.orc_rows, b->cs.thunk_rows,
	       b->cs.arch_rows);
	printf("table_rows %zu\nmerged %zu\ngaps %zu\noverlaps %zu\n",
	       b->ts.rows, b->ts.merged, b->ts.gaps, b->ts.overlaps);
	printf("segments %zu\nrules %zu\nescaped_rows %zu\n", b->ts.segs,
	       b->ts.rules, b->ts.escaped);
	printf("bytes_table %zu\n", b->len);
	printf("bytes_eh_frame %llu\nbytes_eh_frame_hdr %llu\nbytes_debug_frame %llu\n",
	       (unsigned long long)eh, (unsigned long long)hdr,
	       (unsigned long long)dbg);
	if (orc)
		printf("bytes_orc %llu (orc_unwind %llu orc_unwind_ip %llu orc_lookup %llu)\n",
		       (unsigned long long)orc, (unsigned long long)orc_u,
		       (unsigned long long)orc_ip, (unsigned long long)orc_l);
	print_ratio("table/eh_frame", b->len, eh);
	print_ratio("table/eh_frame+hdr", b->len, eh + hdr);
	print_ratio("table/debug_frame", b->len, dbg);
	print_ratio("table/orc", b->len, orc);
	printf("gen_ms %.1f\n", b->ms);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd, *file = NULL, *out = NULL, *frame = NULL;
	unsigned int flags = 0;
	struct built b;
	int i, ret = 0;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2;
	}
	cmd = argv[1];
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--frame") && i + 1 < argc)
			frame = argv[++i];
		else if (!strncmp(argv[i], "--frame=", 8))
			frame = argv[i] + 8;
		else if (!strcmp(argv[i], "--no-orc"))
			flags |= KGEN_NO_ORC;
		else if (!strcmp(argv[i], "--only-orc"))
			flags |= KGEN_ONLY_ORC;
		else if (argv[i][0] != '-' && !file)
			file = argv[i];
		else
			goto bad;
	}
	if (!file || (frame && strcmp(frame, "eh_frame") && strcmp(frame, "debug_frame")) ||
	    flags == (KGEN_NO_ORC | KGEN_ONLY_ORC) || (frame && (flags & KGEN_ONLY_ORC)))
		goto bad;

	if (!strcmp(cmd, "dump") && is_table_file(file))
		return dump_table_file(file);
	if (!strcmp(cmd, "embed")) {
		if (frame || flags)
			goto bad;
		return kgen_embed(file, out) ? 1 : 0;
	}
	if (!strcmp(cmd, "asm")) {
		if (frame || flags)
			goto bad;
		return kgen_asm(file, out) ? 1 : 0;
	}
	if (strcmp(cmd, "dump") && strcmp(cmd, "build") && strcmp(cmd, "stats"))
		goto bad;
	if (!strcmp(cmd, "build") && !out)
		goto bad;
	if (build(file, frame, flags, &b)) {
		kelf_close(b.e);
		return 1;
	}
	if (!strcmp(cmd, "dump"))
		dump_table(stdout, b.table);
	else if (!strcmp(cmd, "stats"))
		ret = stats(&b);
	else if (kgen_write_file(out, b.table, b.len))
		ret = 1;
	free(b.table);
	kelf_close(b.e);
	return ret;
bad:
	fputs(usage, stderr);
	return 2;
}
