#!/bin/sh
# scripts/gdb-boot.sh live: wait until the sample's work kthread has run
# a round, say so, and idle until the host stops QEMU.
p=/sys/module/kunwind_sample/parameters/work_loops
i=0
while [ "$(cat $p)" = 0 ]; do
	i=$((i + 1))
	if [ "$i" -gt 30 ]; then
		echo "gdb-boot: the work kthread has not run in 30 s"
		exit 1
	fi
	sleep 1
done
pid=$(grep -lx ksample-work /proc/[0-9]*/comm | head -n1 | cut -d/ -f3)
echo "gdb-boot: ready pid $pid comm ksample-work"
if [ -r /workload.sh ]; then
	sh /workload.sh
	echo "gdb-boot: workload exit $?"
	while :; do sleep 60; done
fi
# Every 2 s a write to the trigger parameter: ksample_report() prints
# kunwind's trace and the kernel's from the same call (tests/gdb.test
# stops it there with a breakpoint and compares).
while :; do
	echo 1 >/sys/module/kunwind_sample/parameters/trigger
	sleep 2
done
