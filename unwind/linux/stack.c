// SPDX-License-Identifier: GPL-2.0
/*
 * Walks of kernel stacks: the kernel's struct kunwind_ops for the core
 * walker, the three ways to start (current, pt_regs, sleeping task) and
 * the ORC fallback step.
 *
 * Stacks.  A walk may read only the stacks the kernel itself would unwind:
 * the task stack, and for current also this CPU's IRQ, exception and
 * entry stacks.  get_stack_info() knows them all and their order (IRQ ->
 * task, exception -> IRQ or task, entry -> task); it is not exported, so
 * it is resolved once by name.  Without it, walks stay on the task stack
 * and (where the kernel exports its pointer) the IRQ stack.  Every read
 * is a non-faulting load (as copy_from_kernel_nofault() does, see
 * kunwind_read_nofault()) of a word the walker proved to lie on such a
 * stack, and the walker never re-enters a stack it has left (ORC's visit
 * mask), so a walk ends on any stack layout, however corrupt.
 *
 * Fallback.  Where no table covers ip (a stock kernel without its -dbg
 * vmlinux; entry assembly, which has no DWARF CFI; a module built without
 * the opt-in; BPF), or a row says "no information", the walk takes one
 * step with the kernel's own ORC unwinder (__unwind_start() from a
 * synthetic pt_regs { ip, sp, bp }, which steps over that frame) and goes
 * on with tables from the caller.  The frame is flagged KUNWIND_FRAME_ORC.
 * ORC ends at the same places the kernel does: a user-mode pt_regs, or an
 * end-of-stack hint such as ret_from_fork_asm's.
 *
 * No instrumentation here (Kbuild): a walk may run from a KASAN report,
 * an ftrace callback or a kprobe, and must not recurse into them.
 */
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <linux/sched/task_stack.h>
#include <asm/ptrace.h>
#include <asm/switch_to.h>
#include "internal.h"

typedef int (*get_stack_info_fn)(unsigned long *stack,
				 struct task_struct *task,
				 struct stack_info *info,
				 unsigned long *visit_mask);
typedef unsigned long (*kallsyms_lookup_name_fn)(const char *name);

static get_stack_info_fn kunwind_get_stack_info __ro_after_init;
static kallsyms_lookup_name_fn kunwind_kallsyms_lookup_name __ro_after_init;
static unsigned long kunwind_ret_from_fork __ro_after_init;
static void (*kunwind_put_task_stack)(struct task_struct *) __ro_after_init;
static unsigned long kunwind_sched_text[2] __ro_after_init;
static unsigned long kunwind_lock_text[2] __ro_after_init;

/* ---- stacks -------------------------------------------------------- */

/* Is the word at addr inside [lo, hi)? */
static bool word_in(unsigned long addr, unsigned long lo, unsigned long hi)
{
	return addr >= lo && addr < hi && hi - addr >= sizeof(long);
}

/* The stack of w's task holding addr: [*lo, *hi), and its type. */
static bool find_stack(struct kunwind_walk *w, unsigned long addr,
		       unsigned long *lo, unsigned long *hi,
		       enum stack_type *type)
{
	struct stack_info info;

	if (kunwind_get_stack_info) {
		if (kunwind_get_stack_info((unsigned long *)addr, w->task,
					   &info, NULL))
			return false;
		*lo = (unsigned long)info.begin;
		*hi = (unsigned long)info.end;
		if (type)
			*type = info.type;
		return true;
	}
	*lo = (unsigned long)task_stack_page(w->task);
	*hi = *lo + THREAD_SIZE;
	if (type)
		*type = STACK_TYPE_TASK;
	if (word_in(addr, *lo, *hi))
		return true;
	if (type)
		*type = STACK_TYPE_IRQ;
	return w->task == current && kunwind_irq_stack(lo, hi) &&
	       word_in(addr, *lo, *hi);
}

static const struct kunwind_hdr *ops_find_table(void *ctx, unsigned long ip,
						unsigned long *bias)
{
	return kunwind_find_table(ip, bias);
}

/*
 * The walker has checked that addr lies on a stack ops_stack() vouched
 * for.  Another task's stack may be freed under an unpinned walk (see
 * pin_stack()); current's stacks cannot fault.
 */
static bool ops_read(void *ctx, unsigned long addr, unsigned long *val)
{
	struct kunwind_walk *w = ctx;

	if (likely(kunwind_read_nofault(addr, val)))
		return true;
	KUNWIND_WARN_ONCE(w->task == current,
			  "read fault at 0x%lx on a stack of current", addr);
	return false;
}

/* The walker itself never returns to a stack it has left (ORC's visit mask). */
static bool ops_stack(void *ctx, unsigned long sp, unsigned long *lo,
		      unsigned long *hi)
{
	return find_stack(ctx, sp, lo, hi, NULL);
}

const struct kunwind_ops kunwind_kernel_ops = {
	.find_table	= ops_find_table,
	.read		= ops_read,
	.stack		= ops_stack,
};
EXPORT_SYMBOL_GPL(kunwind_kernel_ops);

/* dump_stack()'s name of the stack holding sp. */
const char *kunwind_walk_stack_name(struct kunwind_walk *w, unsigned long sp)
{
	enum stack_type type;
	unsigned long lo, hi;

	if (!find_stack(w, sp, &lo, &hi, &type))
		return "UNKNOWN";
	return kunwind_stack_name(type);
}

/* ---- start --------------------------------------------------------- */

/*
 * Keep another task's stack from being freed during the walk.
 * put_task_stack() is not exported; without it the stack is not pinned,
 * which is still safe: every read is non-faulting, so a stack freed
 * meanwhile only ends the walk (or yields a garbage frame, as any walk of
 * a task that runs meanwhile may).
 */
static bool pin_stack(struct kunwind_walk *w)
{
	if (!kunwind_put_task_stack)
		return kunwind_task_stack_alive(w->task);
	if (!try_get_task_stack(w->task))
		return false;
	w->put_stack = true;
	return true;
}

static void walk_init(struct kunwind_walk *w, struct task_struct *task)
{
	rcu_read_lock();
	memset(w, 0, sizeof(*w));
	w->task = task ? task : current;
	kunwind_count(KUNWIND_CNT_WALKS, 1);
}

/* A walk that cannot start: no frame, stopped. */
static bool walk_fail(struct kunwind_walk *w, enum kunwind_stop why)
{
	w->s.stop = why;
	return false;
}

bool kunwind_walk_start(struct kunwind_walk *w, struct task_struct *task,
			unsigned long ip, unsigned long sp, unsigned long bp,
			bool first_called)
{
	walk_init(w, task);
	if (w->task != current) {
		if (kunwind_task_running(w->task) || !pin_stack(w))
			return walk_fail(w, KUNWIND_STOP_BAD_READ);
	}
	kunwind_start(&w->s, &kunwind_kernel_ops, w, ip, sp, bp,
		      KUNWIND_MAX_DEPTH,
		      first_called ? KUNWIND_FIRST_CALLED : 0);
	return true;
}
EXPORT_SYMBOL_GPL(kunwind_walk_start);

/*
 * From an interrupt, exception or NMI: the interrupted ip is exact.  A
 * user-mode register set has no kernel frames above it: its ip is the
 * only frame (as stack_trace_save_regs() reports it).
 */
bool kunwind_walk_start_regs(struct kunwind_walk *w, struct pt_regs *regs)
{
	walk_init(w, current);
	w->regs = regs;
	kunwind_start(&w->s, &kunwind_kernel_ops, w, regs->ip,
		      kernel_stack_pointer(regs), regs->bp, KUNWIND_MAX_DEPTH, 0);
	if (user_mode(regs))
		w->s.stop = KUNWIND_STOP_END;
	w->frame_flags = KUNWIND_FRAME_REGS;
	return true;
}
EXPORT_SYMBOL_GPL(kunwind_walk_start_regs);

/*
 * A sleeping task stopped in __switch_to_asm(), which left a struct
 * inactive_task_frame at thread.sp: its return address (into __schedule(),
 * a called frame, looked up at ip - 1) and its rbp.  A new task that has
 * never run returns to ret_from_fork instead, whose first instruction is
 * exact.  (As ORC's __unwind_start().)
 */
bool kunwind_walk_start_task(struct kunwind_walk *w, struct task_struct *task)
{
	struct inactive_task_frame frame;
	unsigned long sp, lo;

	walk_init(w, task);
	if (w->task == current || kunwind_task_running(w->task) ||
	    !pin_stack(w))
		return walk_fail(w, KUNWIND_STOP_BAD_READ);

	sp = kunwind_task_saved_sp(w->task);
	lo = (unsigned long)task_stack_page(w->task);
	if (sp < lo || sp + sizeof(frame) > lo + THREAD_SIZE ||
	    copy_from_kernel_nofault(&frame, (void *)sp, sizeof(frame)))
		return walk_fail(w, KUNWIND_STOP_BAD_READ);
	kunwind_start(&w->s, &kunwind_kernel_ops, w, frame.ret_addr,
		      sp + sizeof(frame), frame.bp, KUNWIND_MAX_DEPTH,
		      frame.ret_addr == kunwind_ret_from_fork ?
		      0 : KUNWIND_FIRST_CALLED);
	return true;
}
EXPORT_SYMBOL_GPL(kunwind_walk_start_task);

/* ---- step ---------------------------------------------------------- */

/* A stack change made here rather than by kunwind_next(): walk.c's rule. */
static bool enter_stack(struct kunwind_walk *w, unsigned long sp)
{
	return kunwind_enter_stack(&w->s, sp) == KUNWIND_STOP_NONE;
}

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
static bool irq_stack_return(struct kunwind_walk *w)
{
	struct kunwind_state *s = &w->s;
	unsigned long addr = s->exact_ip ? s->ip : s->ip - 1;
	const struct kunwind_rule *r = NULL;
	const struct kunwind_hdr *t;
	unsigned long bias, prev_sp, lo, hi;
	enum stack_type type;

	if (s->sp != s->stack_hi - sizeof(long) ||
	    !find_stack(w, s->sp, &lo, &hi, &type) || type != STACK_TYPE_IRQ)
		return false;
	t = kunwind_find_table(addr, &bias);
	if (t)
		r = kunwind_find(t, addr - bias);
	if (!r || r->type != KUNWIND_TYPE_CALL || r->reg != KUNWIND_REG_SP)
		return false;
	if (!kunwind_read_nofault(s->sp, &prev_sp) || !enter_stack(w, prev_sp))
		return false;
	s->sp = prev_sp;
	return true;
}

enum orc_result { ORC_FAILED, ORC_STEPPED, ORC_END };

#if KUNWIND_HAVE_ORC
/*
 * One step of the kernel's ORC unwinder from the current frame.  For the
 * first frame of a pt_regs walk ORC gets the real registers (a realigned
 * frame needs r10 or r13); otherwise only ip, sp and bp are known, which
 * is all an ORC entry uses outside of those prologues.  ORC looks the
 * regs' ip up exactly, so a return address is given as ip - 1.
 */
static enum orc_result orc_step(struct kunwind_walk *w)
{
	struct kunwind_state *s = &w->s;
	struct unwind_state st;
	unsigned long ip;
	struct pt_regs regs;

	if (w->regs && !s->depth) {
		regs = *w->regs;
	} else {
		memset(&regs, 0, sizeof(regs));
		regs.ip = s->exact_ip ? s->ip : s->ip - 1;
		regs.sp = s->sp;
		regs.bp = s->bp;
		regs.cs = __KERNEL_CS;
		regs.ss = __KERNEL_DS;
	}
	/* With regs, __unwind_start() steps over the regs' frame. */
	__unwind_start(&st, w->task, &regs, NULL);
	if (unwind_done(&st))	/* the_end: with an error or at the end */
		return unwind_error(&st) ? ORC_FAILED : ORC_END;
	if (st.regs && user_mode(st.regs))
		return ORC_END;
	ip = unwind_get_return_address(&st);
	if (!ip)
		return ORC_FAILED;
	/* The walker's rule: sp grows, or moves to a stack not yet left. */
	if (st.sp - s->stack_lo < s->stack_hi - s->stack_lo) {
		if (st.sp <= s->sp)
			return ORC_FAILED;
	} else if (!enter_stack(w, st.sp)) {
		return ORC_FAILED;
	}
	s->ip = ip;
	s->sp = st.sp;
	s->bp = st.bp;
	s->exact_ip = st.signal;
	s->depth++;
	w->frame_flags = KUNWIND_FRAME_ORC |
			 (st.signal ? KUNWIND_FRAME_REGS : 0) |
			 (st.error ? KUNWIND_FRAME_GUESS : 0);
	if (st.error)
		s->unreliable = true;
	return ORC_STEPPED;
}
#else
static enum orc_result orc_step(struct kunwind_walk *w)
{
	return ORC_FAILED;
}
#endif

bool kunwind_walk_next(struct kunwind_walk *w)
{
	struct kunwind_state *s = &w->s;
	unsigned long sp = s->sp, lo = s->stack_lo, hi = s->stack_hi;
	unsigned int nr_left = s->nr_left;
	bool switched = !s->stop && irq_stack_return(w);

	if (kunwind_next(s)) {
		w->frame_flags = s->exact_ip ? KUNWIND_FRAME_REGS : 0;
		/* A register frame from user mode ends the kernel stack. */
		if (s->exact_ip && s->ip < TASK_SIZE_MAX) {
			s->stop = KUNWIND_STOP_END;
			return false;
		}
		return true;
	}
	/*
	 * The ORC fallback: where no row describes ip, and where a row's
	 * step failed (CFI that is wrong at run time, e.g. after code
	 * patching).  The frame is flagged KUNWIND_FRAME_ORC; if ORC cannot
	 * step either, the walk keeps the table's stop reason.
	 */
	if (s->stop == KUNWIND_STOP_END || s->stop == KUNWIND_STOP_DEPTH)
		return false;
	if (switched) {		/* ORC reads the IRQ stack's top word itself */
		s->sp = sp;
		s->stack_lo = lo;
		s->stack_hi = hi;
		s->nr_left = nr_left;
	}
	switch (orc_step(w)) {
	case ORC_STEPPED:
		s->stop = KUNWIND_STOP_NONE;
		kunwind_count(KUNWIND_CNT_ORC, 1);
		return true;
	case ORC_END:
		s->stop = KUNWIND_STOP_END;
		return false;
	default:
		kunwind_count(KUNWIND_CNT_ORC_FAILED, 1);
		return false;
	}
}
EXPORT_SYMBOL_GPL(kunwind_walk_next);

void kunwind_walk_end(struct kunwind_walk *w)
{
	kunwind_count(KUNWIND_CNT_STOP + w->s.stop, 1);
	if (w->put_stack)
		kunwind_put_task_stack(w->task);
	w->put_stack = false;
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(kunwind_walk_end);

/*
 * in_sched_functions(), which stack_trace_save_tsk() filters with: the
 * scheduler's and the locks' text.  Not exported; false if unresolved.
 */
bool kunwind_in_sched_functions(unsigned long addr)
{
	return (addr >= kunwind_sched_text[0] && addr < kunwind_sched_text[1]) ||
	       (addr >= kunwind_lock_text[0] && addr < kunwind_lock_text[1]);
}
EXPORT_SYMBOL_GPL(kunwind_in_sched_functions);

/* ---- init ---------------------------------------------------------- */

/*
 * kallsyms_lookup_name() is not exported since 5.7; a kprobe finds it.
 * With IBT the probe sits after the function's ENDBR: step back to it.
 */
static unsigned long find_kallsyms_lookup_name(void)
{
#ifdef CONFIG_KPROBES
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long addr;
	u32 insn;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	if (!copy_from_kernel_nofault(&insn, (void *)(addr - 4), sizeof(insn)) &&
	    insn == KUNWIND_ENDBR64)
		addr -= 4;
	return addr;
#else
	return 0;
#endif
}

unsigned long kunwind_lookup_name(const char *name)
{
	return kunwind_kallsyms_lookup_name ?
	       kunwind_kallsyms_lookup_name(name) : 0;
}
EXPORT_SYMBOL_GPL(kunwind_lookup_name);

int kunwind_stack_init(void)
{
	unsigned long addr = find_kallsyms_lookup_name();

	if (kunwind_indirect_call_ok(addr))
		kunwind_kallsyms_lookup_name = (kallsyms_lookup_name_fn)addr;
	addr = kunwind_lookup_name("get_stack_info");
	if (kunwind_indirect_call_ok(addr))
		kunwind_get_stack_info = (get_stack_info_fn)addr;
	else
		pr_info("get_stack_info() unavailable: walks stay on the task and IRQ stacks\n");
	addr = kunwind_lookup_name("put_task_stack");
	if (kunwind_indirect_call_ok(addr))
		kunwind_put_task_stack = (void (*)(struct task_struct *))addr;
	kunwind_sched_text[0] = kunwind_lookup_name("__sched_text_start");
	kunwind_sched_text[1] = kunwind_lookup_name("__sched_text_end");
	kunwind_lock_text[0] = kunwind_lookup_name("__lock_text_start");
	kunwind_lock_text[1] = kunwind_lookup_name("__lock_text_end");
	/* >= 6.5: ret_from_fork is C, the switch target ret_from_fork_asm. */
	kunwind_ret_from_fork = kunwind_lookup_name("ret_from_fork_asm");
	if (!kunwind_ret_from_fork)
		kunwind_ret_from_fork = kunwind_lookup_name("ret_from_fork");
	return 0;
}
