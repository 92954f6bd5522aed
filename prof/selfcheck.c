// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's self-check (selfcheck.h; prof.h: kunwind_prof.ko).
 * With selfcheck on, each kernel sample is also walked by the kernel's
 * own unwinder from the same registers (prof_orc(), arch-<arch>.c: x86's
 * ORC as arch_stack_walk() drives it, arm64's frame-record walk) and the
 * two are compared: equal (every step by kunwind's tables, or with steps
 * by the fallback, counted), different, or the kernel's incomplete (it
 * ended on an error).  On arm64 a sample where the frame-record walk lost
 * the interrupted function's caller, which kunwind gave (x30's), is
 * counted apart: "gained" (prof_oracle_gained()).  The first differences
 * are kept (debugfs selfcheck_report).
 * The kernel's walk is also the bench's baseline handler (sample.c,
 * "orc"; on arm64 "fp").
 */
#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/ptrace.h>
#include "prof.h"
#include "selfcheck.h"

struct prof_diff prof_diffs[PROF_DIFFS];
atomic_t prof_nr_diffs;
struct prof_fb_sample prof_fbs[PROF_DIFFS];
atomic_t prof_nr_fbs;

void prof_orc_timed(struct prof_cpu *pc, struct pt_regs *regs,
		    struct prof_orc_walk *o)
{
	u64 t0 = local_clock();

	o->complete = prof_orc(regs, pc->orc, &o->n);
	o->ns = local_clock() - t0;
}

/*
 * Equal: the same frames, and both walks complete or both not (a walk
 * stopped where ORC stops too, such as in a retpoline thunk: counted in
 * equal_stopped as well).  Equal samples are split by who walked them:
 * every step by kunwind's tables, or some by the ORC fallback (those
 * steps counted), which took the step ORC would and so cannot differ.
 */
void prof_check(struct prof_cpu *pc, struct pt_regs *regs, int stop,
		u64 walk_ns, const struct prof_orc_walk *o)
{
	struct prof_sample *s = &pc->s;
	bool complete = stop == KUNWIND_STOP_END || s->trunc;
	unsigned int n = o->n, nk = s->key.depth, slot, i;

	pc->orc_ns += o->ns;
	pc->walk_ns += walk_ns;
	if (n == nk && !memcmp(pc->orc, s->ip, n * sizeof(*s->ip)) &&
	    o->complete == complete) {
		pc->equal++;
		if (kunwind_steps_fallback(&s->steps)) {
			pc->equal_orc++;
			for (i = 0; i < KUNWIND_FALLBACK_NR; i++)
				pc->equal_fb[i] += s->steps.fallback[i];
			slot = atomic_inc_return(&prof_nr_fbs) - 1;
			if (slot < PROF_DIFFS) {
				memcpy(prof_fbs[slot].ip, s->ip,
				       nk * sizeof(*s->ip));
				prof_fbs[slot].key = s->key;
			}
		}
		if (!complete)
			pc->equal_stopped++;
		return;
	}
	if (!o->complete) {
		pc->orc_incomplete++;
		return;
	}
	if (complete && prof_oracle_gained(regs, s, pc->orc, n)) {
		pc->gained++;
		return;
	}
	pc->differ++;
	slot = atomic_inc_return(&prof_nr_diffs) - 1;
	if (slot < PROF_DIFFS) {
		struct prof_diff *d = &prof_diffs[slot];

		memcpy(d->kun, s->ip, nk * sizeof(*s->ip));
		memcpy(d->orc, pc->orc, n * sizeof(*s->ip));
		d->nk = nk;
		d->no = n;
		d->stop = stop;
	}
}
