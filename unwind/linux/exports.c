// SPDX-License-Identifier: GPL-2.0
/*
 * The freestanding core's functions, exported for the KUnit suites
 * (kunit/).  unwind/lookup.c and walk.c include no kernel header, so their
 * exports are here; each is redeclared on the line before (typeof keeps
 * it the declaration of unwind/kunwind.h) so the export follows a
 * declaration.
 */
#include <linux/export.h>
#include "../kunwind.h"

typeof(kunwind_table_check) kunwind_table_check;
EXPORT_SYMBOL_GPL(kunwind_table_check);
typeof(kunwind_bad_str) kunwind_bad_str;
EXPORT_SYMBOL_GPL(kunwind_bad_str);
typeof(kunwind_seg_at) kunwind_seg_at;
EXPORT_SYMBOL_GPL(kunwind_seg_at);
typeof(kunwind_seg_row) kunwind_seg_row;
EXPORT_SYMBOL_GPL(kunwind_seg_row);
typeof(kunwind_table_rule) kunwind_table_rule;
EXPORT_SYMBOL_GPL(kunwind_table_rule);
typeof(kunwind_seg_rule) kunwind_seg_rule;
EXPORT_SYMBOL_GPL(kunwind_seg_rule);
typeof(kunwind_row_iter_init) kunwind_row_iter_init;
EXPORT_SYMBOL_GPL(kunwind_row_iter_init);
typeof(kunwind_row_next) kunwind_row_next;
EXPORT_SYMBOL_GPL(kunwind_row_next);
typeof(kunwind_stop_str) kunwind_stop_str;
EXPORT_SYMBOL_GPL(kunwind_stop_str);
typeof(kunwind_start) kunwind_start;
EXPORT_SYMBOL_GPL(kunwind_start);
typeof(kunwind_next) kunwind_next;
EXPORT_SYMBOL_GPL(kunwind_next);
typeof(kunwind_trace) kunwind_trace;
EXPORT_SYMBOL_GPL(kunwind_trace);
typeof(kunwind_trace_calls) kunwind_trace_calls;
EXPORT_SYMBOL_GPL(kunwind_trace_calls);
typeof(kunwind_enter_stack) kunwind_enter_stack;
EXPORT_SYMBOL_GPL(kunwind_enter_stack);
typeof(kunwind_stack_top_return) kunwind_stack_top_return;
EXPORT_SYMBOL_GPL(kunwind_stack_top_return);
typeof(kunwind_step_to) kunwind_step_to;
EXPORT_SYMBOL_GPL(kunwind_step_to);
typeof(kunwind_cache_clear) kunwind_cache_clear;
EXPORT_SYMBOL_GPL(kunwind_cache_clear);
#ifdef KUNWIND_ARCH_HAS_LR
typeof(kunwind_fp_step) kunwind_fp_step;
EXPORT_SYMBOL_GPL(kunwind_fp_step);
typeof(kunwind_lr_step) kunwind_lr_step;
EXPORT_SYMBOL_GPL(kunwind_lr_step);
#endif
