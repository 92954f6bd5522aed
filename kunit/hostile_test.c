// SPDX-License-Identifier: GPL-2.0
/*
 * Suite kunwind_hostile: walks from what should never be there end early
 * and never report a frame that is not code, never fault:
 *
 *   - kunwind_text_address() refuses 0, data (&jiffies), a user address,
 *     a non-canonical address and freed init text;
 *   - walks from deliberately inconsistent register sets: a stack holding
 *     each of those as the return address, an ip that is data, an sp on
 *     no stack;
 *   - kunwind_read_nofault() refuses what copy_from_kernel_nofault()
 *     refuses: a user address that is mapped (SMAP would oops on the load
 *     before the exception table is consulted), the vsyscall page,
 *     addresses that are not canonical for this machine's paging;
 *   - walks of another task: refused when its stack is gone, and in
 *     hardirq (a stack reference must not be dropped there), counted;
 *   - the walk's code cannot be kprobed.
 */
/* kunwind_read_nofault() and friends, as kunwind.ko builds them */
#include "unwind/linux/compat.h"
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/sched/task_stack.h>
#include <asm/ptrace.h>
#include "unwind/linux/counters.h"
#include "unwind/linux/kwalk.h"
#include "unwind/linux/registry_lookup.h"
#include "unwind/linux/symbols.h"
#include "arch.h"
#include "kunwind_test.h"
#include "main.h"
#include "trace.h"

struct bad_addr {
	const char *name;
	unsigned long (*addr)(void);
};

static unsigned long a_zero(void) { return 0; }
static unsigned long a_data(void) { return (unsigned long)&jiffies; }
static unsigned long a_user(void) { return 0x400000; }
static unsigned long a_non_canonical(void) { return 0x8000000000001000UL; }
/*
 * The helper module's init text, freed after its init: the suite loads
 * it (hostile_suite_init()) and waits until the loader freed it.
 */
static unsigned long freed_init_fn;

static unsigned long a_freed_init(void)
{
	return freed_init_fn;
}

static const struct bad_addr bad_addrs[] = {
	{ "zero", a_zero },
	{ "data_jiffies", a_data },
	{ "user", a_user },
	{ "non_canonical", a_non_canonical },
	{ "freed_init_text", a_freed_init },
};

static void bad_addr_desc(const struct bad_addr *b, char *desc)
{
	strscpy(desc, b->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_addr, bad_addrs, bad_addr_desc);

static void hostile_text_address_refuses_non_code(struct kunit *test)
{
	const struct bad_addr *b = test->param_value;
	unsigned long a = b->addr();

	if (b->addr == a_freed_init)
		KUNIT_ASSERT_NE(test, a, 0ul);
	KUNIT_EXPECT_FALSE_MSG(test, kunwind_text_address(a),
			       "%s (%px) taken for text", b->name, (void *)a);
	KUNIT_EXPECT_TRUE(test, kunwind_text_address((unsigned long)kunwind_next));
	KUNIT_EXPECT_TRUE(test, kunwind_text_address((unsigned long)schedule));
}

/* A function with a table row at its first byte (arch.h: KT_ENTRY_*). */
static noinline void hostile_target(void)
{
	barrier();
}

/*
 * A register set interrupted at hostile_target's first instruction, on a
 * fake stack in this frame, whose return address (its first word, or
 * x30: kt_regs_entry_ra()) is bad:
 * the walk reports the interrupted ip and stops there, table and ORC
 * fallback alike.
 */
static void hostile_walk_stops_at_bad_return_address(struct kunit *test)
{
	const struct bad_addr *b = test->param_value;
	unsigned long stack[8] = {};
	struct kt_trace *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct pt_regs regs = {};

	KUNIT_ASSERT_NOT_NULL(test, t);
	kt_regs_init(&regs, (unsigned long)hostile_target, (unsigned long)stack,
		     false);
	kt_regs_entry_ra(&regs, stack, b->addr());
	t->stop = kunwind_walk(NULL, &regs, kt_trace_add, t);
	barrier_data(stack);
	KUNIT_EXPECT_EQ(test, t->n, 1u);
	KUNIT_EXPECT_EQ(test, t->ip[0], instruction_pointer(&regs));
	KUNIT_EXPECT_NE_MSG(test, t->stop, KUNWIND_STOP_END, "walk: %s",
			    kunwind_stop_str(t->stop));
	KUNIT_EXPECT_EQ_MSG(test, t->stop, b->addr == a_zero ?
			    KT_ZERO_RA_STOP : KUNWIND_STOP_BAD_RA,
			    "walk: %s", kunwind_stop_str(t->stop));
}

static void hostile_walk_from_regs_with_data_ip_reports_nothing(struct kunit *test)
{
	struct kt_trace *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned long stack[8] = {};
	struct pt_regs regs = {};

	KUNIT_ASSERT_NOT_NULL(test, t);
	kt_regs_init(&regs, (unsigned long)&jiffies, (unsigned long)stack,
		     false);
	t->stop = kunwind_walk(NULL, &regs, kt_trace_add, t);
	KUNIT_EXPECT_EQ(test, t->n, 0u);
	KUNIT_EXPECT_EQ(test, t->stop, KUNWIND_STOP_BAD_RA);
}

/*
 * A user-mode register set has no kernel frames above it: its ip is the
 * only frame, as ORC's walk from it has it (stack_trace_save_regs(), not
 * exported: kt_orc_regs()), from kunwind_walk() and from
 * kunwind_save_regs(), whose walk starts stopped, at that frame.
 */
static void hostile_user_regs_give_their_ip_only(struct kunit *test)
{
	struct kt_trace *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct kt_trace *orc = kunit_kzalloc(test, sizeof(*orc), GFP_KERNEL);
	unsigned long stack[8] = {}, store[4] = {};
	struct pt_regs regs = {};
	unsigned int n;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, orc);
	kt_regs_init(&regs, 0x400000, (unsigned long)stack, true);
	t->stop = kunwind_walk(NULL, &regs, kt_trace_add, t);
	KUNIT_EXPECT_EQ(test, t->n, 1u);
	KUNIT_EXPECT_EQ(test, t->ip[0], 0x400000ul);
	n = kunwind_save_regs(&regs, store, ARRAY_SIZE(store), 0, NULL);
	KUNIT_EXPECT_EQ(test, n, 1u);
	KUNIT_EXPECT_EQ(test, store[0], 0x400000ul);
	kt_orc_regs(orc, &regs);
	KUNIT_EXPECT_EQ(test, orc->n, n);
	KUNIT_EXPECT_EQ(test, orc->ip[0], store[0]);
}

/*
 * ip 0 is the fault of a call through a NULL pointer: the frame is
 * reported, and its caller is the return address the call left (at sp,
 * as ORC's null entry has it; in x30 on arm64); none if that is not
 * text.
 */
static noinline void hostile_null_call_site(struct kunit *test,
					    unsigned long *stack,
					    struct kt_trace *t)
{
	unsigned long ra = (unsigned long)__builtin_return_address(0);
	struct pt_regs regs = {};

	kt_regs_init(&regs, 0, (unsigned long)stack, false);
	kt_regs_entry_ra(&regs, stack, ra);
	t->stop = kunwind_walk(NULL, &regs, kt_trace_add, t);
	KUNIT_EXPECT_GE(test, t->n, 2u);
	KUNIT_EXPECT_EQ(test, t->ip[0], 0UL);
	KUNIT_EXPECT_EQ(test, t->ip[1], ra);
	kt_regs_entry_ra(&regs, stack, (unsigned long)&jiffies);
	t->n = 0;
	t->stop = kunwind_walk(NULL, &regs, kt_trace_add, t);
	KUNIT_EXPECT_EQ(test, t->n, 1u);
	KUNIT_EXPECT_EQ(test, t->ip[0], 0UL);
	KUNIT_EXPECT_NE(test, t->stop, KUNWIND_STOP_END);
}

static void hostile_walk_from_regs_with_null_ip_steps_to_sp(struct kunit *test)
{
	struct kt_trace *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned long stack[8] = {};

	KUNIT_ASSERT_NOT_NULL(test, t);
	hostile_null_call_site(test, stack, t);
	barrier_data(stack);
}

static void hostile_walk_from_regs_with_sp_on_no_stack_stops(struct kunit *test)
{
	struct kt_trace *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct pt_regs regs = {};

	KUNIT_ASSERT_NOT_NULL(test, t);
	kt_regs_init(&regs, (unsigned long)hostile_target,
		     (unsigned long)&jiffies, false);
	t->stop = kunwind_walk(NULL, &regs, kt_trace_add, t);
	KUNIT_EXPECT_EQ(test, t->n, 1u);
	KUNIT_EXPECT_NE(test, t->stop, KUNWIND_STOP_END);
}

/* ---- reads ---- */

static void hostile_read_nofault_refuses_what_the_kernel_refuses(struct kunit *test)
{
	const unsigned long addrs[] = KT_NOFAULT_BAD_ADDRS;
	unsigned long val, ok_word = 42;
	unsigned int i;

	KUNIT_ASSERT_TRUE(test, kunwind_read_nofault((unsigned long)&ok_word, &val));
	KUNIT_EXPECT_EQ(test, val, 42ul);
	kt_nofault_bites(test);
	for (i = 0; i < ARRAY_SIZE(addrs); i++) {
		KUNIT_EXPECT_NE_MSG(test, copy_from_kernel_nofault(&val, (void *)addrs[i],
								   sizeof(val)), 0,
				    "copy_from_kernel_nofault() read address #%u", i);
		KUNIT_EXPECT_FALSE_MSG(test, kunwind_read_nofault(addrs[i], &val),
				       "kunwind_read_nofault() read address #%u", i);
	}
}

/* ---- other tasks ---- */

static int exit_at_once(void *arg)
{
	return 0;
}

static void hostile_walk_of_task_without_stack_fails(struct kunit *test)
{
	struct kt_trace *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct task_struct *task;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	task = kthread_run(exit_at_once, NULL, "kunwind_gone");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	get_task_struct(task);
	/* It exits; its stack is freed once the last reference to it goes. */
	for (i = 0; i < 1000 && task_stack_page(task); i++)
		msleep(2);
	kt_kunwind_task(t, task);
	KUNIT_EXPECT_FALSE(test, task_stack_page(task));
	put_task_struct(task);
	KUNIT_EXPECT_EQ(test, t->n, 0u);
	KUNIT_EXPECT_EQ(test, t->stop, KUNWIND_STOP_BAD_READ);
}

struct hardirq_walk {
	struct hrtimer timer;
	struct task_struct *task;
	struct kt_trace t;
	unsigned long refused;
	bool done;
};

static enum hrtimer_restart walk_other_in_hardirq(struct hrtimer *timer)
{
	struct hardirq_walk *h = container_of(timer, struct hardirq_walk, timer);
	unsigned long before = kunwind_counter_read(KUNWIND_CNT_REFUSED);

	h->t.stop = kunwind_walk(h->task, NULL, kt_trace_add, &h->t);
	h->refused = kunwind_counter_read(KUNWIND_CNT_REFUSED) - before;
	WRITE_ONCE(h->done, true);
	return HRTIMER_NORESTART;
}

static void hostile_walk_of_other_task_refused_in_hardirq(struct kunit *test)
{
	struct hardirq_walk *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, h);
	h->task = current->real_parent;		/* insmod's parent: asleep */
	hrtimer_init(&h->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	h->timer.function = walk_other_in_hardirq;
	hrtimer_start(&h->timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	for (i = 0; i < 1000 && !READ_ONCE(h->done); i++)
		msleep(2);
	hrtimer_cancel(&h->timer);
	KUNIT_ASSERT_TRUE(test, READ_ONCE(h->done));
	KUNIT_EXPECT_EQ(test, h->t.n, 0u);
	KUNIT_EXPECT_EQ(test, h->refused, 1ul);
}

/* ---- no probes on the walk ---- */

static void hostile_walk_code_cannot_be_kprobed(struct kunit *test)
{
	static const struct {
		const char *name;
		void *fn;
	} fns[] = {
		{ "kunwind_walk", kunwind_walk },
		{ "kunwind_save", kunwind_save },
		{ "kunwind_walk_next", kunwind_walk_next },
		{ "kunwind_next", kunwind_next },
		{ "kunwind_seg_row", kunwind_seg_row },
		{ "kunwind_registry_seg", kunwind_registry_seg },
		{ "kunwind_walk_trace", kunwind_walk_trace },
		{ "kunwind_text_address", kunwind_text_address },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fns); i++) {
		struct kprobe kp = { .addr = fns[i].fn };
		int err = register_kprobe(&kp);

		if (!err)
			unregister_kprobe(&kp);
		KUNIT_EXPECT_NE_MSG(test, err, 0, "%s could be kprobed",
				    fns[i].name);
	}
}

static struct kunit_case hostile_test_cases[] = {
	KUNIT_CASE_PARAM(hostile_text_address_refuses_non_code, bad_addr_gen_params),
	KUNIT_CASE_PARAM(hostile_walk_stops_at_bad_return_address, bad_addr_gen_params),
	KUNIT_CASE(hostile_walk_from_regs_with_data_ip_reports_nothing),
	KUNIT_CASE(hostile_user_regs_give_their_ip_only),
	KUNIT_CASE(hostile_walk_from_regs_with_null_ip_steps_to_sp),
	KUNIT_CASE(hostile_walk_from_regs_with_sp_on_no_stack_stops),
	KUNIT_CASE(hostile_read_nofault_refuses_what_the_kernel_refuses),
	KUNIT_CASE(hostile_walk_of_task_without_stack_fails),
	KUNIT_CASE(hostile_walk_of_other_task_refused_in_hardirq),
	KUNIT_CASE(hostile_walk_code_cannot_be_kprobed),
	{}
};

#define HELPER	"kunwind_test_helper"

static int hostile_suite_init(struct kunit_suite *suite)
{
	struct module *mod;
	int i, err = kt_insmod(HELPER);

	if (err)
		return err;
	mod = kt_helper.info.mod;
	freed_init_fn = kt_helper.info.sec_fn[KT_SEC_INIT];
	if (!mod || !freed_init_fn)
		return -ENOENT;
	/* do_free_init() runs after an RCU grace period, from a worker. */
	for (i = 0; i < 500 && within_module_init(freed_init_fn, mod); i++)
		msleep(2);
	return within_module_init(freed_init_fn, mod) ? -EBUSY : 0;
}

static void hostile_suite_exit(struct kunit_suite *suite)
{
	kt_rmmod(HELPER);
}

static struct kunit_suite hostile_test_suite = {
	.name = "kunwind_hostile",
	.suite_init = hostile_suite_init,
	.suite_exit = hostile_suite_exit,
	.test_cases = hostile_test_cases,
};

kunit_test_suite(hostile_test_suite);
