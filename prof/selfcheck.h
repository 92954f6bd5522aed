/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kunwind_prof.ko's self-check (selfcheck.c): each sample walked by the
 * kernel's own unwinder too (ORC; arm64: frame records), from the same
 * registers, and compared; the
 * first differences and the first equal samples with a fallback step
 * kept for debugfs selfcheck_report.
 */
#ifndef _KUNWIND_PROF_SELFCHECK_H
#define _KUNWIND_PROF_SELFCHECK_H

#include <linux/atomic.h>
#include <linux/types.h>
#include "prof.h"

struct pt_regs;

#define PROF_DIFFS		8	/* self-check differences kept */

struct prof_orc_walk {		/* ORC's walk of a sample, timed */
	unsigned int n;
	bool complete;
	u64 ns;
};

struct prof_diff {
	unsigned long kun[PROF_DEPTH], orc[PROF_DEPTH];
	unsigned int nk, no;
	int stop;
};

/* The first equal samples with a fallback step: where, and why. */
struct prof_fb_sample {
	unsigned long ip[PROF_DEPTH];
	struct prof_entry key;
};

extern struct prof_diff prof_diffs[PROF_DIFFS];
extern atomic_t prof_nr_diffs;
extern struct prof_fb_sample prof_fbs[PROF_DIFFS];
extern atomic_t prof_nr_fbs;
/* arch-<arch>.c: x86's retpoline thunks, the kernel's own walk of a sample */
bool prof_in_thunk(unsigned long ip, bool *entry);
bool prof_orc(struct pt_regs *regs, unsigned long *ip, unsigned int *n);
/* s has callers the kernel's walk orc lost at interrupted frames (arm64) */
bool prof_oracle_gained(struct pt_regs *regs, const struct prof_sample *s,
			const unsigned long *orc, unsigned int no);
void prof_orc_timed(struct prof_cpu *pc, struct pt_regs *regs,
		    struct prof_orc_walk *o);
void prof_check(struct prof_cpu *pc, struct pt_regs *regs, int stop,
		u64 walk_ns, const struct prof_orc_walk *o);

#endif /* _KUNWIND_PROF_SELFCHECK_H */
