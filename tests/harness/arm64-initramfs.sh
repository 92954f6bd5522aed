#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make a tiny busybox initramfs for arm64 QEMU boots
# (tests/harness/qemu-run.sh with KUNWIND_QEMU_ARCH=arm64), with
# mkinitramfs.sh's interface and /init:
#
#	tests/harness/arm64-initramfs.sh OUT.cpio.gz [FILE[:DEST]...]
#
# The files are placed, and /init loads the .ko files (with the
# MODULE.PARAM=VALUE options of the kernel command line), runs the .sh
# files and test.sh last, prints "kunwind-init: done status=N" and
# reboots, exactly as tests/harness/mkinitramfs.sh's header says, because
# mkinitramfs.sh does it: this script runs it with the same arguments and
# KUNWIND_BUSYBOX, Debian's arm64 busybox-static instead of the host's.
# One /init, one set of rules.
#
# Every ELF FILE must be for AArch64 (a module or program built for the
# host is refused, not booted to fail obscurely).  A FILE that is a
# dynamically linked arm64 program brings its loader and libraries
# along from the cross libc (libc6-arm64-cross, /usr/aarch64-linux-gnu/lib),
# the loader at its PT_INTERP path, the libraries in
# /lib/aarch64-linux-gnu, where a Debian arm64 system has them and the
# loader looks.  (mkinitramfs.sh's ldd cannot read an arm64 program and
# leaves them alone.)
#
# The arm64 busybox is fetched once into $KUNWIND_CACHE/arm64/busybox
# (the package's version beside it, in busybox.version) by
# tests/harness/arm64-apt.sh, which leaves this machine's dpkg and apt
# state alone, then "dpkg-deb -x".  Remove the cached busybox to fetch it
# again.
set -euo pipefail

who='arm64-initramfs'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 OUT.cpio.gz [FILE[:DEST]...]"
out=$1
shift

APT_WHO=$who
# shellcheck source=scripts/apt.sh
. "$top/scripts/apt.sh"
apt_need cpio binutils || die "could not install cpio binutils"

cache=${KUNWIND_CACHE:-$HOME/.cache/kunwind}
adir=$cache/arm64
busybox=$adir/busybox
sysroot=/usr/aarch64-linux-gnu

# The ELF machine of $1 ("AArch64", "Advanced Micro Devices X86-64"), or
# nothing for a file that is not ELF.
elf_machine() {
	{ LC_ALL=C readelf -h "$1" 2>/dev/null || true; } |
		sed -n 's/^ *Machine: *//p'
}

# Static: no PT_INTERP.  The interpreter's path, or nothing.
elf_interp() {
	{ LC_ALL=C readelf -lW "$1" 2>/dev/null || true; } |
		sed -n 's/.*\[Requesting program interpreter: \(.*\)\]$/\1/p'
}

fetch_busybox() {
	local a=$adir/fetch deb
	rm -rf "$a"
	"$harness/arm64-apt.sh" "$a" busybox-static ||
		die "could not fetch busybox-static (arm64)"
	deb=$(find "$a" -name 'busybox-static_*_arm64.deb' | head -n1)
	[ -n "$deb" ] || die "no busybox-static arm64 .deb in $a"
	dpkg-deb -x "$deb" "$a/x" || die "dpkg-deb -x $deb failed"
	[ "$(elf_machine "$a/x/bin/busybox")" = AArch64 ] ||
		die "$deb: bin/busybox is not an AArch64 program"
	[ -z "$(elf_interp "$a/x/bin/busybox")" ] ||
		die "$deb: bin/busybox is not static"
	cp "$a/x/bin/busybox" "$busybox.tmp"
	dpkg-deb -f "$deb" Version >"$busybox.version"
	mv "$busybox.tmp" "$busybox"
	rm -rf "$a"
	say "busybox-static:arm64 $(cat "$busybox.version") in $busybox"
}

if [ ! -f "$busybox" ]; then
	mkdir -p "$adir"
	exec 9>"$adir/lock"
	flock 9
	[ -f "$busybox" ] || fetch_busybox
	exec 9>&-
fi

# The arguments, as mkinitramfs.sh reads them: only checked here.
dynamic=()
for arg in "$@"; do
	f=${arg%%:*}
	[ -f "$f" ] || die "no such file: $f"
	m=$(elf_machine "$f")
	[ -z "$m" ] || [ "$m" = AArch64 ] ||
		die "$f: an ELF file for $m, not AArch64"
	[ -z "$m" ] || [ -z "$(elf_interp "$f")" ] || dynamic+=("$f")
done

# A dynamic arm64 program's loader and libraries, and theirs, from the
# cross libc: FILE:DEST arguments for mkinitramfs.sh.
extra=()
declare -A have=()
add_lib() {
	local name=$1 lib=$sysroot/lib/$1 n
	[ -z "${have[$name]:-}" ] || return 0
	have[$name]=1
	[ -f "$lib" ] ||
		die "$name: not in $sysroot/lib (a library of an arm64 program)"
	extra+=("$(readlink -f "$lib"):/lib/aarch64-linux-gnu/$name")
	for n in $(needed "$lib"); do
		add_lib "$n"
	done
}
needed() {
	{ LC_ALL=C readelf -dW "$1" 2>/dev/null || true; } |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
}
[ ${#dynamic[@]} = 0 ] || apt_need libc6-arm64-cross ||
	die "could not install libc6-arm64-cross"
for f in ${dynamic[@]+"${dynamic[@]}"}; do
	interp=$(elf_interp "$f")
	if [ -z "${have[$interp]:-}" ]; then
		have[$interp]=1
		lib=$sysroot/lib/$(basename "$interp")
		[ -f "$lib" ] || die "$f: its loader $interp is not in $sysroot/lib"
		extra+=("$(readlink -f "$lib"):$interp")
	fi
	for n in $(needed "$f"); do
		add_lib "$n"
	done
done

# mkinitramfs.sh with this busybox instead of the host's (KUNWIND_BUSYBOX).
KUNWIND_BUSYBOX=$busybox "$harness/mkinitramfs.sh" "$out" "$@" \
	${extra[@]+"${extra[@]}"} || die "mkinitramfs.sh failed"
