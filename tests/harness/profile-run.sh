#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Profile a workload in QEMU with kunwind's profiler and keep the result:
#
#	tests/harness/profile-run.sh [--seconds S] [--hz HZ] [--deep-only]
#			       [--append ARGS] KERNEL OUTDIR
#
# KERNEL as tests/harness/profile-boot.sh takes it (test, debug, 6.1, 6.12,
# arm64).
# The guest loads the sample module with work=1 (a kthread busy in nested
# module functions and in sort()), turns the self-check on, profiles for
# S seconds (default 4) at HZ per CPU (default 997) while a busybox loop
# makes syscalls (--deep-only: sleeps instead, so that the samples are of
# the deep kthread and idle), and prints the profiler's files.  --append
# adds kernel arguments.  Left in OUTDIR:
#	profile.folded	the folded stacks
#	profile.html	the flame graph (scripts/flamegraph.sh), offline
#	stats, modules, selfcheck_report, console.log
# and on stdout, last:
#	profile: samples=N achieved_hz=N/N lost=N (P%) stopped=N
#	profile: stopped=N (P% of kernel samples) REASON=N ... deep=N
#	profile: steps tables=N fallback=N (REASON=N ...)
#	profile: retpoline_thunk=N (P% of kernel samples) entry=N stopped=N
#	profile: selfcheck equal=N differ=N orc_incomplete=N agreement=P%
#		[gained=N: arm64, the samples where the frame-record walk,
#		its self-check, lost the caller kunwind gave]
#	profile: selfcheck equal_tables=N equal_fallback=N (N steps) equal_stopped=N
#	profile: vmlinux table PATH (or "vmlinux table none: ..." on a stock
#		kernel whose -dbg package apt cannot give: see
#		tests/harness/stock-vmlinux.sh, whose failure fails this script)
#	profile: folded OUTDIR/profile.folded html OUTDIR/profile.html
# lost: walks that stopped at <= 2 frames; stopped: every walk that ended
# before the end of the stack, at any depth, by reason (stats'
# stopped_REASON), deep: those of more than 2 frames.  steps: the kernel
# samples' steps by kunwind's tables and by the ORC fallback, per reason
# (stats' steps_fallback_REASON).
# retpoline_thunk: samples that interrupted a retpoline thunk (entry: at
# its first instruction, a plain call frame), stopped: whose walk stopped
# there (counted in stopped and lost).  agreement: equal over equal +
# differ, the samples where ORC completed; equal_tables: equal with every
# step by tables, equal_fallback: with steps by the fallback.
# Exit status: 0 if the boot and the extraction went through.
set -euo pipefail

who='profile-run'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

secs=4 hz=997 syscalls=1 append=''
while [ $# -gt 0 ]; do
	case "$1" in
	--append) append=$2; shift 2 ;;
	--seconds) secs=$2; shift 2 ;;
	--deep-only) syscalls=0; shift ;;
	--hz) hz=$2; shift 2 ;;
	-*) die "unknown option $1 (see the header of $0)" ;;
	*) break ;;
	esac
done
[ $# = 2 ] || die "usage: $0 [--seconds S] [--hz HZ] [--deep-only] [--append ARGS] KERNEL OUTDIR"
kernel=$1 out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The guest's part.  Every line of a profiler file is prefixed, so that a
# kernel message on the console cannot be taken for one.
cat >"$out/workload.sh" <<EOF
#!/bin/sh
P=/sys/kernel/debug/kunwind/profile
insmod /lib/kunwind/kunwind_sample.ko points=0 work=1 || exit 1
echo $hz >\$P/frequency || exit 1
echo 1 >\$P/selfcheck
echo start >\$P/control || exit 1
end=\$((\$(cut -d. -f1 /proc/uptime) + $secs))
while [ "\$(cut -d. -f1 /proc/uptime)" -lt "\$end" ]; do
	if [ $syscalls = 1 ]; then
		cat /proc/self/stat >/dev/null
		ls /sys/kernel >/dev/null
	else
		sleep 1
	fi
done
echo stop >\$P/control
rmmod kunwind_sample
for f in stats modules selfcheck_report folded; do
	sed "s/^/kunwind-profile-\$f: /" \$P/\$f
done
EOF
chmod +x "$out/workload.sh"

# kunwind.ko with the kernel's vmlinux table (stock: its -dbg vmlinux,
# tests/harness/stock-vmlinux.sh; its failure is ours; without a table only
# when the -dbg package cannot be had, and then the summary says so).
table="vmlinux table of the $kernel kernel's build"
case "$kernel" in
test | debug | arm64) ;;
*)	KUNWIND_STOCK_VMLINUX=$("$top/tests/harness/stock-vmlinux.sh" "$kernel") ||
		die "tests/harness/stock-vmlinux.sh $kernel failed: no vmlinux for its table"
	export KUNWIND_STOCK_VMLINUX
	table="vmlinux table $KUNWIND_STOCK_VMLINUX"
	if [ "$KUNWIND_STOCK_VMLINUX" = no ]; then
		table="vmlinux table none: vmlinux frames by the ORC fallback (no table; stock-vmlinux.sh's reason above)"
		say "$table"
	fi ;;
esac
log=$("$top/tests/harness/profile-boot.sh" ${append:+--append "$append"} "$kernel" \
	"$out/workload.sh" | tail -n1) ||
	die "tests/harness/profile-boot.sh $kernel failed${log:+ (console: $log)}"
cp "$log" "$out/console.log"
for f in stats modules selfcheck_report folded; do
	sed -n "s/^kunwind-profile-$f: //p" "$out/console.log" |
		tr -d '\r' >"$out/$f"
done
mv "$out/folded" "$out/profile.folded"
[ -s "$out/stats" ] && [ -s "$out/profile.folded" ] ||
	die "no profile in $out/console.log"

stat() { sed -n "s/^$1: //p" "$out/stats"; }
samples=$(stat samples) lost=$(stat lost)
equal=$(stat selfcheck_equal) differ=$(stat selfcheck_differ)
# arm64: samples where the frame-record walk lost the caller kunwind gave
gained=$(stat selfcheck_gained)
"$top/scripts/flamegraph.sh" "$out/profile.folded" "$out/profile.html" \
	--title "kunwind profile ($kernel, $hz Hz, $secs s)" >&2 ||
	die "scripts/flamegraph.sh failed"
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? 100 * a / b : 0 }'; }
echo "profile: samples=$samples achieved_hz=$(stat achieved_hz)/$(stat requested_hz) lost=$lost ($(pct "$lost" "$samples")%) stopped=$(stat stopped)"
kern=$((samples - $(stat user_samples)))
reasons=$(sed -n '/^stopped_deep:/d; s/^stopped_\([a-z_]*\): \([0-9]*\)$/\1=\2/p' \
	"$out/stats" | tr '\n' ' ')
echo "profile: stopped=$(stat stopped) ($(pct "$(stat stopped)" "$kern")% of kernel samples) ${reasons}deep=$(stat stopped_deep)"
fb=$(sed -n 's/^steps_fallback_\([a-z_]*\): \([0-9]*\)$/\1=\2/p' "$out/stats" |
	tr '\n' ' ')
echo "profile: steps tables=$(stat steps_tables) fallback=$(stat steps_fallback) (${fb% })"
echo "profile: retpoline_thunk=$(stat retpoline_thunk) ($(pct "$(stat retpoline_thunk)" "$kern")% of kernel samples) entry=$(stat retpoline_thunk_entry) stopped=$(stat retpoline_thunk_stopped)"
echo "profile: selfcheck equal=$equal differ=$differ orc_incomplete=$(stat selfcheck_orc_incomplete) agreement=$(pct "$equal" $((equal + differ)))%${gained:+ gained=$gained}"
echo "profile: selfcheck equal_tables=$(stat selfcheck_equal_tables) equal_fallback=$(stat selfcheck_equal_fallback) ($(stat selfcheck_equal_fallback_steps) steps) equal_stopped=$(stat selfcheck_equal_stopped)"
echo "profile: $table"
echo "profile: folded $out/profile.folded html $out/profile.html"
