#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the kunwind test kernel from Debian's linux-source-6.12 and
# print its build directory on the last line of stdout:
#
#	KDIR=$(tests/harness/test-kernel.sh) || exit
#	qemu: $KDIR/arch/x86/boot/bzImage    symbols: $KDIR/vmlinux
#	modules: make -C $KDIR/source O=$KDIR M=$PWD/mymod
#
# Idempotent and cheap when nothing changed.  The source is unpacked once
# into $KUNWIND_CACHE/src-<version>; each build goes to
# $KUNWIND_CACHE/build-<version>-<hash>, the hash covering the settings of
# the config fragment (its CONFIG_ lines and base), the code of this script
# (comments excluded, so documentation edits do not cost a rebuild) and the
# compiler.  A changed fragment builds a new directory; old ones stay usable
# until removed by hand.  A finished build is answered without a lock;
# otherwise one flock serialises callers: a second caller waits, then
# finds the build done.  On failure the last 40 lines of
# build.log (in the build dir) go to stderr and the exit status is 1.
#
# The kernel is built with W=1 (the kernel's extra warnings go to the
# log): tests/harness/builtin-kernel.sh seeds its build directory with a
# copy of this one and builds with W=1, which must not differ.
#
# Environment:
#	KUNWIND_ARCH	x86_64 (default) or arm64, below
#	KUNWIND_CACHE	cache root (default $HOME/.cache/kunwind)
#	KUNWIND_KCONFIG	config fragment (default tests/harness/test-kernel.config,
#			arm64: test-kernel-arm64.config)
#	KUNWIND_JOBS	make -j (default: number of CPUs)
#
# arm64 (KUNWIND_ARCH=arm64): the same source cross-compiled
# (ARCH=arm64, CROSS_COMPILE=aarch64-linux-gnu-, gcc-aarch64-linux-gnu
# installed when missing) into $KUNWIND_CACHE/build-arm64-<version>-<hash>,
# the hash covering the cross compiler.  Built: Image (what QEMU's virt
# board boots: tests/harness/qemu-run.sh with KUNWIND_QEMU_ARCH=arm64),
# vmlinux, the modules and modules_prepare; not Image.gz nor the device
# trees of "make all" (the virt board makes its own).  Modules:
#	make -C $KDIR/source O=$KDIR M=$PWD/mymod ARCH=arm64 \
#		CROSS_COMPILE=aarch64-linux-gnu-
#
# The fragment's header has the measured build times; build.log ends with
# the wall and CPU time of each build.
#
# Variants.  A variant is another fragment: the debug kernel (lockdep,
# kmemleak, debug objects, a preemptible kernel, high-resolution timers,
# the soft-lockup detector) is test-kernel.config with
# test-kernel-debug.config on top, composed into one fragment and passed
# as KUNWIND_KCONFIG by
#
#	KDIR=$(tests/harness/boot-modules.sh --kernel-dir debug) || exit
#
# (tests/harness/profile-boot.sh and death-boot.sh take "debug" as their
# kernel).  The hash covers the composed lines, so the debug kernel has its
# own build directory and the default one is untouched.  The composing is
# not done here because this script's code is part of every build's hash:
# a line of code added here would have rebuilt the default test kernel
# for everyone.  Debug build, measured on the 2-CPU machine at -j2 while
# other jobs kept the load at ~3: 325 s wall, 6 m 28 s user + 52 s sys
# CPU (the default build's log: 230 s); 0.7 GB of cache, as the default.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${KUNWIND_CACHE:-$HOME/.cache/kunwind}
# What differs between the architectures: the fragment, the compiler,
# the build directory's name, the packages, what is built, the image.
case ${KUNWIND_ARCH:-x86_64} in
x86_64)
	frag=${KUNWIND_KCONFIG:-$here/test-kernel.config}
	cross='' tag='' cross_pkg='' targets='all modules_prepare'
	image=arch/x86/boot/bzImage ;;
arm64)
	frag=${KUNWIND_KCONFIG:-$here/test-kernel-arm64.config}
	cross=aarch64-linux-gnu- tag=arm64- cross_pkg=gcc-aarch64-linux-gnu
	targets='Image modules modules_prepare' image=arch/arm64/boot/Image
	export ARCH=arm64 CROSS_COMPILE=$cross ;;
*)
	echo "test-kernel: error: KUNWIND_ARCH: x86_64 or arm64" >&2
	exit 1 ;;
esac
jobs=${KUNWIND_JOBS:-$(nproc)}
pkg=linux-source-6.12
tarball=/usr/src/$pkg.tar.xz

say() { echo "test-kernel: $*" >&2; }
die() { say "error: $*"; exit 1; }

# Debian packages the build needs; installed only when missing.
need_pkgs() {
	local p missing=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'ok installed' || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	say "installing$missing"
	local sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq >&2
	# shellcheck disable=SC2086
	$sudo apt-get install -y -qq --no-install-recommends $missing >&2
}

[ -f "$frag" ] || die "no config fragment $frag"

# Key the build dir on the source version and on everything that decides
# the result: the fragment, this script, the compiler.  Sets src, build
# and log; fails while $pkg or gcc is not installed.
key() {
	local ver hash
	ver=$(dpkg-query -W -f='${Version}' $pkg 2>/dev/null |
		tr -c 'A-Za-z0-9.+\n-' '_') && [ -n "$ver" ] || return 1
	command -v "${cross}gcc" >/dev/null || return 1
	hash=$({
		grep -E '^(CONFIG_|# CONFIG_.* is not set|# *base:)' "$frag"
		grep -vE '^[[:space:]]*(#|$)' "$0"
		"${cross}gcc" --version | head -n1
	} | sha256sum | cut -c1-12)
	src=$cache/src-$ver
	build=$cache/build-$tag$ver-$hash
	log=$build/build.log
}

# A finished build needs no lock: a caller of one kernel does not wait
# for another kernel's build (the debug kernel's takes minutes).
if key && [ -f "$build/.kunwind-done" ]; then
	echo "$build"
	exit 0
fi

# One lock for installing, unpacking and building: concurrent apt-get runs
# would fail on dpkg's lock, concurrent builds would share a directory.
mkdir -p "$cache"
exec 9>"$cache/lock"
if ! flock -n 9; then
	say "waiting for another build (lock $cache/lock)"
	flock 9
fi

# shellcheck disable=SC2086 # $cross_pkg: none or one word
need_pkgs $pkg gcc $cross_pkg make bc bison flex libssl-dev libelf-dev cpio \
	zstd rsync kmod xz-utils python3
[ -f "$tarball" ] || die "$tarball missing after installing $pkg"

base=$(sed -n 's/^# *base: *\([a-z]*config\) *$/\1/p' "$frag" | head -n1)
case "$base" in
defconfig|tinyconfig|allnoconfig) ;;
*) die "$frag: need a '# base: defconfig|tinyconfig' line" ;;
esac

# Again under the lock: the packages may be new, the build done meanwhile.
key || die "no version of $pkg or no gcc after installing them"
if [ -f "$build/.kunwind-done" ]; then
	echo "$build"
	exit 0
fi

# Unpack once; a partial unpack never looks finished.
if [ ! -f "$src/.kunwind-unpacked" ]; then
	say "unpacking $tarball into $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
	touch "$src.tmp/.kunwind-unpacked"
	mv "$src.tmp" "$src"
fi

mkdir -p "$build"
: >"$log"
fail() {
	say "$1 failed; last 40 lines of $log:"
	tail -n 40 "$log" >&2
	exit 1
}
kmake() {
	echo "+ make $*" >>"$log"
	make -C "$src" O="$build" "$@" >>"$log" 2>&1
}

say "building $base + $(basename "$frag") in $build (log: $log)"
start=$(date +%s)
if [ ! -f "$build/.config" ] || [ ! -f "$build/.kunwind-config" ]; then
	kmake "$base" || fail "make $base"
	# merge_config.sh -m: merge only, then olddefconfig resolves deps.
	"$src/scripts/kconfig/merge_config.sh" -m -O "$build" \
		"$build/.config" "$frag" >>"$log" 2>&1 || fail merge_config
	kmake olddefconfig || fail "make olddefconfig"
	touch "$build/.kunwind-config"
fi

# Every option the fragment sets or unsets must have survived Kconfig.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		opt=${line%%=*}
		grep -qxF -- "$line" "$build/.config" && continue ;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		grep -q "^$opt=" "$build/.config" || continue ;;
	*) continue ;;
	esac
	# shellcheck disable=SC1087 # a regex bracket, not an array
	got=$(grep -E "^(# )?$opt[= ]" "$build/.config" || echo "(absent)")
	say "config: wanted '$line', got '$got'"
	bad=1
done <"$frag"
if [ "$bad" = 1 ]; then
	rm -f "$build/.kunwind-config"
	die "config fragment not applied; see $build/.config"
fi

# W=1, as tests/harness/builtin-kernel.sh builds: that build starts from
# a copy of this one, and a flag of its own would compile it all again.
# shellcheck disable=SC2086 # one word a target
kmake -j"$jobs" W=1 $targets || fail "make -j$jobs W=1 $targets"
[ -f "$build/$image" ] || fail "$image"
[ -f "$build/vmlinux" ] || fail "vmlinux"
end=$(date +%s)
rel=$(cat "$build/include/config/kernel.release")
# CPU time too: on a shared machine the wall time says little.
# "times" must run in this shell, not in a $(...) subshell.
times >"$build/.times"
cpu=$(tail -n1 "$build/.times")
echo "build: $rel in $((end - start)) s at -j$jobs; cpu user/sys $cpu" \
	>>"$log"
say "built $rel in $((end - start)) s (cpu user/sys $cpu)"
touch "$build/.kunwind-done"
echo "$build"
