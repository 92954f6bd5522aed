// SPDX-License-Identifier: GPL-2.0
/*
 * The walkers kunwind is measured against, all on the captured stack:
 *
 *   fp_walk         the rbp chain, with the same bounds checks kunwind has
 *   libunwind_walk  libunwind's local unwinder (UNW_CACHE_GLOBAL)
 *   libdw_walk      elfutils' libdwfl frame unwinder, attached to our own
 *                   process through our own callbacks
 *
 * Every walker starts from the same rip/rsp/rbp and returns the same kind
 * of list: pc[0] the captured ip, then one return address per frame.
 */
#define _GNU_SOURCE
#define UNW_LOCAL_ONLY
#include <elfutils/libdwfl.h>
#include <libunwind.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include "bench.h"

/* Is the word at addr inside the captured stack [sp, hi)? */
static bool on_stack(const struct bench_stack *s, unsigned long addr)
{
	return !(addr & 7) && addr - s->regs.sp <= s->hi - s->regs.sp - 8;
}

/*
 * Frame pointers: the saved rbp at rbp, the return address at rbp + 8.
 * The chain must go up the stack; it ends where rbp leaves it, stops
 * growing, or the return address is 0 (the outermost frames are libc's,
 * built without frame pointers, so the chain ends near main()).
 */
int fp_walk(void *ctx, unsigned long *pc, int max)
{
	const struct bench_stack *s = ctx;
	unsigned long bp = s->regs.bp;
	int n = 0;

	pc[n++] = s->regs.ip;
	while (n < max && on_stack(s, bp) && on_stack(s, bp + 8)) {
		unsigned long next = ((unsigned long *)bp)[0];
		unsigned long ra = ((unsigned long *)bp)[1];

		if (!ra)
			break;
		pc[n++] = ra;
		if (next <= bp)
			break;
		bp = next;
	}
	return n;
}

int libunwind_setup(int per_thread)
{
	return unw_set_caching_policy(unw_local_addr_space, per_thread ?
				      UNW_CACHE_PER_THREAD : UNW_CACHE_GLOBAL);
}

/*
 * unw_getcontext() describes this function; rip, rsp and rbp are then
 * replaced by the captured ones so that libunwind starts on the same
 * frame as the others (the remaining registers are not needed to find
 * CFAs and return addresses on this stack).  The getcontext is counted
 * in the time: every libunwind local trace pays it.
 */
int libunwind_walk(void *ctx, unsigned long *pc, int max)
{
	const struct bench_stack *s = ctx;
	unw_context_t uc;
	unw_cursor_t cur;
	unw_word_t ip;
	int n = 0;

	unw_getcontext(&uc);
	uc.uc_mcontext.gregs[REG_RIP] = s->regs.ip;
	uc.uc_mcontext.gregs[REG_RSP] = s->regs.sp;
	uc.uc_mcontext.gregs[REG_RBP] = s->regs.bp;
	if (unw_init_local(&cur, &uc) < 0)
		return 0;
	do {
		if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0)
			break;
		pc[n++] = ip;
	} while (n < max && unw_step(&cur) > 0);
	return n;
}

/*
 * libunwind's fast path for profilers: unw_backtrace(), with its
 * per-thread trace cache (warm after the first walk).  It walks the stack
 * it is called on, not captured registers: from the bottom frame's return
 * address on, its frames are the others' (bench.c aligns them); the few
 * above (this function and the bench's callers of it) are walked and
 * counted too.
 */
int libunwind_fast_walk(void *ctx, unsigned long *pc, int max)
{
	return unw_backtrace((void **)pc, max);
}

/* libdw: one Dwfl for the process, attached once, walked many times. */
static struct {
	Dwfl *dwfl;
	pid_t pid;
	const struct bench_stack *stack;
	unsigned long *pc;
	int n, max;
} dw;

static pid_t dw_next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return dw.pid;
}

static bool dw_memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			   void *arg)
{
	if (!on_stack(dw.stack, addr))
		return false;
	*result = *(const unsigned long *)addr;
	return true;
}

/* DWARF registers 6 (rbp) and 7 (rsp), then the pc. */
static bool dw_set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	Dwarf_Word regs[2] = { dw.stack->regs.bp, dw.stack->regs.sp };

	if (!dwfl_thread_state_registers(thread, 6, 2, regs))
		return false;
	dwfl_thread_state_register_pc(thread, dw.stack->regs.ip);
	return true;
}

static const Dwfl_Thread_Callbacks dw_thread_cb = {
	.next_thread = dw_next_thread,
	.memory_read = dw_memory_read,
	.set_initial_registers = dw_set_initial_registers,
};

static char *dw_debuginfo_path;
static const Dwfl_Callbacks dw_cb = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &dw_debuginfo_path,
};

int libdw_setup(const struct bench_stack *stack, char *err, int len)
{
	dw.pid = getpid();
	dw.stack = stack;
	if (dw.dwfl)
		dwfl_end(dw.dwfl);
	dw.dwfl = dwfl_begin(&dw_cb);
	if (!dw.dwfl)
		goto fail;
	if (dwfl_linux_proc_report(dw.dwfl, dw.pid)) {
		if (err)
			snprintf(err, len, "dwfl_linux_proc_report failed");
		return -1;
	}
	if (dwfl_report_end(dw.dwfl, NULL, NULL))
		goto fail;
	if (!dwfl_attach_state(dw.dwfl, NULL, dw.pid, &dw_thread_cb, &dw))
		goto fail;
	return 0;
fail:
	if (err)
		snprintf(err, len, "%s", dwfl_errmsg(-1));
	return -1;
}

static int dw_frame(Dwfl_Frame *state, void *arg)
{
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	dw.pc[dw.n++] = pc;
	return dw.n < dw.max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

static int dw_status;

/*
 * dwfl_getthread_frames() returns -1 both when the walk hit an error and
 * when the callback aborted (full array); the frames so far are valid
 * either way.  The status of the last walk is kept for the report.
 */
int libdw_walk(void *ctx, unsigned long *pc, int max)
{
	dw.pc = pc;
	dw.n = 0;
	dw.max = max;
	dw_status = dwfl_getthread_frames(dw.dwfl, dw.pid, dw_frame, NULL);
	return dw.n;
}

/* 0 if the last walk reached the end of the stack, else -1 and why. */
int libdw_last_error(char *err, int len)
{
	if (!dw_status)
		return 0;
	snprintf(err, len, "%s", dwfl_errmsg(-1));
	return -1;
}
