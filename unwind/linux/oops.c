// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind's backtrace when the kernel dies.
 *
 * An oops (the die chain, DIE_OOPS): the failing context, walked from the
 * fault's pt_regs.  x86's __die_body() prints the kernel's own report
 * (show_regs(): registers and its Call Trace) and then calls the chain,
 * inside oops_begin(): die_lock held, interrupts off, the other CPUs
 * still running.  So kunwind's trace follows the kernel's, from the same
 * registers.
 *
 * A panic (the panic notifiers): from where panic() was called.  panic()
 * calls them after dump_stack() and after stopping the other CPUs, and
 * only if kdump did not take over first (crash_kexec_post_notifiers).
 * Like panic()'s own dump_stack(), a panic that an oops caused (called
 * from oops_end(): "Fatal exception") gets one line, not a second trace.
 *
 * What runs here allocates nothing and takes no lock: the walk is the
 * one of every kunwind trace (any context, NMI included), printk stores
 * into its lockless ring from any context.  A per-CPU guard keeps a death
 * during the trace (a fault inside kunwind, a nested oops, an NMI that
 * dies) from printing another: that one gets a line, not a trace.  The
 * notifiers return NOTIFY_DONE: what the kernel does next is not
 * kunwind's to change.
 *
 * kunwind.oops=0 turns both off (default: CONFIG_KUNWIND_OOPS, and off on
 * a kernel whose own unwinder is kunwind, CONFIG_UNWINDER_KUNWIND: the
 * kernel's report is then kunwind's walk already, and a second trace
 * would print the same frames again);
 * kunwind.oops_depth=N prints at most N frames (default 64, at most
 * KUNWIND_MAX_DEPTH).  Both may change at run time, in
 * /sys/module/kunwind/parameters/.
 */
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/panic.h>
#include <linux/panic_notifier.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <linux/stringify.h>
#include <asm/ptrace.h>
#include "counters.h"
#include "kunwind_api.h"
#include "oops.h"
#include "print.h"
#include "symbols.h"

static bool oops_on = IS_ENABLED(CONFIG_KUNWIND_OOPS) && !KUNWIND_KERNEL_UNWINDER;
module_param_named(oops, oops_on, bool, 0644);
MODULE_PARM_DESC(oops, "print kunwind's backtrace when the kernel oopses or panics");

static unsigned int oops_depth = 64;

static int oops_depth_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, KUNWIND_MAX_DEPTH);
}

static const struct kernel_param_ops oops_depth_ops = {
	.set = oops_depth_set,
	.get = param_get_uint,
};
module_param_cb(oops_depth, &oops_depth_ops, &oops_depth, 0644);
MODULE_PARM_DESC(oops_depth, "frames of an oops or panic backtrace, at most (1-"
		 __stringify(KUNWIND_MAX_DEPTH) ")");

/*
 * The task printing a backtrace on this CPU, or none.  A death of that
 * same context meanwhile (a fault inside kunwind, a nested oops, an NMI
 * that dies: all run as current) is refused.  An owner, not a count: a
 * nested oops never returns to the trace it interrupted (it kills the
 * task or panics), and the next task to die on this CPU must still get
 * its trace.  So the owner of a CPU that died while printing stays; it
 * is keyed by the task_struct and the task's start time, which no later
 * task reusing that task_struct has (a task forks after the one whose
 * struct it reuses was freed, and start_time grows), so it is refused
 * nothing.  Written start first: an NMI between the two writes sees no
 * owner of its own and prints, as it would before the guard.
 */
struct oops_owner {
	struct task_struct *task;
	u64 start;
};

static DEFINE_PER_CPU(struct oops_owner, oops_owner);

/* Preemption is off: the guard is this CPU's. */
__kunwind_walk bool kunwind_oops_guard_enter(void)
{
	struct oops_owner *o = this_cpu_ptr(&oops_owner);

	/*
	 * Refused once, the owner is forgotten: it never returns to its
	 * trace, and a task whose struct and start time are the same (an
	 * exec takes the leader's start time: de_thread()) must not be
	 * refused for ever.  A death nested in this refused one's own
	 * handling finds the guard that a panic's trace took again.
	 */
	if (READ_ONCE(o->task) == current &&
	    READ_ONCE(o->start) == current->start_time) {
		WRITE_ONCE(o->task, NULL);
		return false;
	}
	WRITE_ONCE(o->task, NULL);
	barrier();
	WRITE_ONCE(o->start, current->start_time);
	barrier();
	WRITE_ONCE(o->task, current);
	return true;
}
EXPORT_SYMBOL_GPL(kunwind_oops_guard_enter);

__kunwind_walk void kunwind_oops_guard_leave(void)
{
	WRITE_ONCE(this_cpu_ptr(&oops_owner)->task, NULL);
}
EXPORT_SYMBOL_GPL(kunwind_oops_guard_leave);

/*
 * The functions a panic's walk looks for, [start, end), resolved at load:
 * panic() (and vpanic(), 6.15's, which panic() calls) and oops_end()
 * (and its .cold part), whose panic follows an oops.  0, 0: unknown.
 */
static unsigned long panic_text[2], vpanic_text[2];
static unsigned long oops_end_text[2], oops_end_cold_text[2];

static __kunwind_walk bool in_text(const unsigned long *text, unsigned long ip)
{
	return ip - text[0] < text[1] - text[0];
}

/* Where panic() is in a walk started in kunwind_oops_show(). */
struct panic_search {
	unsigned int n, found;	/* frames seen; panic()'s index + 1 */
	bool from_oops;		/* the frame after it is in oops_end() */
};

/* ip - 1: these are return addresses. */
static __kunwind_walk bool find_panic(void *cookie, const struct kunwind_frame *f)
{
	struct panic_search *ps = cookie;
	unsigned long ip = f->ip - 1;

	ps->n++;
	if (in_text(panic_text, ip) || in_text(vpanic_text, ip)) {
		ps->found = ps->n;
		ps->from_oops = false;
	} else if (ps->found == ps->n - 1 &&
		   (in_text(oops_end_text, ip) ||
		    in_text(oops_end_cold_text, ip))) {
		ps->from_oops = true;
	}
	/* panic()'s frame is a few above the notifier's, never far */
	return ps->n < 16;
}

__kunwind_walk noinline int kunwind_oops_show(enum kunwind_death death,
					      struct pt_regs *regs,
					      const char *loglvl)
{
	struct kunwind_print p = {
		.loglvl = loglvl,
		.what = death == KUNWIND_DEATH_OOPS ? "oops" : "panic",
		.max = READ_ONCE(oops_depth),
	};
	int n = 0;

	preempt_disable_notrace();
	if (!kunwind_oops_guard_enter()) {
		kunwind_count(KUNWIND_CNT_DEATHS_NESTED, 1);
		printk("%skunwind: no backtrace of this %s: CPU %d died while kunwind printed one\n",
		       loglvl, p.what, raw_smp_processor_id());
		preempt_enable_notrace();
		return -EBUSY;
	}
	if (!regs) {
		/* Both walks start in this function: same frames above it. */
		struct panic_search ps = { 0, 0, false };

		kunwind_walk(NULL, NULL, find_panic, &ps);
		p.skip = ps.found;
		if (ps.from_oops) {
			/* as panic() skips its dump_stack() after an oops */
			printk("%skunwind: panic from an oops: its backtrace is above\n",
			       loglvl);
			goto out;
		}
	}
	n = kunwind_print_trace(regs, &p);
	kunwind_count(KUNWIND_CNT_DEATHS, 1);
out:
	kunwind_oops_guard_leave();
	preempt_enable_notrace();
	return n;
}
EXPORT_SYMBOL_GPL(kunwind_oops_show);

static __kunwind_walk int die_notify(struct notifier_block *nb,
				     unsigned long val, void *data)
{
	struct die_args *args = data;

	if (val == DIE_OOPS && READ_ONCE(oops_on) && args->regs &&
	    !user_mode(args->regs))
		kunwind_oops_show(KUNWIND_DEATH_OOPS, args->regs, KERN_DEFAULT);
	return NOTIFY_DONE;
}

static __kunwind_walk int panic_notify(struct notifier_block *nb,
				       unsigned long val, void *data)
{
	if (READ_ONCE(oops_on))
		kunwind_oops_show(KUNWIND_DEATH_PANIC, NULL, KERN_EMERG);
	return NOTIFY_DONE;
}

/*
 * The highest priority in both chains: the trace comes before notifiers
 * that may dump a lot or never return (kdb, hypervisor panic hooks);
 * kprobes' die notifier has it too, and ignores DIE_OOPS.
 */
static struct notifier_block die_nb = {
	.notifier_call = die_notify,
	.priority = INT_MAX,
};

static struct notifier_block panic_nb = {
	.notifier_call = panic_notify,
	.priority = INT_MAX,
};

int kunwind_oops_init(void)
{
	int err;

	kunwind_func_range((unsigned long)panic, &panic_text[0], &panic_text[1]);
	kunwind_func_range(kunwind_sym.vpanic, &vpanic_text[0], &vpanic_text[1]);
	kunwind_func_range(kunwind_sym.oops_end[0], &oops_end_text[0],
			   &oops_end_text[1]);
	kunwind_func_range(kunwind_sym.oops_end[1], &oops_end_cold_text[0],
			   &oops_end_cold_text[1]);
	err = register_die_notifier(&die_nb);

	if (err)
		return err;
	err = atomic_notifier_chain_register(&panic_notifier_list, &panic_nb);
	if (err)
		unregister_die_notifier(&die_nb);
	return err;
}

/* Both chains synchronize_rcu(): no notifier of ours runs after this. */
void kunwind_oops_exit_notifiers(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list, &panic_nb);
	unregister_die_notifier(&die_nb);
}
