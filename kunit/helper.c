// SPDX-License-Identifier: GPL-2.0
/*
 * kunwind_test_helper.ko: the second, small module of the registry suite,
 * loaded and unloaded by it (registry_test.c) while kunwind_test.ko stays.
 * It tells kunwind_test.ko where its code is and walks from each of its
 * text sections (helper_sections.S): .init.text, .text and .text.unlikely
 * at load, .exit.text at unload.
 *
 * Built a second time as kunwind_test_badtable.ko (badtable.c), whose
 * table tests/harness/bad-table.py corrupts after the build: kunwind
 * must refuse that table and keep walking through the module with its
 * fallback (ORC; arm64: the frame records).
 */
#include <linux/module.h>
#include "kunwind_test.h"

static struct kt_helper_info kth_info;

static int __init kth_init(void)
{
	kth_info.mod = THIS_MODULE;
	kth_info.sec_fn[KT_SEC_TEXT] = (unsigned long)kth_sec_text;
	kth_info.sec_fn[KT_SEC_INIT] = (unsigned long)kth_sec_init;
	kth_info.sec_fn[KT_SEC_UNLIKELY] = (unsigned long)kth_sec_unlikely;
	kunwind_test_helper_up(&kth_info);
	kth_sec_init(KT_SEC_INIT);
	kth_sec_text(KT_SEC_TEXT);
	kth_sec_unlikely(KT_SEC_UNLIKELY);
	return 0;
}

static void __exit kth_exit(void)
{
	kth_sec_exit(KT_SEC_EXIT);
	kunwind_test_helper_down(&kth_info);
}

module_init(kth_init);
module_exit(kth_exit);

MODULE_DESCRIPTION("kunwind KUnit helper: a module to load and unload");
MODULE_LICENSE("GPL");
