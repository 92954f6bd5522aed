#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's stock arm64 kernel, and kunwind.ko and the sample module
# cross-built against its headers:
#
#	tests/harness/arm64-stock.sh
#
# prints "IMAGE SRC VMLINUX": the kernel to boot, the tree where
# kunwind.ko (with the vmlinux table of the kernel's -dbg package) and
# sample/kunwind_sample.ko were built, and that -dbg vmlinux.
#
# The release is the amd64 6.12 one tests/harness/stock-boot.sh --install
# picks, installing linux-image-<release>-amd64(-unsigned) and
# linux-headers-<release>-amd64 if they are missing (the headers pull in
# linux-kbuild-<release>): Debian's arm64 header
# packages carry no build tools of their own, their scripts/ and tools/
# point at linux-kbuild-<release>, whose programs (fixdep, modpost) are
# the host's, so the amd64 kbuild of the same release builds arm64
# modules with aarch64-linux-gnu-gcc (12.2, the compiler Debian built the
# kernel with).  tests/harness/arm64-apt.sh fetches
# linux-image-<rel>-arm64-unsigned (93 MB), linux-headers-<rel>-arm64 and
# -common, and linux-image-<rel>-arm64-dbg (1 GB, for its vmlinux: 400 MB
# unpacked, about 40 s); they are unpacked (dpkg-deb, nothing installed)
# into $KUNWIND_CACHE/arm64-stock-<rel>/x and the .debs removed.  The
# headers' Makefile is pointed at the unpacked -common, their kbuild
# link at the host's.  The modules are built in
# $O/tests/arm64/stock/src (log: build.log there), W=1, no warning.
set -euo pipefail

who='arm64-stock'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

# The amd64 release, its image and headers installed if need be (their
# names computed there); the headers' scripts/ is the kbuild's.
amd64=$("$harness/stock-boot.sh" --install 6.12 | tail -n1) ||
	die "no Debian 6.12 amd64 headers (tests/harness/stock-boot.sh --install 6.12)"
kb=$(dirname "$(readlink -f "/usr/src/linux-headers-$amd64/scripts")")
[ -d "$kb" ] || die "/usr/src/linux-headers-$amd64/scripts leads to no kbuild"
rel=${amd64%-amd64}
cache=${KUNWIND_CACHE:-$HOME/.cache/kunwind}/arm64-stock-$rel
x=$cache/x
hdr=$x/usr/src/linux-headers-$rel-arm64
image=$x/boot/vmlinuz-$rel-arm64
vmlinux=$x/usr/lib/debug/boot/vmlinux-$rel-arm64

mkdir -p "$cache"
exec 9>"$cache.lock"
flock 9
if [ ! -f "$cache/done" ]; then
	rm -rf "$cache/deb" "$x"
	"$harness/arm64-apt.sh" "$cache/deb" "linux-image-$rel-arm64-unsigned" \
		"linux-headers-$rel-arm64" "linux-headers-$rel-common" \
		"linux-image-$rel-arm64-dbg" ||
		die "Debian's arm64 $rel packages could not be fetched"
	mkdir -p "$x"
	for deb in "$cache"/deb/linux-headers-*.deb "$cache"/deb/linux-image-*-unsigned_*.deb; do
		dpkg-deb -x "$deb" "$x" || die "dpkg-deb -x $deb"
	done
	say "unpacking the -dbg package's vmlinux (about 40 s)"
	dpkg-deb --fsys-tarfile "$cache"/deb/linux-image-*-dbg_*.deb |
		tar -x -C "$x" "./usr/lib/debug/boot/vmlinux-$rel-arm64" ||
		die "no vmlinux in the -dbg package"
	rm -rf "$cache/deb"
	# The headers include the -common ones by an absolute path.
	sed -i "s|/usr/src/linux-headers-$rel-common/|$x/usr/src/linux-headers-$rel-common/|" \
		"$hdr/Makefile"
	mkdir -p "$x/usr/lib"
	ln -sfn "$kb" "$x/usr/lib/linux-kbuild-$rel"
	[ -f "$image" ] && [ -f "$vmlinux" ] && [ -f "$hdr/Module.symvers" ] ||
		die "the unpacked packages lack the image, vmlinux or headers"
	touch "$cache/done"
fi
exec 9>&-

harness_objdir
out=$objdir/tests/arm64/stock
log=$out/build.log
mkdir -p "$out"
: >"$log"
harness_gen "$log"
src=$out/src
harness_mirror "$src" ./Kbuild ./Kconfig ./scripts/kunwind.mk ./unwind \
	./prof ./sample
say "building kunwind.ko and the sample for Debian's arm64 $rel (log: $log)"
harness_arm64_make "$log" "$hdr" M="$src" KUNWIND_VMLINUX="$vmlinux" modules &&
	harness_arm64_make "$log" "$hdr" M="$src/sample" KUNWIND_DIR="$src" modules ||
	{ tail -n 30 "$log" >&2; die "the modules did not build against $hdr, or warned (W=1)"; }
echo "$image $src $vmlinux"
