#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gdb as the oracle of kunwind's arm64 walk: boot the arm64 test kernel
# (KUNWIND_ARCH=arm64 tests/harness/test-kernel.sh) with a workload, stop it at random
# points from gdb-multiarch on QEMU's gdbstub and compare, on every CPU
# in the kernel, gdb's backtrace, kunwind's walk (libkunwind-arm64.so on
# kunwind's table of the same vmlinux) and the frame-record walk
# (tests/arm64_gdb_oracle.py says what is compared and counted):
#
#	tests/harness/arm64-gdb-oracle.sh OUTDIR [STOPS]
#
# OUTDIR gets the table, the initramfs, the guest's console (console.log)
# and gdb's output (oracle.log), whose last line is the counts:
#	arm64_oracle stops=N samples=N kernel=N ... differ=N fp_lost=N ...
# Exit status: gdb's (1 if a walk differed), 2 if the guest or gdb did
# not get that far.
#
# The guest runs without KASLR (nokaslr: the table's link addresses are
# the run-time ones, and gdb's symbols too) and without pointer
# authentication (QEMU 7.2's gdbstub gives gdb no PAC mask, so gdb 13's
# backtrace stops at the first signed return address: the oracle would
# end there).  kunwind's own stripping is the unit tests' (and a PAC
# guest's) to prove.
set -euo pipefail

who='arm64-gdb-oracle'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
APT_WHO=$who
# shellcheck source=scripts/apt.sh
. "$top/scripts/apt.sh"

[ $# -ge 1 ] || die "usage: $0 OUTDIR [STOPS]"
out=$1
stops=${2:-300}
mkdir -p "$out"
out=$(cd "$out" && pwd)
O=${O:-build}
case $O in /*) obj=$O ;; *) obj=$top/$O ;; esac

apt_need gdb-multiarch || die "could not install gdb-multiarch"
kdir=$(KUNWIND_ARCH=arm64 "$harness/test-kernel.sh" | tail -n1) ||
	die "no arm64 test kernel"
gen=$obj/kunwind-gen
if [ ! -x "$gen" ] || [ ! -f "$obj/gdb/libkunwind-arm64.so" ]; then
	die "$gen or $obj/gdb/libkunwind-arm64.so missing (make; make gdb)"
fi
"$gen" build "$kdir/vmlinux" -o "$out/vmlinux.kunwind" ||
	die "kunwind-gen build $kdir/vmlinux"
# KUNWIND_ORACLE_TABLE_OVERRIDE: walk with that table instead (a wrong
# one planted by tests/arm64.test, to see the oracle fail)
table=${KUNWIND_ORACLE_TABLE_OVERRIDE:-$out/vmlinux.kunwind}

# Module code to stop in (tests/kmod-arm64: a kernel thread looping
# through calls of every shape), built in a copy against the kernel.
rm -rf "$out/kmod"
cp -r "$top/tests/kmod-arm64" "$out/kmod"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u O -u CC -u CFLAGS \
	make -s -C "$kdir/source" O="$kdir" M="$out/kmod" ARCH=arm64 \
	CROSS_COMPILE=aarch64-linux-gnu- modules >"$out/kmod.log" 2>&1 ||
	{ tail -n 20 "$out/kmod.log" >&2; die "the oracle's module did not build"; }
mod=$out/kmod/kunwind_spin.ko
"$gen" build "$mod" -o "$out/kunwind_spin.kunwind" ||
	die "kunwind-gen build $mod"

# The workload: file system walks, /proc and /sys reads, pipes and a
# page-cache copy, forever, beside the module's thread: the guest is
# killed when gdb is done.
cat >"$out/test.sh" <<'EOF'
#!/bin/sh
echo "oracle-module: kunwind_spin $(cat /sys/module/kunwind_spin/sections/.text)"
echo "oracle-workload: start"
while :; do
	find / -xdev >/dev/null 2>&1
	cat /proc/kallsyms /proc/self/maps >/dev/null
	ls -lR /sys/kernel >/dev/null 2>&1
	dd if=/dev/zero bs=4k count=256 2>/dev/null | cat >/dev/null
	sleep 0
done
EOF
"$harness/arm64-initramfs.sh" "$out/initramfs.cpio.gz" "$mod" "$out/test.sh" >&2 ||
	die "initramfs"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
: >"$out/console.log"
# In a session of its own: the whole boot (qemu-run.sh, QEMU, its
# timeout) is killed as one process group when gdb is done.
KUNWIND_QEMU_ARCH=arm64 KUNWIND_QEMU_CPU=${KUNWIND_QEMU_CPU:-max,pauth=off} \
	setsid "$harness/qemu-run.sh" --kernel "$kdir/arch/arm64/boot/Image" \
	--initrd "$out/initramfs.cpio.gz" --append "nokaslr" \
	--timeout 1800 --log "$out/console.log" --smp 2 \
	-- -gdb "tcp:127.0.0.1:$port" >/dev/null 2>&1 &
qemu=$!
# qemu-run.sh's timeout(1) puts QEMU in a process group of its own: it is
# found by its gdbstub's port.  (|| true: under set -e a failing command
# would be the exit status.)
trap 'kill -- -"$qemu" 2>/dev/null || true
	pkill -f "gdb tcp:127.0.0.1:$port" 2>/dev/null || true
	wait "$qemu" 2>/dev/null || true' EXIT

for _ in $(seq 1 240); do
	grep -q 'oracle-workload: start' "$out/console.log" && break
	kill -0 "$qemu" 2>/dev/null || break
	sleep 0.5
done
grep -q 'oracle-workload: start' "$out/console.log" || {
	say "the guest never started its workload; console:"
	tail -n 30 "$out/console.log" >&2
	exit 2
}

text=$(sed -n 's/^oracle-module: kunwind_spin \(0x[0-9a-f]*\).*/\1/p' \
	"$out/console.log" | head -n1)
[ -n "$text" ] || die "the guest did not say where kunwind_spin's .text is"

rc=0
KUNWIND_ORACLE_MODULES="kunwind_spin:$out/kunwind_spin.kunwind:$text:$mod" \
KUNWIND_ORACLE_PORT=$port KUNWIND_ORACLE_TABLE=$table \
	KUNWIND_ORACLE_STOPS=$stops O=$obj \
	timeout 1500 gdb-multiarch -nx -batch -x "$top/tests/arm64_gdb_oracle.py" \
	"$kdir/vmlinux" >"$out/oracle.log" 2>&1 || rc=$?
grep -q '^arm64_oracle ' "$out/oracle.log" || {
	say "gdb gave no counts (exit $rc); its log:"
	tail -n 30 "$out/oracle.log" >&2
	exit 2
}
exit "$rc"
