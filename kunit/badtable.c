// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_test_badtable.ko: a module with a table, which kunit-run.sh
 * corrupts after the build (the magic of its .kunwind section).  kunwind
 * must refuse the table with one message naming this module, and walks
 * through the module must still work, by the ORC fallback.
 */
#include <linux/module.h>
#include "kunwind_test.h"

static struct kt_helper_info kbad_info;

static noinline void kbad_walk(void)
{
	kunwind_test_section_probe(KT_SEC_BAD);
	barrier();
}

static int __init kbad_init(void)
{
	kbad_info.mod = THIS_MODULE;
	kbad_info.text_fn = (unsigned long)kbad_walk;
	kbad_info.bad_table = true;
	kunwind_test_helper_up(&kbad_info);
	kbad_walk();
	return 0;
}

static void __exit kbad_exit(void)
{
	kunwind_test_helper_down(&kbad_info);
}

module_init(kbad_init);
module_exit(kbad_exit);

MODULE_DESCRIPTION("kunwind KUnit helper: a module whose table is corrupt");
MODULE_LICENSE("GPL");
