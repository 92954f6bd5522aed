/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The printer of kunwind's traces (api.c), for the oops printer (oops.c)
 * and the KUnit suites (exported GPL).
 */
#ifndef _KUNWIND_PRINT_H
#define _KUNWIND_PRINT_H

struct pt_regs;

/* How kunwind_print_trace() prints (api.c has the format). */
struct kunwind_print {
	const char *loglvl;
	const char *what;	/* "oops", "panic": in the header; or NULL */
	unsigned int skip;	/* frames to leave out first */
	unsigned int max;	/* frames to print at most */
};

/**
 * kunwind_print_trace() - Print current's stack like show_trace_log_lvl().
 * @regs: where to start; NULL: the function that calls this (its first
 *        frame is in that function, at the return address of this call)
 * @p:    how
 *
 * Context: Any context; allocates nothing, takes no lock.
 * Return: the frames printed.
 */
unsigned int kunwind_print_trace(struct pt_regs *regs,
				 const struct kunwind_print *p);

#endif /* _KUNWIND_PRINT_H */
