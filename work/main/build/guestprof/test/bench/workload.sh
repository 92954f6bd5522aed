#!/bin/sh
# scripts/guestprof-run.py's guest: rounds of S guest seconds of work
# (the sample's work kthread runs all along), marked on the console.
S=5 PROF=0 HZ=0 LOOP=0
P=/sys/kernel/debug/kunwind/profile
K=/sys/kernel/debug/kunwind/stats
L=/sys/module/kunwind_sample/parameters/work_loops
cs() { cut -d' ' -f1 /proc/uptime | tr -d .; }
[ $PROF = 1 ] && { echo $HZ >$P/frequency || exit 1; }
n=0
while :; do
	n=$((n + 1))
	[ $PROF = 1 ] && s0=$(cat $K)
	[ $PROF = 1 ] && { echo start >$P/control || exit 1; }
	echo "guestprof-run: round $n start loops $(cat $L)"
	[ $PROF = 1 ] && echo "$s0" | sed "s/^/guestprof-run: round $n stats0: /"
	end=$(($(cs) + S * 100))
	while [ "$(cs)" -lt $end ]; do
		if [ $LOOP = 1 ]; then
			cat /proc/self/stat >/dev/null
			ls /sys/kernel >/dev/null
		else
			sleep 1
		fi
	done
	echo "guestprof-run: round $n stop loops $(cat $L)"
	if [ $PROF = 1 ]; then
		echo stop >$P/control
		sed "s/^/guestprof-run: round $n stats1: /" $K
		awk '/fallback steps out of its text/ { print p ":" $0 } { p = $1 }' \
			/sys/kernel/debug/kunwind/tables |
			sed "s/^/guestprof-run: round $n tables: /"
		sed "s/^/guestprof-run: round $n folded: /" $P/folded
		echo reset >$P/control
	fi
	echo "guestprof-run: round $n end"
done
