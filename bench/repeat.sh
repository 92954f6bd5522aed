#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench N times and the median of each figure, with its spread:
#
#	bench/repeat.sh [N]		(default 3; make bench-3 runs it)
#
# A goal counts as met only when the median of at least three runs meets
# it (README, "Measured").  Every "bench: ..." summary line of each run
# is read as a label and its key=value figures; each figure is printed
# once more as
#
#	bench: median of N: <label> <key>=<median> [<min>-<max>]
#
# in the order the runs printed them.  A figure missing from a run is an
# error (the runs must be alike), as is a run of make bench that fails.
# The runs' own output is kept in $O/bench/repeat-<i>.log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
n=${1:-3}
O=${O:-build}
case "$O" in /*) ;; *) O=$top/$O ;; esac
mkdir -p "$O/bench"
case "$n" in ''|*[!0-9]*) echo "usage: $0 [N]" >&2; exit 2 ;; esac
[ "$n" -ge 1 ] || { echo "usage: $0 [N], N >= 1" >&2; exit 2; }

for i in $(seq 1 "$n"); do
	echo "=== bench/repeat.sh: run $i of $n ($(date -u '+%H:%M UTC'))"
	# O from the environment, not the command line: a command-line
	# variable goes on in MAKEFLAGS to every make below, the kernel's
	# too, where O is its output directory.
	if ! O=$O make -C "$top" --no-print-directory bench \
			>"$O/bench/repeat-$i.log" 2>&1; then
		tail -n 20 "$O/bench/repeat-$i.log" | sed 's/^/#   /'
		echo "bench/repeat.sh: error: run $i of make bench failed ($O/bench/repeat-$i.log)" >&2
		exit 1
	fi
	grep '^bench: ' "$O/bench/repeat-$i.log" || true
done

python3 - "$n" "$O"/bench/repeat-*.log <<'EOF'
import re
import statistics
import sys

n = int(sys.argv[1])
logs = sys.argv[2:2 + n]
# a number, whole: "10Hz=-20.32..5.66" (a range) is no figure
fig = re.compile(r'([A-Za-z0-9_./-]+)=([-+]?[0-9]+(?:\.[0-9]+)?)(?![0-9.])')
order, vals = [], {}
for log in logs:
    seen = set()
    for line in open(log):
        if not line.startswith('bench: ') or 'median of' in line:
            continue
        body = line[len('bench: '):].rstrip('\n')
        first = fig.search(body)
        label = body[:first.start()].strip() if first else body
        for m in fig.finditer(body):
            key = (label, m.group(1))
            if key in seen:
                continue
            seen.add(key)
            if key not in vals:
                order.append(key)
                vals[key] = []
            vals[key].append(float(m.group(2)))
missing = [k for k in order if len(vals[k]) != len(logs)]
if missing:
    sys.exit('bench/repeat.sh: error: figures missing from some runs: %s'
             % ', '.join('%s %s' % k for k in missing[:5]))
for label, key in order:
    v = vals[(label, key)]
    print('bench: median of %d: %s %s=%g [%g-%g]'
          % (len(v), label, key, statistics.median(v), min(v), max(v)))
EOF
