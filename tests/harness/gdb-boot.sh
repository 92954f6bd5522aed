#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel in QEMU for gdb and drgn (gdb/): a memory dump of a
# panicked guest, or a live guest behind QEMU's gdbstub:
#
#	tests/harness/gdb-boot.sh [OPTIONS] dump [KERNEL]
#	tests/harness/gdb-boot.sh [OPTIONS] --fork N dump [KERNEL]
#	tests/harness/gdb-boot.sh [OPTIONS] live [KERNEL]
#	tests/harness/gdb-boot.sh --stop DIR
#
# KERNEL (default test): "test" (tests/harness/test-kernel.sh), "debug" (the
# same with lockdep and kmemleak), "unwinder" (the test kernel with
# kunwind as its own unwinder, tests/harness/unwinder-kernel.sh: its
# tables are in its image and in each module), or a stock Debian kernel
# as tests/harness/stock-boot.sh takes it: 6.1, 6.12 or a full release.
# tests/harness/boot-modules.sh builds kunwind.ko (with the vmlinux table: the
# build dir's vmlinux, or a stock kernel's -dbg vmlinux, which
# tests/harness/stock-vmlinux.sh fetches once; on "unwinder" without one,
# the kernel's is registered) and kunwind_sample.ko.
#
# The initramfs (tests/harness/mkinitramfs.sh) insmods kunwind.ko and
# kunwind_sample.ko (points=0: none of its points runs); a stock kernel
# first gets its qemu_fw_cfg.ko (a module there, built in on the test
# kernel), without which the dump has no VMCOREINFO.  QEMU runs as
# tests/harness/qemu-run.sh runs it (TCG, -smp 2, 1 GB unless --mem), plus
# -device vmcoreinfo (the guest's fw_cfg driver tells QEMU where its
# VMCOREINFO note is: tests/harness/test-kernel.config), an HMP monitor on the
# unix socket DIR/monitor.sock and -pidfile DIR/qemu.pid.  The command
# line adds "loglevel=7 panic=0" to qemu-run.sh's "console=ttyS0
# panic=-1": panic=0, the later one, leaves a panicked kernel spinning in
# panic() instead of rebooting (and QEMU's -no-reboot then never acts).
# --append ARGS comes last, so it can override any of them (nokaslr,
# kunwind_sample.points=1, another panic=).
#
# dump: the guest writes the sample's dump parameter (sample/dump.c: three
# kthreads asleep at depths 1, 3 and 5, their kernel traces, then a
# panic).  When the console shows "---[ end Kernel panic", the host sends
# "dump-guest-memory -p DIR/dump.elf" over the monitor, which returns when
# the file is written, checks it (an ELF core, one NT_PRSTATUS note per
# vCPU, a VMCOREINFO note) and quits QEMU.  Outputs in DIR =
# build/gdb/KERNEL/dump: dump.elf, console.log, stacks.txt (the console
# from "kunwind-sample: dump begin" to the end of the panic, timestamps
# removed: the sleepers' markers and traces, the panic's trace), test.sh,
# initrd.cpio.gz, qemu.err.  The sample's markers:
#	kunwind-sample: dump sleeper N pid PID comm ksample-sleepD depth D begin
#	task:ksample-sleepD state:S ... (sched_show_task(), its Call Trace)
#	kunwind-sample: dump sleeper N end
#	kunwind-sample: dump panic cpu C pid PID comm COMM
# gdb thread N of the dump is vCPU N-1.
#
# dump with --fork N: a dump of a kernel that dies while a shell has just
# forked N background jobs ("sleep 1000 &"), so that the dump holds tasks
# forked but never scheduled (their saved return address, at thread.sp,
# is ret_from_fork_asm or ret_from_fork).  The shell runs at SCHED_FIFO 99
# pinned to CPU 0 (/fifo-cpu0, a static helper compiled here from the
# source below); its jobs inherit both, so none can run before the shell
# sleeps, and it never does: it forks them, writes their pids to the
# kernel log ("gdb-boot: forked PID..."), then "panic" to the sample's
# die parameter, which panics in the shell's own write.  No sleepers,
# no stacks.txt markers but that line and the panic.  Outputs in DIR =
# build/gdb/KERNEL/fork; info adds "forked PID...".
#
# live: the sample is loaded with work=1 (its ksample-work kthread runs
# nested module functions until rmmod), and /test.sh writes its trigger
# parameter every 2 s (ksample_report() prints kunwind's trace and the
# kernel's, "point 14 begin sysfs-trigger"); QEMU's gdbstub listens on the unix
# socket DIR/gdb.sock.  QEMU stays in the background: the script returns
# once /test.sh printed "gdb-boot: ready pid PID comm ksample-work" (the
# work kthread has run), and the guest loops in /test.sh until stopped.
# DIR = build/gdb/KERNEL/live: console.log (written on as the guest runs),
# the rest as for dump.  Connect with (gdb 13 takes the socket's path;
# "unix::PATH" it does not resolve)
#	gdb -batch -ex 'target remote DIR/gdb.sock' -ex 'info registers rip' VMLINUX
# (gdb stops the vCPUs while attached; they run on when it detaches).
# --workload FILE: /test.sh runs the shell script FILE (copied to
# /workload.sh) instead of the trigger loop, once ready; the guest idles
# when it returns.  --ram: guest RAM is a file the host may map,
# /dev/shm/kunwind-ram-HASH (QEMU memory-backend-file, share=on; HASH from
# DIR), removed by --stop: what kunwind-guestprof reads.
# Stop with "tests/harness/gdb-boot.sh --stop DIR" (quit over the monitor, then
# SIGTERM/SIGKILL to QEMU's pid), or kill the pid yourself.  QEMU is
# killed anyway after --timeout seconds (live default 3600; 0: never).
# One live guest per DIR: a second start is refused while it runs.
#
# Options:
#	--timeout S	QEMU's lifetime (qemu-run.sh --timeout; dump
#			default 300, live 3600, 0 none); the boot must reach
#			its marker within min(S, 300) seconds either way
#	--append ARGS	more kernel arguments, after the script's
#	--mem SIZE	guest RAM (QEMU -m; default qemu-run.sh's 1G): the
#			dump is about this size
#	--out DIR	outputs in DIR instead of build/gdb/KERNEL/MODE
#	--ram		live: guest RAM in a shared file (above)
#	--fork N	dump: die right after a shell forked N jobs (above)
#	--workload FILE	live: the guest's script once ready (above)
#
# stdout, at the end, "NAME VALUE" lines (also in DIR/info):
#	dump:	dump DIR/dump.elf, console, stacks, vmlinux, kunwind_ko,
#		sample_ko
#	live:	gdb DIR/gdb.sock (what "target remote" takes),
#		monitor DIR/monitor.sock, pid QEMU-PID, console, vmlinux,
#		kunwind_ko, sample_ko, stop "tests/harness/gdb-boot.sh --stop DIR",
#		ram FILE (with --ram)
# vmlinux is "none" for a stock kernel without a -dbg vmlinux.  The
# modules are the built ones, with their debug info; under KASLR (on
# unless --append nokaslr) vmlinux's symbols are off by the slide, which
# VMCOREINFO's KERNELOFFSET gives.  --stop prints "console PATH".
# Messages go to stderr.
#
# Exit status: 0 the dump is written and checked / the live guest is
# ready / --stop stopped it (or it was not running); 1 usage or build
# error; 2 the guest went wrong (QEMU ended before the marker, a panic
# that is not the sample's, the dump or its check failed: the messages
# say which); 124 the marker did not come in time (QEMU killed).
#
# Measured (2 cores, TCG, modules up to date; `time tests/harness/gdb-boot.sh
# ...`): dump on the test kernel 6.6-7.5 s in all: the panic's end 2.6-3.0
# s after QEMU starts, 1,025 MB dumped in 0.7-1.1 s (257 MB with --mem
# 256M); on Debian 6.12, 4.2 s to the panic and 14 s for the dump (the
# host flushing the previous one), 37 s with its first module build.
# live on the test kernel: ready 2.5 s after QEMU starts, 5.0 s in all;
# --stop 0.3 s.
set -euo pipefail

who='gdb-boot'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

# hmp SOCKET COMMAND: run one HMP command, print its output.  HMP has no
# end-of-reply marker but its prompt, which comes back when a synchronous
# command (dump-guest-memory without -d) is done; "quit" closes instead.
hmp() {
	python3 - "$1" "$2" <<'EOF'
import re, socket, sys

path, cmd = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(600)
s.connect(path)
PROMPT = b"(qemu) "


def reply():
    buf = b""
    while not buf.endswith(PROMPT):
        data = s.recv(65536)
        if not data:
            break
        buf += data
    return buf


reply()				# the banner
s.sendall(cmd.encode() + b"\n")
out = reply()
# The monitor echoes what it is sent, with terminal escapes.
out = re.sub(rb"\x1b\[[0-9;]*[A-Za-z]", b"", out).replace(b"\r", b"")
lines = out.decode(errors="replace").split("\n")[1:]
text = "\n".join(l for l in lines if l != PROMPT.decode()).strip()
if text:
    print(text)
EOF
}

# alive PID DIR: PID is the QEMU started for DIR (its command line names
# DIR's monitor socket), not a pid reused since.
alive() {
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null &&
		tr '\0' '\n' 2>/dev/null <"/proc/$1/cmdline" |
		grep -qF "$2/monitor.sock"
}

# running PID: not ended (a child that ended stays a zombie until waited).
running() {
	local st
	st=$(cut -d')' -f2 "/proc/$1/stat" 2>/dev/null) || return 1
	case "$st" in
	" Z"*) return 1 ;;
	esac
}

# stop DIR: quit QEMU over the monitor, else signal it; wait for
# qemu-run.sh, so that the console log is complete.
stop() {
	local d=$1 pid runner _
	pid=$(cat "$d/qemu.pid" 2>/dev/null || true)
	runner=$(cat "$d/runner.pid" 2>/dev/null || true)
	if alive "$pid" "$d"; then
		hmp "$d/monitor.sock" quit >/dev/null 2>&1 || true
		for _ in $(seq 50); do
			alive "$pid" "$d" || break
			sleep 0.2
		done
		if alive "$pid" "$d"; then
			say "QEMU $pid did not quit: SIGTERM"
			kill "$pid" 2>/dev/null || true
			sleep 2
			alive "$pid" "$d" && kill -9 "$pid" 2>/dev/null
		fi
	fi
	# The runner (qemu-run.sh, our child or a former run's) ends with QEMU.
	if [ -n "$runner" ]; then
		for _ in $(seq 50); do
			running "$runner" || break
			sleep 0.2
		done
	fi
	rm -f "$d/qemu.pid" "$d/runner.pid" "$(ram_file "$d")"
}

# ram_file DIR: the shared RAM file of DIR's guest (--ram).
ram_file() {
	echo "/dev/shm/kunwind-ram-$(echo "$1" | md5sum | cut -c1-12)"
}

if [ "${1:-}" = --stop ]; then
	[ $# = 2 ] || die "usage: $0 --stop DIR"
	d=$(cd "$2" && pwd) || die "no directory $2"
	stop "$d"
	echo "console $d/console.log"
	exit 0
fi

timeout='' append='' mem='' out='' ram=0 workload='' fork=''
while [ $# -gt 0 ]; do
	case "$1" in
	--ram) ram=1; shift ;;
	--fork) [ $# -ge 2 ] && [ "$2" -ge 1 ] 2>/dev/null ||
			die "--fork wants a number of jobs"
		fork=$2; shift 2 ;;
	--workload) [ $# -ge 2 ] && [ -r "$2" ] || die "--workload wants a readable file"
		workload=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
	--timeout) [ $# -ge 2 ] || die "--timeout wants seconds"
		timeout=$2; shift 2 ;;
	--append) [ $# -ge 2 ] || die "--append wants kernel arguments"
		append=$2; shift 2 ;;
	--mem) [ $# -ge 2 ] || die "--mem wants a size"
		mem=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || die "--out wants a directory"
		out=$2; shift 2 ;;
	-*) die "unknown option $1 (see the header of $0)" ;;
	*) break ;;
	esac
done
case "${1:-}:$#" in
dump:1 | dump:2 | live:1 | live:2) ;;
*) die "usage: $0 [--timeout S] [--append ARGS] [--mem SIZE] [--out DIR] [--ram] [--workload FILE] dump|live [KERNEL]; $0 --stop DIR" ;;
esac
[ "$1" = live ] || [ "$ram$workload" = 0 ] || die "--ram and --workload are for live"
[ "$1" = dump ] || [ -z "$fork" ] || die "--fork is for dump"
mode=$1 kernel=${2:-test}
case "$kernel" in
*[!A-Za-z0-9._+-]* | '') die "bad KERNEL '$kernel'" ;;
esac
if [ -z "$timeout" ]; then
	timeout=300
	[ "$mode" = live ] && timeout=3600
fi
case "$timeout" in
'' | *[!0-9]*) die "--timeout wants whole seconds" ;;
esac
# The marker's deadline: a boot takes seconds, a dump's wait 10 more.
boot_limit=300
[ "$timeout" != 0 ] && [ "$timeout" -lt "$boot_limit" ] && boot_limit=$timeout
case "$mem" in
'' | [0-9]*[0-9MG]) ;;
*) die "--mem wants a size such as 512M or 2G" ;;
esac

# O: the build directory, as for the top Makefile (relative to the top).
harness_objdir
kdir=$objdir/gdb/$kernel
mkdir -p "$kdir"
if [ -z "$out" ]; then
	out=$kdir/$mode
	[ -z "$fork" ] || out=$kdir/fork
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
# A unix socket's path has room for 107 bytes.
[ ${#out} -le 90 ] || die "$out: too long for a unix socket path (--out)"
# One run at a time per kernel: the module build, and a live guest's
# start (a second finds it running).
harness_lock "$kdir"
if alive "$(cat "$out/qemu.pid" 2>/dev/null || true)" "$out"; then
	die "a guest runs in $out: tests/harness/gdb-boot.sh --stop $out"
fi

t0=$(now)
mdir=
case "$kernel" in
test | debug | unwinder) mdir=$kdir ;;
*) export KUNWIND_STOCK_VMLINUX
	KUNWIND_STOCK_VMLINUX=$("$top/tests/harness/stock-vmlinux.sh" "$kernel") ||
		die "tests/harness/stock-vmlinux.sh $kernel failed" ;;
esac
harness_modules "$kernel" ${mdir:+"$mdir"}
case "$kernel" in
test | debug | unwinder) vmlinux=${bzimage%/arch/x86/boot/bzImage}/vmlinux ;;
*) vmlinux=$KUNWIND_STOCK_VMLINUX
	[ "$vmlinux" = no ] && vmlinux=none ;;
esac

rm -f "$out"/{dump.elf,console.log,stacks.txt,info,qemu.err,qemu.pid,runner.pid,monitor.sock,gdb.sock}
mods=()
case "$kernel" in
test | debug | unwinder) ;;
*)
	# A stock kernel has the fw_cfg driver as a module (xz on 6.12,
	# which busybox's insmod does not unpack).
	rel=${bzimage#*/vmlinuz-}
	fwcfg=$(find "/lib/modules/$rel/kernel/drivers/firmware" \
		-name 'qemu_fw_cfg.ko*' 2>/dev/null | head -n1) || true
	if [ -z "$fwcfg" ]; then
		say "$rel: no qemu_fw_cfg.ko: the dump will lack VMCOREINFO"
	elif [ "${fwcfg%.xz}" != "$fwcfg" ]; then
		xz -dc "$fwcfg" >"$out/qemu_fw_cfg.ko"
		mods+=("$out/qemu_fw_cfg.ko")
	else
		mods+=("$fwcfg")
	fi
	;;
esac

if [ "$mode" = dump ] && [ -n "$fork" ]; then
	# SCHED_FIFO 99 on CPU 0, then exec the rest: what a job the shell
	# forks inherits (a child of an RT task is queued behind it and
	# preempts it only at a higher priority).
	cat >"$out/fifo-cpu0.c" <<'EOF'
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sched_param p = { .sched_priority = 99 };
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (argc < 2 || sched_setaffinity(0, sizeof(cpus), &cpus) ||
	    sched_setscheduler(0, SCHED_FIFO, &p)) {
		perror("fifo-cpu0");
		return 1;
	}
	execv(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
EOF
	cc -static -O2 -Wall -Werror -o "$out/fifo-cpu0" "$out/fifo-cpu0.c" ||
		die "cc -static fifo-cpu0.c failed (libc6-dev's libc.a?)"
	mods+=("$out/fifo-cpu0:/fifo-cpu0")
	cat >"$out/test.sh" <<EOF
#!/bin/sh
# tests/harness/gdb-boot.sh --fork $fork dump: a shell at SCHED_FIFO 99 on CPU 0
# forks $fork jobs, which cannot run before it sleeps, and the kernel
# panics in its next write.
/fifo-cpu0 /bin/sh -c '
pids=
i=0
while [ \$i -lt $fork ]; do
	sleep 1000 &
	pids="\$pids \$!"
	i=\$((i + 1))
done
echo "gdb-boot: forked\$pids" >/dev/kmsg
echo panic >/sys/module/kunwind_sample/parameters/die
'
echo "gdb-boot: the shell that forked the jobs exited \$? without a panic"
exit 1
EOF
	marker='---[ end Kernel panic'
	args="loglevel=7 panic=0 kunwind_sample.points=0"
	gdbstub=()
elif [ "$mode" = dump ]; then
	cat >"$out/test.sh" <<'EOF'
#!/bin/sh
# tests/harness/gdb-boot.sh dump: the sample's dump; the kernel panics and
# stays in panic() (panic=0) until the host has dumped it.
echo 1 >/sys/module/kunwind_sample/parameters/dump
rc=$?
sleep 30
echo "gdb-boot: still alive 30 s after the dump (the write returned $rc)"
exit 1
EOF
	marker='---[ end Kernel panic'
	args="loglevel=7 panic=0 kunwind_sample.points=0"
	gdbstub=()
else
	cat >"$out/test.sh" <<'EOF'
#!/bin/sh
# tests/harness/gdb-boot.sh live: wait until the sample's work kthread has run
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
# The tty's output and printk's are flushed each on its own: the marker
# must be out whole before the trigger's traces (seen: split by them).
sleep 0.5
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
EOF
	marker='gdb-boot: ready pid '
	args="loglevel=7 panic=0 kunwind_sample.points=0 kunwind_sample.work=1"
	gdbstub=(-gdb "unix:$out/gdb.sock,server=on,wait=off")
	if [ "$ram" = 1 ]; then
		# The same size as -m (qemu-run.sh's 1G unless --mem; a bare
		# number is MiB to -m, bytes to the backend).  boot() makes
		# the file 0600 first: QEMU opens it as it is, and guest
		# memory is nobody else's.
		size=${mem:-1G}
		case "$size" in *[0-9]) size=${size}M ;; esac
		gdbstub+=(-object "memory-backend-file,id=kunwind-ram,size=$size,mem-path=$(ram_file "$out"),share=on"
			-machine memory-backend=kunwind-ram)
	fi
	if [ -n "$workload" ]; then
		mods+=("$workload:/workload.sh")
	fi
fi
chmod +x "$out/test.sh"
"$top/tests/harness/mkinitramfs.sh" "$out/initrd.cpio.gz" ${mods[@]+"${mods[@]}"} \
	"$src/kunwind.ko" ${workload:+"$src/prof/kunwind_prof.ko"} \
	"$src/sample/kunwind_sample.ko" "$out/test.sh" >&2 ||
	die "mkinitramfs failed"

# In the background, without our lock (fd 8) or stdout: a caller reading
# our stdout to its end must not wait for QEMU.
console=$out/console.log
boot() {
	: >"$console"
	if [ "$ram" = 1 ]; then
		rm -f "$(ram_file "$out")"
		install -m 600 /dev/null "$(ram_file "$out")"
	fi
	start=$(now)
	say "$kernel: $mode: booting $bzimage (console: $console)"
	# The RAM file goes when QEMU does, however it ends.
	{
		rc=0
		"$top/tests/harness/qemu-run.sh" --kernel "$bzimage" --initrd "$out/initrd.cpio.gz" \
			--timeout "$timeout" --append "$args${append:+ $append}" \
			--log "$console" -- ${mem:+-m "$mem"} -device vmcoreinfo \
			-monitor "unix:$out/monitor.sock,server=on,wait=off" \
			-pidfile "$out/qemu.pid" ${gdbstub[@]+"${gdbstub[@]}"} || rc=$?
		[ "$ram" = 0 ] || rm -f "$(ram_file "$out")"
		exit $rc
	} </dev/null >/dev/null 2>"$out/qemu.err" 8>&- &
	runner=$!
	echo "$runner" >"$out/runner.pid"
}

# Wait for the marker; QEMU's end or the deadline cut it short.  A
# kernel that never ran /init (under load, Debian's 6.1 has hung
# "Loading compiled-in X.509 certificates"; the test kernel gets there
# in 1-5 s, Debian's in ~6) is not a result: it is booted once more,
# its console kept as console.log.early-1.
init_limit=120
[ "$boot_limit" -lt "$init_limit" ] && init_limit=$boot_limit
# past S: more than S seconds since this boot started.
past() { awk -v a="$start" -v b="$(now)" -v l="$1" 'BEGIN { exit !(b - a > l) }'; }
attempt=1
boot
rc=0
while ! grep -qF -- "$marker" "$console"; do
	if [ "$attempt" = 1 ] && ! grep -qE "$harness_init_mark" "$console" &&
			{ ! running "$runner" || past "$init_limit"; }; then
		stop "$out"
		wait "$runner" 2>/dev/null || true
		mv "$console" "$console.early-$attempt"
		say "$kernel: $mode: no /init after $(secs "$start" "$(now)") s," \
			"not a result: booting again (kept $console.early-$attempt)"
		attempt=2
		boot
		continue
	fi
	if ! running "$runner"; then
		wait "$runner" || true
		# One more look: the marker may have come with QEMU's end.
		grep -qF -- "$marker" "$console" && break
		say "$kernel: $mode: QEMU ended before \"$marker\" after" \
			"$(secs "$start" "$(now)") s (console: $console)"
		sed 's/^/gdb-boot: qemu-run: /' "$out/qemu.err" >&2
		exit 2
	fi
	if past "$boot_limit"; then
		say "$kernel: $mode: no \"$marker\" within $boot_limit s:" \
			"QEMU stopped (console: $console)"
		stop "$out"
		exit 124
	fi
	sleep 0.2
done
booted=$(secs "$start" "$(now)")
pid=$(cat "$out/qemu.pid")

if [ "$mode" = live ]; then
	say "$kernel: live: ready after $booted s ($(secs "$t0" "$(now)") s" \
		"with the build): QEMU pid $pid"
	{
		echo "gdb $out/gdb.sock"
		echo "monitor $out/monitor.sock"
		echo "pid $pid"
		echo "console $console"
		echo "vmlinux $vmlinux"
		echo "kunwind_ko $src/kunwind.ko"
		echo "sample_ko $src/sample/kunwind_sample.ko"
		echo "stop $top/tests/harness/gdb-boot.sh --stop $out"
		[ "$ram" = 0 ] || echo "ram $(ram_file "$out")"
	} >"$out/info"
	cat "$out/info"
	exit 0
fi

# dump: the panic is over; the guest spins in panic().
if [ -n "$fork" ]; then
	forked=$(sed -n 's/.*gdb-boot: forked \([0-9 ]*[0-9]\).*/\1/p' "$console" |
		head -n1)
	if [ "$(wc -w <<<"$forked")" != "$fork" ] ||
			! grep -q 'kunwind-sample: die panic' "$console"; then
		say "$kernel: dump: not the panic of a shell that forked $fork" \
			"jobs (console: $console)"
		rc=2
	fi
elif ! grep -q 'kunwind-sample: dump panic cpu ' "$console"; then
	say "$kernel: dump: a panic that is not the sample's dump's (console: $console)"
	rc=2
fi
dump=$out/dump.elf
t1=$(now)
if ! msg=$(hmp "$out/monitor.sock" "dump-guest-memory -p $dump" 2>&1); then
	say "$kernel: dump: the monitor failed: $msg"
	rc=2
elif [ -n "$msg" ]; then
	say "$kernel: dump: dump-guest-memory said: $msg"
	rc=2
fi
dumped=$(secs "$t1" "$(now)")
# QEMU makes it 0400; gdb and drgn run as anyone.
chmod 644 "$dump" 2>/dev/null || true
stop "$out"
wait "$runner" 2>/dev/null || true

# The check: an ELF core, a register note per vCPU, VMCOREINFO.
notes=$(readelf -n "$dump" 2>/dev/null) || notes=
cpus=$(grep -c 'NT_PRSTATUS' <<<"$notes" || true)
if [ ! -s "$dump" ] || [ "$cpus" = 0 ]; then
	say "$kernel: dump: $dump is no ELF core with NT_PRSTATUS notes"
	rc=2
elif ! grep -q '^ *VMCOREINFO ' <<<"$notes"; then
	say "$kernel: dump: $dump has no VMCOREINFO note (drgn needs it):" \
		"did the guest's fw_cfg driver load?"
	rc=2
fi
begin='kunwind-sample: dump begin'
[ -z "$fork" ] || begin='gdb-boot: forked'
sed -n "/$begin/,/---\\[ end Kernel panic/p" "$console" |
	sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' >"$out/stacks.txt"
size=$(du -m "$dump" 2>/dev/null | cut -f1 || echo 0)
say "$kernel: dump: panicked after $booted s, $size MB dumped in $dumped s" \
	"($cpus vCPUs; $(secs "$t0" "$(now)") s in all)"
{
	echo "dump $dump"
	echo "console $console"
	echo "stacks $out/stacks.txt"
	echo "vmlinux $vmlinux"
	echo "kunwind_ko $src/kunwind.ko"
	echo "sample_ko $src/sample/kunwind_sample.ko"
	[ -z "$fork" ] || echo "forked $forked"
} >"$out/info"
cat "$out/info"
exit "$rc"
