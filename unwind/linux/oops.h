/* SPDX-License-Identifier: GPL-2.0 */
/*
 * oops.c: the backtraces printed when the kernel dies.  The die and panic
 * notifiers call kunwind_oops_show(), which runs inside a per-CPU guard
 * (kunwind_oops_guard_enter()/leave(), preemption off): a death of the
 * context that is printing one already (a fault inside the walk, a nested
 * oops, an NMI that dies) prints one line instead of a trace.  The guard
 * and kunwind_oops_show() are exported GPL for the KUnit suites; the
 * notifiers' init and exit are main.c's.
 */
#ifndef _KUNWIND_OOPS_H
#define _KUNWIND_OOPS_H

#include <linux/types.h>

struct pt_regs;

enum kunwind_death { KUNWIND_DEATH_OOPS, KUNWIND_DEATH_PANIC };

/**
 * kunwind_oops_guard_enter() - Enter this CPU's death-printing guard.
 *
 * Context: Any context; disables preemption until
 * kunwind_oops_guard_leave().
 * Return: true if entered; false if this CPU is printing a death already
 * (the caller prints one line instead, and still leaves).
 */
bool kunwind_oops_guard_enter(void);

/**
 * kunwind_oops_guard_leave() - Leave the guard kunwind_oops_guard_enter()
 * entered or refused.
 */
void kunwind_oops_guard_leave(void);

/**
 * kunwind_oops_show() - Print the backtrace of a death.
 * @death:  an oops or a panic
 * @regs:   an oops: its registers; a panic: NULL, from where panic() was
 *          called
 * @loglvl: printk level prefix
 *
 * Context: The die and panic notifiers; any context.
 * Return: the frames printed, or -EBUSY when the guard refused.
 */
int kunwind_oops_show(enum kunwind_death death, struct pt_regs *regs,
		      const char *loglvl);

int kunwind_oops_init(void);
void kunwind_oops_exit_notifiers(void);

#endif /* _KUNWIND_OOPS_H */
