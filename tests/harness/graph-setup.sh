#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run by the initramfs of tests/harness/kunit-run.sh and arm64-kunit.sh
# after kunwind.ko's insmod: trace kunwind_test_early.ko's kt_traced_*
# functions with function_graph, so that kunwind_test.ko's suites walk
# through return_to_handler.  Any failed step: exit 1 (init status).
t=/sys/kernel/tracing
fail() { echo "graph-setup: $*"; exit 1; }
if ! grep -q " $t tracefs " /proc/mounts; then
	mount -t tracefs nodev "$t" || fail "mount -t tracefs nodev $t failed"
	echo "graph-setup: mounted tracefs on $t"
fi
echo 'kt_traced_*' >"$t/set_ftrace_filter" ||
	fail "writing kt_traced_* to $t/set_ftrace_filter failed"
n=$(grep -c . "$t/set_ftrace_filter")
[ "$n" -gt 0 ] || fail "$t/set_ftrace_filter is empty"
echo "graph-setup: set_ftrace_filter: $n functions:" \
	"$(tr '\n' ' ' <"$t/set_ftrace_filter")"
echo function_graph >"$t/current_tracer" ||
	fail "writing function_graph to $t/current_tracer failed"
[ "$(cat "$t/current_tracer")" = function_graph ] ||
	fail "current_tracer is $(cat "$t/current_tracer"), not function_graph"
echo "graph-setup: current_tracer: function_graph"
