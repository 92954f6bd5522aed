// SPDX-License-Identifier: GPL-2.0
/*
 * The profiler's self-check (selfcheck.h; prof.h: kunwind_prof.ko).
 * With selfcheck on, each kernel sample is also walked by the kernel's
 * ORC unwinder from the same registers (as arch_stack_walk() does) and
 * the two are compared: equal (every step by kunwind's tables, or with
 * steps by the ORC fallback, counted), different, or ORC incomplete (ORC
 * ended on an error).  The first differences are kept (debugfs
 * selfcheck_report).
 * ORC's walk is also the bench's baseline handler (sample.c, "orc").
 */
#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/nospec-branch.h>
#include <asm/ptrace.h>
#include <asm/unwind.h>
#include "prof.h"
#include "selfcheck.h"

struct prof_diff prof_diffs[PROF_DIFFS];
atomic_t prof_nr_diffs;
struct prof_fb_sample prof_fbs[PROF_DIFFS];
atomic_t prof_nr_fbs;

/*
 * The retpoline thunks (__x86_indirect_thunk_rax ... _r15, one
 * RETPOLINE_THUNK_SIZE apart): ORC's entry for them is
 * UNWIND_HINT_UNDEFINED (before 6.3, an end of stack).  At a thunk's
 * first instruction (a "call" nothing has pushed before) the frame is a
 * plain call frame (CFA = sp + 8, the return address at sp), which the
 * vmlinux table describes (gen/orc.c): the walk goes on, and such samples
 * are counted apart (stats "retpoline_thunk_entry").  Past it nothing
 * describes the thunk, and a walk from there stops, the sample one frame
 * deep (retpoline_thunk_stopped).
 */
#if defined(CONFIG_MITIGATION_RETPOLINE) || defined(CONFIG_RETPOLINE)
bool prof_in_thunk(unsigned long ip, bool *entry)
{
	unsigned long lo = (unsigned long)__x86_indirect_thunk_rax;
	unsigned long hi = (unsigned long)__x86_indirect_thunk_r15 +
			   RETPOLINE_THUNK_SIZE;

	*entry = !((ip - lo) % RETPOLINE_THUNK_SIZE);
	return ip >= lo && ip < hi;
}
#else
bool prof_in_thunk(unsigned long ip, bool *entry)
{
	*entry = false;
	return false;
}
#endif

/*
 * ORC from regs, as arch_stack_walk() drives it; false on an ORC error.
 * At a retpoline thunk's first instruction ORC stops (its entry is
 * UNWIND_HINT_UNDEFINED, before 6.3 an end of stack), where the frame is
 * a plain call frame that kunwind's table describes (gen/orc.c's thunk
 * rows): the oracle for the rest of the stack is then ORC from the
 * thunk's caller, the return address on top of the stack, looked up at
 * ip - 1 (the call itself) as the interrupted ip ORC takes a regs' ip for.
 */
bool prof_orc(struct pt_regs *regs, unsigned long *ip, unsigned int *n)
{
	struct unwind_state state;
	struct pt_regs caller;
	unsigned long addr;
	bool entry;

	*n = 0;
	ip[(*n)++] = regs->ip;
	/*
	 * Only where kunwind's table has the thunk's row (without the
	 * vmlinux table kunwind takes ORC's step there, and ORC is its own
	 * oracle); a tracer's trampoline there: ORC from regs, which undoes
	 * it.
	 */
	if (prof_in_thunk(regs->ip, &entry) && entry &&
	    (kunwind_addr_info(regs->ip) & KUNWIND_ADDR_CALL) &&
	    !get_kernel_nofault(addr, (unsigned long *)regs->sp) &&
	    (kunwind_addr_info(addr) &
	     (KUNWIND_ADDR_TEXT | KUNWIND_ADDR_TRAMPOLINE)) == KUNWIND_ADDR_TEXT) {
		ip[(*n)++] = addr;
		caller = *regs;
		caller.ip = addr - 1;
		caller.sp = regs->sp + sizeof(long);
		regs = &caller;
	}
	for (unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || *n == PROF_DEPTH)
			break;
		ip[(*n)++] = addr;
	}
	return !unwind_error(&state);
}

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
void prof_check(struct prof_cpu *pc, int stop, u64 walk_ns,
		const struct prof_orc_walk *o)
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
