#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Folded stacks (the profiler's output) into one interactive flame graph:
# a single HTML file that opens offline, from file://, with no network.
#
#	scripts/flamegraph.sh FOLDED OUT.html [--title TITLE]
#
# FOLDED holds one stack a line, outermost frame first, leaf last, and
# the sample count after the last space:
#	ret_from_fork_asm;ret_from_fork;kthread;ksample_burn [kunwind_sample] 42
# "#" lines are comments; empty lines are ignored; identical stacks add up;
# any other line is skipped, and their number goes to stderr.
#
# OUT.html inlines d3 and d3-flame-graph (pinned by
# scripts/flamegraph/package-lock.json, installed by scripts/npm.sh into
# build/npm) and the call tree as JSON: click a frame to zoom in, hover for
# its samples, search by substring.  No samples gives a page that says so.
# Prints "OUT.html: N samples".  TITLE defaults to FOLDED's file name.
# The work is scripts/flamegraph/render.js's.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
usage() {
	echo "usage: $0 FOLDED OUT.html [--title TITLE]" >&2
	exit 2
}
[ $# -ge 2 ] || usage
folded=$1
out=$2
shift 2
title=${folded##*/}
while [ $# -gt 0 ]; do
	case $1 in
	--title) [ $# -ge 2 ] || usage; title=$2; shift 2 ;;
	*) usage ;;
	esac
done
if [ ! -r "$folded" ]; then
	echo "flamegraph: cannot read $folded" >&2
	exit 1
fi
modules=$("$top/scripts/npm.sh")
mkdir -p "$(dirname "$out")"
exec node "$top/scripts/flamegraph/render.js" "$modules" "$folded" "$out" "$title"
