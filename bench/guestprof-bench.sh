#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What kunwind-guestprof costs the guest it profiles from the host:
#
#	bench/guestprof-bench.sh [KERNEL]
#
# One QEMU run of KERNEL (default test: the 6.12 test kernel; as
# scripts/gdb-boot.sh takes it), -smp 2, TCG, its RAM in a shared file:
# rounds of 4 guest seconds of the sample module's work kthread (its
# rounds per host second are the throughput) beside a busybox syscall
# loop, alternating unprofiled and profiled, four profiled rounds at 10
# Hz and four at 100 Hz (scripts/guestprof-run.py bench).  Prints
#
#	bench: guestprof per-sample=<us> overhead 10Hz=<pct> 100Hz=<pct>
#		(the mean time the guest is stopped per sample; the median
#		 throughput loss of a profiled round against the unprofiled
#		 rounds on either side; goals <= 1000 us and < 1 % at 10 Hz)
#	bench: guestprof overhead spread 10Hz=<min>..<max> 100Hz=<min>..<max>
#
# About 2 minutes.  Outputs in build/guestprof/KERNEL/bench.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=${1:-test}
exec python3 "$top/scripts/guestprof-run.py" bench "$kernel" \
	"$top/${O:-build}/guestprof/$kernel/bench"
