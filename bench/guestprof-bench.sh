#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What kunwind-guestprof costs the guest it profiles from the host:
#
#	bench/guestprof-bench.sh [KERNEL]
#
# One QEMU run of KERNEL (default test: the 6.12 test kernel; as
# tests/harness/gdb-boot.sh takes it), -smp 2, TCG, its RAM in a shared file:
# rounds of 5 guest seconds of the sample module's work kthread (its
# rounds per host second are the throughput), alternating unprofiled and
# profiled, six profiled rounds at 10 Hz and six at 100 Hz
# (scripts/guestprof-run.py bench; kunwind-guestprof -r 1).  Prints
#
#	bench: guestprof per-sample=<us> overhead 10Hz=<pct> 100Hz=<pct>
#		(the mean time the guest is stopped per sample; the median
#		 throughput loss of a profiled round against the unprofiled
#		 rounds on either side; goals <= 1000 us and < 1 % at 10 Hz)
#	bench: guestprof overhead spread 10Hz=<min>..<max> 100Hz=<min>..<max>
#	bench: guestprof stopped 10Hz=<pct> 100Hz=<pct>
#		(the share of the profiled rounds' time the guest was
#		 stopped: what the loss would be without the rounds' noise)
#
# About 3 minutes.  Outputs in build/guestprof/KERNEL/bench.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
kernel=${1:-test}
obj=${O:-build}
case $obj in /*) ;; *) obj=$top/$obj ;; esac
exec python3 "$top/scripts/guestprof-run.py" bench "$kernel" \
	"$obj/guestprof/$kernel/bench"
