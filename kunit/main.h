/* SPDX-License-Identifier: GPL-2.0 */
/*
 * main.c, kunwind_test.ko's init and exit: what init recorded while its
 * init text was live, the helper modules' rendezvous, and running
 * /bin/insmod, /bin/rmmod or any program from the suites.
 */
#ifndef _KUNWIND_KUNIT_MAIN_H
#define _KUNWIND_KUNIT_MAIN_H

#include "unwind/kunwind.h"
#include "kunwind_test.h"
#include "trace.h"

/* Recorded by the test module's __init code while init text is live. */
struct kt_init_record {
	unsigned long init_fn;		/* an __init function of this module */
	bool init_rule_found;		/* kunwind_find_rule(init_fn) then */
	int init_seg_state;		/* kunwind_registration_seg_state() then */
	bool walked;
	struct kt_trace kun, orc;	/* walked from an __init function */
};

extern struct kt_init_record kt_init_record;

/* The helper module's rendezvous (registry suite). */
struct kt_probe {
	bool done;
	unsigned long call_ip;		/* return address into the asm */
	struct kunwind_rule rule;	/* kunwind_find_rule(call_ip - 1) */
	bool rule_found;
	char seg_name[24];		/* the segment holding call_ip - 1 */
	unsigned long seg_off;		/* call_ip's offset in it */
	int seg_state;			/* kunwind_registration_seg_state() then */
	char fn1[48];			/* frame 1's function, named then */
	struct kt_trace kun, orc;
};

struct kt_helper_state {
	struct kt_helper_info info;	/* the latest helper_up() */
	unsigned long ups, downs;
	struct kt_probe probe[KT_SEC_NR + 1];
	/* kunwind's view of its init function during its init */
	bool init_rule_found;
	int init_seg_state;
};

extern struct kt_helper_state kt_helper;

/* Run /bin/insmod or /bin/rmmod, or any program; 0 on success. */
int kt_run(const char *a0, const char *a1, const char *a2);
int kt_insmod(const char *name);
int kt_rmmod(const char *name);
extern char *kt_module_dir;

#endif /* _KUNWIND_KUNIT_MAIN_H */
