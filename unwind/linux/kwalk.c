// SPDX-License-Identifier: GPL-2.0
/*
 * Walks of kernel stacks: the kernel's struct kunwind_ops for the core
 * walker, the three ways to start (current, pt_regs, sleeping task) and
 * the ORC fallback step, and the walks' lookup caches.  Layers: api.c
 * calls this file; this file calls the core (unwind/walk.c, lookup.c),
 * the registry, symbols.c and counters.c; none of them calls back.
 *
 * Stacks.  A walk may read only the stacks the kernel itself would unwind:
 * the task stack, and for current also this CPU's IRQ, exception and
 * entry stacks.  get_stack_info() knows them all and their order (IRQ ->
 * task, exception -> IRQ or task, entry -> task); it is not exported, so
 * it is resolved by name (symbols.c).  Without it, walks stay on the task
 * stack and (where the kernel exports its pointer) the IRQ stack.  Every
 * read is of a word the walker proved to lie on such a stack: a walk of
 * current loads it in place (KUNWIND_OWN_STACKS: current's stacks are
 * mapped and stay while it walks them, as ORC's READ_ONCE_NOCHECK()
 * assumes), a walk of another task through a non-faulting load
 * (kunwind_read_nofault(), which refuses what copy_from_kernel_nofault()
 * refuses).  The walker never re-enters a stack it has left (ORC's visit
 * mask), so a walk ends on any stack layout, however corrupt.
 *
 * Frames.  A frame is reported only if its ip is code the kernel could
 * return to (kunwind_text_address(): __kernel_text_address(), as ORC's
 * unwind_get_return_address(), which also accepts ftrace, kprobe and BPF
 * trampolines); otherwise the walk stops, "bad return address".  A return
 * address that function_graph (return_to_handler) or a kretprobe (the
 * rethook trampoline) put on the stack is replaced by the real one, as
 * ORC's unwind_recover_ret_addr() does, with the kernel's own helpers;
 * where one cannot be called, that step is taken by ORC (counted).
 *
 * Fallback.  Where no table covers ip (a stock kernel without its -dbg
 * vmlinux; entry assembly, which has no DWARF CFI; a module built without
 * the opt-in; BPF), or a row's step fails, the walk takes one step with
 * the kernel's own ORC unwinder (__unwind_start() from a synthetic
 * pt_regs { ip, sp, bp }, which steps over that frame) and goes on with
 * tables from the caller.  The frame is flagged KUNWIND_FRAME_ORC.  ORC
 * ends at the same places the kernel does: a user-mode pt_regs, or an
 * end-of-stack hint such as ret_from_fork_asm's.
 *
 * Every function of kunwind's that a walk runs through is __kunwind_walk:
 * not traceable, not probeable (see unwind/env.h).  The kernel functions
 * it calls are the ones ORC calls (__kernel_text_address(),
 * get_stack_info(), the tracers' lookups, ORC itself): traceable in the
 * kernel's build, where ftrace's and kprobes' own recursion guards hold
 * for kunwind as they do for ORC.
 */
#include <linux/hardirq.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched/task_stack.h>
#include <asm/ptrace.h>
#include <asm/switch_to.h>
#include "counters.h"
#include "kwalk.h"
#include "arch/walk.h"
#include "registry_lookup.h"
#include "symbols.h"

/* ---- stacks -------------------------------------------------------- */

/* The stack of w's task holding addr: [*lo, *hi), and its type. */
static __kunwind_walk bool find_stack(struct kunwind_kstate *w,
				      unsigned long addr, unsigned long *lo,
				      unsigned long *hi, kunwind_stack_t *type)
{
	/*
	 * Most walks are of current, on its task stack: found without
	 * the architecture's search (x86: get_stack_info(), an indirect
	 * call that tries the others first).
	 */
	if (w->task == current) {
		*lo = (unsigned long)task_stack_page(current);
		*hi = *lo + THREAD_SIZE;
		if (kunwind_word_in(addr, *lo, *hi)) {
			if (type)
				*type = KUNWIND_STACK_TASK;
			return true;
		}
	}
	return kunwind_arch_stack(w, addr, lo, hi, type);
}

/*
 * A register set whose sp overflowed into the guard page below a stack
 * (a kernel stack overflow: the double fault's handle_stack_overflow()
 * dies with it): its stack is the one that starts at the next page up,
 * as ORC's __unwind_start() and show_trace_log_lvl() take it.  Only
 * that first frame's sp may lie there (and, on arm64, the frame of the
 * overflow's pt_regs: arch/arm64.c); every other must be on a stack.
 */
__kunwind_walk bool kunwind_guard_page_stack(struct kunwind_kstate *w,
					     unsigned long sp,
					     unsigned long *lo,
					     unsigned long *hi,
					     kunwind_stack_t *type)
{
	unsigned long page = PAGE_ALIGN(sp);

	return page != sp && find_stack(w, page, lo, hi, type) && *lo == page;
}

/* dump_stack()'s name of the stack holding sp. */
__kunwind_walk const char *kunwind_walk_stack_name(struct kunwind_kstate *w,
						   unsigned long sp)
{
	kunwind_stack_t type;
	unsigned long lo, hi;

	/* an empty stack's frame has sp at its top (KUNWIND_SP_MAY_BE_TOP) */
	if (!find_stack(w, sp, &lo, &hi, &type) &&
	    !(KUNWIND_SP_MAY_BE_TOP &&
	      find_stack(w, sp - sizeof(long), &lo, &hi, &type) && sp == hi) &&
	    !kunwind_guard_page_stack(w, sp, &lo, &hi, &type))
		return "UNKNOWN";
	return kunwind_stack_name(type);
}

/* ---- the kernel's ops ---------------------------------------------- */

/* Called directly by the walker (op_read() ..., unwind/walk.c). */
__kunwind_walk const struct kunwind_seg *
kunwind_kernel_find_seg(void *ctx, unsigned long ip,
			const struct kunwind_hdr **table, unsigned long *start)
{
	return kunwind_registry_seg(ip, table, start);
}

/*
 * The walker has checked that addr lies on a stack kunwind_kernel_stack()
 * vouched for.  Only walks of another task read through here (a walk of
 * current loads in place, KUNWIND_OWN_STACKS): its stack is pinned, but
 * may still change under the walk; a fault is fixed up and ends the walk.
 */
__kunwind_walk bool kunwind_kernel_read(void *ctx, unsigned long addr,
					unsigned long *val)
{
	return kunwind_read_nofault(addr, val);
}

__kunwind_walk bool kunwind_kernel_stack(void *ctx, unsigned long sp,
					 unsigned long *lo, unsigned long *hi)
{
	return find_stack(ctx, sp, lo, hi, NULL);
}

/*
 * A tracer's trampoline as a return address: the real one, from the
 * tracer's own records of w's task, as ORC's unwind_recover_ret_addr():
 * function_graph first, then rethook (a kretprobe on a graph-traced
 * function).  Both lookups match the stack slot (addr_p) the tracer
 * rewrote, and keep a cursor so that a walk visits each record once.
 */
static __kunwind_walk bool is_trampoline(unsigned long ip)
{
	return ip && (ip == kunwind_sym.return_to_handler ||
		      ip == kunwind_sym.rethook_trampoline);
}

unsigned long kunwind_kernel_trampolines[2] __read_mostly;

__kunwind_walk unsigned long kunwind_kernel_ret_addr(void *ctx, unsigned long ip,
						     unsigned long addr_p)
{
	struct kunwind_kstate *w = ctx;
	unsigned long real = ip;

	if (likely(!is_trampoline(ip)))
		return ip;
	if (real == kunwind_sym.return_to_handler &&
	    kunwind_sym.ftrace_graph_ret_addr)
		real = kunwind_sym.ftrace_graph_ret_addr(w->task,
				&w->graph_idx, real, (unsigned long *)addr_p);
	if (real == kunwind_sym.rethook_trampoline &&
	    kunwind_sym.rethook_find_ret_addr)
		real = kunwind_sym.rethook_find_ret_addr(w->task, addr_p,
							 &w->rethook_cur);
	if (!real || is_trampoline(real)) {
		w->tracer_lost = true;	/* walk_next() lets ORC do it */
		return 0;
	}
	w->nr_recovered++;	/* counted if the step succeeds */
	return real;
}

__kunwind_walk bool kunwind_kernel_text_ok(void *ctx, unsigned long ip)
{
	return kunwind_text_address(ip);
}

const struct kunwind_ops kunwind_kernel_ops = {
	.find_seg	= kunwind_kernel_find_seg,
	.read		= kunwind_kernel_read,
	.stack		= kunwind_kernel_stack,
	.ret_addr	= kunwind_kernel_ret_addr,
	.text_ok	= kunwind_kernel_text_ok,
};
EXPORT_SYMBOL_GPL(kunwind_kernel_ops);

/* ---- start --------------------------------------------------------- */

/*
 * A walk runs with preemption disabled: an RCU read-side section (since
 * 4.20 synchronize_rcu() waits for those too) that, unlike
 * rcu_read_lock() with CONFIG_PREEMPT_RCU, is no call that can be
 * traced or probed.  It pairs with the registry's synchronize_rcu() and
 * kvfree_rcu().  Where RCU is not watching (a tracer's callback on the
 * idle path or early in an interrupt entry), such a section protects
 * nothing: the walk is refused (walk_refuse() below).
 */
static __kunwind_walk void walk_init(struct kunwind_kstate *w,
				     struct task_struct *task)
{
	preempt_disable_notrace();
	/*
	 * w->s: kunwind_start() sets all of it, walk_refuse() before it.
	 * The rest from a char pointer: a memset from &w->task across the
	 * fields after it is one FORTIFY_SOURCE (6.1) refuses at build time.
	 */
	memset((char *)w + offsetof(struct kunwind_kstate, task), 0,
	       sizeof(*w) - offsetof(struct kunwind_kstate, task));
	w->task = task ? task : current;
	kunwind_count(KUNWIND_CNT_WALKS, 1);
}

static __kunwind_walk bool rcu_ok(void)
{
	if (likely(rcu_is_watching()))
		return true;
	kunwind_count(KUNWIND_CNT_NO_RCU, 1);
	return false;
}

/* ---- the walks' lookup caches ---------------------------------------- */

/*
 * Every walk looks rules up through a cache of its CPU (struct
 * kunwind_cache: address -> rule), one per context a walk may interrupt
 * another in: task, softirq, hardirq, NMI.  A walk takes its context's
 * cache if it is free and gives it back in kunwind_walk_end(); a walk that
 * finds it taken (a walk in another walk's callback, or an NMI-level walk
 * interrupting another, as in a #DB handler) looks up without.  A walk
 * keeps its CPU (preemption is off) and what interrupts it completes
 * before it resumes, so a plain per-CPU flag is enough.  The registry's
 * generation (kunwind_registry_gen()) clears a cache filled under another:
 * tables that arrived or went, init text freed.  Allocated, not static:
 * a module's static per-CPU area is a few kilobytes shared by all.
 */
enum { CACHE_TASK, CACHE_SOFTIRQ, CACHE_HARDIRQ, CACHE_NMI, NR_CACHES };

struct kunwind_walk_cache {
	struct kunwind_cache c;
	unsigned long gen;
	bool busy;
};

struct kunwind_walk_caches {
	struct kunwind_walk_cache ctx[NR_CACHES];
};

static struct kunwind_walk_caches __percpu *walk_caches;

int kunwind_walk_caches_init(void)
{
	unsigned int cpu, i;

	/* kunwind_symbols_init() found them; no walk starts before this. */
	kunwind_kernel_trampolines[0] = kunwind_sym.return_to_handler;
	kunwind_kernel_trampolines[1] = kunwind_sym.rethook_trampoline;

	walk_caches = alloc_percpu(struct kunwind_walk_caches);
	if (!walk_caches)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		for (i = 0; i < NR_CACHES; i++)
			per_cpu_ptr(walk_caches, cpu)->ctx[i].gen = ~0UL;
	return 0;
}

void kunwind_walk_caches_exit(void)
{
	free_percpu(walk_caches);
	walk_caches = NULL;
}

static __kunwind_walk void cache_take(struct kunwind_kstate *w)
{
	struct kunwind_walk_cache *wc;
	unsigned long gen;

	if (!walk_caches)
		return;
	wc = &this_cpu_ptr(walk_caches)->ctx[in_nmi() ? CACHE_NMI :
					      in_hardirq() ? CACHE_HARDIRQ :
					      in_serving_softirq() ? CACHE_SOFTIRQ :
					      CACHE_TASK];
	if (READ_ONCE(wc->busy))
		return;
	WRITE_ONCE(wc->busy, true);
	barrier();	/* taken before used, for what interrupts us */
	gen = kunwind_registry_gen();
	if (wc->gen != gen) {
		kunwind_cache_clear(&wc->c);
		wc->gen = gen;
	}
	w->cache = wc;
	w->s.cache = &wc->c;
}

static __kunwind_walk void cache_put(struct kunwind_kstate *w)
{
	if (!w->cache)
		return;
	barrier();	/* used before given back */
	WRITE_ONCE(w->cache->busy, false);
	w->cache = NULL;
	w->s.cache = NULL;
}

/* A walk that cannot start: no frame, stopped. */
static __kunwind_walk bool walk_fail(struct kunwind_kstate *w,
				     enum kunwind_stop why)
{
	w->s.stop = why;
	return false;
}

/* The same before kunwind_start(): no state but the stop. */
static __kunwind_walk bool walk_refuse(struct kunwind_kstate *w,
				       enum kunwind_stop why)
{
	memset(&w->s, 0, sizeof(w->s));
	return walk_fail(w, why);
}

/* A walk that starts: its first frame counts. */
static __kunwind_walk bool walk_first(struct kunwind_kstate *w)
{
	w->nr_frames = 1;
	return true;
}

/*
 * Pin the stack of w's task (not current) for the walk, or refuse.  Not
 * in NMI or hardirq: dropping the reference may free the stack, which
 * must not happen there.  Not while the task runs: its stack changes
 * under the walk.  Not without put_task_stack() (not exported), which
 * drops the reference.
 */
static __kunwind_walk bool pin_other_stack(struct kunwind_kstate *w)
{
	if (in_nmi() || in_hardirq() || kunwind_task_running(w->task) ||
	    !kunwind_sym.put_task_stack || !try_get_task_stack(w->task)) {
		kunwind_count(KUNWIND_CNT_REFUSED, 1);
		return false;
	}
	w->put_stack = true;
	return true;
}

__kunwind_walk bool kunwind_walk_start(struct kunwind_kstate *w,
				       struct task_struct *task,
				       unsigned long ip, unsigned long sp,
				       unsigned long bp, bool first_called)
{
	walk_init(w, task);
	if (!rcu_ok() || (w->task != current && !pin_other_stack(w)))
		return walk_refuse(w, KUNWIND_STOP_BAD_READ);
	kunwind_start(&w->s, &kunwind_kernel_ops, w, ip, sp, bp,
		      KUNWIND_MAX_DEPTH,
		      (first_called ? KUNWIND_FIRST_CALLED : 0) |
		      (w->task == current ? KUNWIND_OWN_STACKS : 0));
	cache_take(w);
	return walk_first(w);
}
EXPORT_SYMBOL_GPL(kunwind_walk_start);

/*
 * From a point of the calling function itself (ip, sp and the frame
 * pointer as they are there, exact): one step, by its own row, to its
 * caller, the first frame.  For architectures whose frame pointer does
 * not give the caller's sp (arm64: the frame record is at the bottom of
 * the frame), where kunwind_caller_frame() gives this frame instead.
 * That step is the walk's (counted); the frame is not reported.
 */
__kunwind_walk bool kunwind_walk_start_here(struct kunwind_kstate *w,
					    unsigned long ip, unsigned long sp,
					    unsigned long bp)
{
	if (!kunwind_walk_start(w, current, ip, sp, bp, false))
		return false;
	if (!kunwind_walk_next(w))
		return false;
	w->nr_frames--;
	return true;
}

/*
 * From an interrupt, exception or NMI: the interrupted ip is exact.  A
 * user-mode register set has no kernel frames above it: its ip is the
 * only frame (as stack_trace_save_regs() reports it).  A kernel-mode one
 * whose ip is not text is inconsistent: no frame at all; but for ip 0,
 * the fault of a call through a NULL function pointer, the commonest
 * oops: the call's return address is at sp, and ORC, which no table
 * replaces there, steps to it (orc_find(0) is its null entry), as the
 * kernel's own trace of that oops does.
 */
__kunwind_walk bool kunwind_walk_start_regs(struct kunwind_kstate *w,
					    struct pt_regs *regs)
{
	walk_init(w, current);
	w->regs = regs;
	if (!rcu_ok())
		return walk_refuse(w, KUNWIND_STOP_BAD_READ);
	kunwind_start(&w->s, &kunwind_kernel_ops, w, instruction_pointer(regs),
		      kernel_stack_pointer(regs), kunwind_regs_fp(regs),
		      KUNWIND_MAX_DEPTH, KUNWIND_OWN_STACKS);
#ifdef KUNWIND_ARCH_HAS_LR
	kunwind_set_lr(&w->s, kunwind_regs_lr(regs));
#endif
	cache_take(w);
	if (!user_mode(regs) && instruction_pointer(regs) &&
	    !kunwind_code_at(&w->s, instruction_pointer(regs), true))
		return walk_fail(w, KUNWIND_STOP_BAD_RA);
	if (user_mode(regs))
		w->s.stop = KUNWIND_STOP_END;
	else if (w->s.stop == KUNWIND_STOP_BAD_READ &&
		 kunwind_guard_page_stack(w, w->s.sp, &w->s.stack_lo, &w->s.stack_hi,
				  NULL))
		w->s.stop = KUNWIND_STOP_NONE;
	w->frame_flags = KUNWIND_FRAME_REGS;
	return walk_first(w);
}
EXPORT_SYMBOL_GPL(kunwind_walk_start_regs);

/*
 * A sleeping task: where it stopped switching away (kunwind_arch_task_frame():
 * x86's inactive_task_frame, arm64's cpu_context), a return address into
 * __schedule() or __switch_to(), looked up at ip - 1; a new task that has
 * never run starts at ret_from_fork instead, whose first instruction is
 * exact.
 */
__kunwind_walk bool kunwind_walk_start_task(struct kunwind_kstate *w,
					    struct task_struct *task)
{
	unsigned long ip, sp, bp;
	bool called;

	walk_init(w, task);
	if (!rcu_ok() || w->task == current || !pin_other_stack(w))
		return walk_refuse(w, KUNWIND_STOP_BAD_READ);
	if (!kunwind_arch_task_frame(w->task, &ip, &sp, &bp, &called))
		return walk_refuse(w, KUNWIND_STOP_BAD_READ);
	if (!kunwind_text_address(ip))
		return walk_refuse(w, KUNWIND_STOP_BAD_RA);
	kunwind_start(&w->s, &kunwind_kernel_ops, w, ip, sp, bp,
		      KUNWIND_MAX_DEPTH, called ? KUNWIND_FIRST_CALLED : 0);
	cache_take(w);
	return walk_first(w);
}
EXPORT_SYMBOL_GPL(kunwind_walk_start_task);

/* ---- step ---------------------------------------------------------- */

/*
 * call_on_irqstack() switches to the IRQ stack inside an inline asm
 * statement: it saves rsp in the top word of the IRQ stack, points rsp
 * there and calls the handler (ORC knows this through objtool, which
 * decodes the switch).  The compiler's CFI for the function holding the
 * asm knows nothing of it and keeps describing the CFA as rsp + N of the
 * task stack.  So a frame whose sp is that top word has really rsp =
 * the saved word: switch back before the table step, which then finds
 * the CFA on the previous stack.  Only for an rsp-based call rule; a
 * KUNWIND_HINT_STACK_SWITCH row (SP_INDIRECT) already reads the word.
 */
static __kunwind_walk bool irq_stack_return(struct kunwind_kstate *w)
{
	struct kunwind_state *s = &w->s;
	unsigned long lo, hi;
	kunwind_stack_t type;

	if (!KUNWIND_IRQ_STACK_TOP_SAVES_SP ||
	    s->sp != s->stack_hi - sizeof(long) ||
	    !find_stack(w, s->sp, &lo, &hi, &type) || type != KUNWIND_STACK_IRQ)
		return false;
	return kunwind_stack_top_return(s);
}

/*
 * Why the step out of the current frame falls back to ORC: a trampoline
 * the tracer's helper could not undo; no row, told apart by whether a
 * table is registered for ip's text at all (only on this slow path, so
 * the lookup is not repeated on every step); else the row's step failed.
 */
static __kunwind_walk unsigned int fallback_reason(struct kunwind_kstate *w)
{
	struct kunwind_state *s = &w->s;
	const struct kunwind_hdr *table;
	unsigned long start;

	if (w->tracer_lost)
		return KUNWIND_FALLBACK_TRACER;
	if (s->stop != KUNWIND_STOP_NO_ROW)
		return KUNWIND_FALLBACK_STEP_FAILED;
	if (kunwind_registry_seg(kunwind_frame_addr(s), &table, &start))
		return KUNWIND_FALLBACK_NO_ROW;
	return KUNWIND_FALLBACK_NO_TABLE;
}

/*
 * The ORC fallback: where no row describes ip, where a row's step failed
 * (CFI that is wrong at run time, e.g. after code patching), and over a
 * tracer's trampoline kunwind_kernel_ret_addr() could not undo.  If ORC
 * cannot step either, the walk keeps the table's stop reason.  recovered:
 * w->nr_recovered before the failed step; a trampoline undone for a step
 * that then failed is not counted here, ORC undoes it again for its own.
 * Every step it takes is counted with its reason (struct kunwind_steps).
 */
static __kunwind_walk bool orc_fallback(struct kunwind_kstate *w,
					unsigned int recovered)
{
	struct kunwind_state *s = &w->s;
	bool undone = w->nr_recovered != recovered;
	unsigned int why = fallback_reason(w);
	unsigned long from = kunwind_frame_addr(s);

	w->nr_recovered = recovered;
	switch (kunwind_arch_fallback_step(w)) {
	case KUNWIND_ARCH_STEP_DONE:
		s->stop = KUNWIND_STOP_NONE;
		w->fallback = why;
		w->steps.fallback[why]++;
		kunwind_count(KUNWIND_CNT_ORC, 1);
		kunwind_count(KUNWIND_CNT_FALLBACK + why, 1);
		if (why != KUNWIND_FALLBACK_NO_TABLE)	/* to its table's owner */
			kunwind_registry_fallback(from, why);
		if (w->tracer_lost) {	/* ORC undid the trampoline */
			w->frame_flags |= KUNWIND_FRAME_RECOVERED;
			kunwind_count(KUNWIND_CNT_ORC_TRACER, 1);
		} else if (undone) {	/* both did: it counts once */
			w->frame_flags |= KUNWIND_FRAME_RECOVERED;
			w->nr_recovered++;
			kunwind_count(KUNWIND_CNT_RECOVERED, 1);
		}
		w->nr_frames++;
		return true;
	case KUNWIND_ARCH_STEP_END:
		s->stop = KUNWIND_STOP_END;
		return false;
	default:
		kunwind_count(KUNWIND_CNT_ORC_FAILED, 1);
		return false;
	}
}

/* Whether a step that stopped the walk may fall back to ORC. */
static __kunwind_walk bool may_fall_back(const struct kunwind_state *s)
{
	return s->stop != KUNWIND_STOP_END && s->stop != KUNWIND_STOP_DEPTH;
}

__kunwind_walk bool kunwind_walk_next(struct kunwind_kstate *w)
{
	struct kunwind_state *s = &w->s;
	unsigned long sp = s->sp, lo = s->stack_lo, hi = s->stack_hi;
	unsigned int nr_left = s->nr_left, recovered = w->nr_recovered;
	bool switched = !s->stop && irq_stack_return(w);

	w->tracer_lost = false;
	if (kunwind_next(s)) {
		w->frame_flags = s->exact_ip ? KUNWIND_FRAME_REGS : 0;
		if (w->nr_recovered != recovered) {
			w->frame_flags |= KUNWIND_FRAME_RECOVERED;
			kunwind_count(KUNWIND_CNT_RECOVERED, 1);
		}
		w->steps.tables++;
		w->nr_frames++;
		return true;
	}
	if (!may_fall_back(s)) {
		w->nr_recovered = recovered;
		return false;
	}
	if (switched) {		/* ORC reads the IRQ stack's top word itself */
		s->sp = sp;
		s->stack_lo = lo;
		s->stack_hi = hi;
		s->nr_left = nr_left;
	}
	return orc_fallback(w, recovered);
}
EXPORT_SYMBOL_GPL(kunwind_walk_next);

/*
 * Store the ips of up to max frames of w, the current frame's first, as
 * a loop of kunwind_walk_next() would, and stop after the last stored
 * (w is then at it, or ended).  Runs of ordinary frames go through
 * kunwind_trace_calls(), everything else through kunwind_walk_next(),
 * with its ORC fallback.  For callers that want nothing but the ips.
 */
__kunwind_walk unsigned int kunwind_walk_trace(struct kunwind_kstate *w,
					       unsigned long *pc,
					       unsigned int max)
{
	struct kunwind_state *s = &w->s;
	unsigned int n = 0, depth, recovered;

	while (n < max) {
		if (!s->stop && max - n > 1) {
			depth = s->depth;
			recovered = w->nr_recovered;
			w->tracer_lost = false;
			n += kunwind_trace_calls(s, pc + n, max - n - 1);
			w->steps.tables += s->depth - depth;
			w->nr_frames += s->depth - depth;
			if (s->stop) {
				/*
				 * A step through a tracer's trampoline failed
				 * after its frame was stored: the fallback, as
				 * kunwind_walk_next() takes a failed step.
				 */
				if (!may_fall_back(s)) {
					w->nr_recovered = recovered;
					break;
				}
				if (!orc_fallback(w, recovered))
					break;
				continue;
			}
			if (w->nr_recovered != recovered)
				kunwind_count(KUNWIND_CNT_RECOVERED,
					      w->nr_recovered - recovered);
		}
		/* the current frame, also one a walk started stopped at */
		pc[n++] = s->ip;
		if (n == max || !kunwind_walk_next(w))
			break;
	}
	return n;
}
EXPORT_SYMBOL_GPL(kunwind_walk_trace);

/* The walk's counts go to the per-CPU counters once, at its end. */
__kunwind_walk void kunwind_walk_end(struct kunwind_kstate *w)
{
	kunwind_count(KUNWIND_CNT_FRAMES, w->nr_frames);
	kunwind_count(KUNWIND_CNT_TABLE, w->steps.tables);
	kunwind_count(KUNWIND_CNT_STOP + w->s.stop, 1);
	if (w->put_stack)
		kunwind_sym.put_task_stack(w->task);
	w->put_stack = false;
	cache_put(w);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(kunwind_walk_end);
