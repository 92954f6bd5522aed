#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a stock Debian kernel in QEMU with kunwind.ko and the sample module
# (sample/) built against its headers, and capture the console:
#
#	scripts/stock-boot.sh [--no-boot] [--timeout S] KVER
#
# KVER: 6.1 (the bookworm kernel), 6.12 (bookworm's 6.12 backport), or a
# full release such as 6.12.117+deb12-amd64.  The newest installed kernel
# of that series is used; if none is installed, or its headers are
# missing, the newest linux-image-<release>(-unsigned) and
# linux-headers-<release> from apt are installed.
#
# Everything goes to build/stock/<release>/ (or $O/stock/ with O set as
# for the top Makefile): src/ (a copy of the kunwind tree, so that builds
# for several kernels never share objects; kunwind.ko and
# sample/kunwind_sample.ko are built there), build.log, initrd.cpio.gz and
# console.log.  The initramfs (scripts/mkinitramfs.sh) inserts kunwind.ko,
# then kunwind_sample.ko, whose init prints every point of
# sample.c; /test.sh then writes the sample's trigger parameter, removes
# the sample (its exit point) and prints kunwind's debugfs files.
#
# If /usr/lib/debug/boot/vmlinux-<release> exists (linux-image-<release>-
# dbg) kunwind.ko carries the vmlinux table and kernel frames come from
# kunwind tables; otherwise from the ORC fallback, flagged "(orc)".
# KUNWIND_STOCK_VMLINUX=no ignores it; =<path> names another vmlinux.
# With a vmlinux table the directory is build/stock/<release>-dbg/.
#
# The last line of stdout is the console log's path.  Exit status: 0 when
# the boot went through (scripts/qemu-run.sh's status otherwise: 2 panic
# or failed insmod, 124 timeout); 1 on a build or install error.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "stock-boot: $*" >&2; }
die() { say "error: $*"; exit 1; }

boot=1 timeout=300
while [ $# -gt 0 ]; do
	case "$1" in
	--no-boot) boot=0; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	-*) die "unknown option $1 (see the header of $0)" ;;
	*) break ;;
	esac
done
[ $# = 1 ] ||
	die "usage: $0 [--no-boot] [--timeout S] KVER (6.1, 6.12, a release)"
kver=$1

apt_install() {
	local sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	say "installing $*"
	# Another apt may be running (scripts/test-kernel.sh): wait for it.
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		-o DPkg::Lock::Timeout=600 --no-install-recommends "$@" >&2
}

# Newest release of series $1 (6.1, 6.12) with an image in /boot.
installed_release() {
	local v
	for v in /boot/vmlinuz-"$1".*-amd64; do
		[ -f "$v" ] && echo "${v#/boot/vmlinuz-}"
	done | grep -vE 'cloud|rt' | sort -V | tail -n1
}

# Newest release of series $1 that apt offers.
apt_release() {
	apt-cache search --names-only "^linux-headers-$1[.-][0-9].*-amd64\$" |
		awk '{ print $1 }' | sed 's/^linux-headers-//' |
		grep -vE 'cloud|rt' | sort -V | tail -n1
}

case "$kver" in
6.1 | 6.12)
	rel=$(installed_release "$kver")
	if [ -z "$rel" ]; then
		rel=$(apt_release "$kver")
		[ -n "$rel" ] || die "apt offers no linux-headers-$kver.*-amd64"
	fi
	;;
*)	rel=$kver ;;
esac

if [ ! -f "/boot/vmlinuz-$rel" ]; then
	if apt-cache show "linux-image-$rel-unsigned" >/dev/null 2>&1; then
		apt_install "linux-image-$rel-unsigned"
	else
		apt_install "linux-image-$rel"
	fi
fi
kdir=/usr/src/linux-headers-$rel
[ -f "$kdir/Makefile" ] || apt_install "linux-headers-$rel"
[ -f "/boot/vmlinuz-$rel" ] || die "no /boot/vmlinuz-$rel after install"
[ -f "$kdir/Makefile" ] || die "no $kdir after install"

# O: the build directory, as for the top Makefile (relative to the top).
obj=${O:-build}
case "$obj" in
/*) objdir=$obj ;;
*) objdir=$top/$obj ;;
esac
vmlinux=${KUNWIND_STOCK_VMLINUX:-/usr/lib/debug/boot/vmlinux-$rel}
[ "$vmlinux" = no ] && vmlinux=
if [ -n "$vmlinux" ] && [ ! -f "$vmlinux" ]; then
	[ -n "${KUNWIND_STOCK_VMLINUX:-}" ] && die "no such file: $vmlinux"
	vmlinux=
fi

out=$objdir/stock/$rel${vmlinux:+-dbg}
src=$out/src
mkdir -p "$out"
log=$out/build.log
: >"$log"

# The host generator, built once by the top Makefile for all kernels.
make -s -C "$top" O="$obj" "$obj/kunwind-gen" >>"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; die "building $obj/kunwind-gen failed"; }
gen=$objdir/kunwind-gen

# A private copy of the sources (no build outputs): objects of one kernel
# must never be linked into another's module.
say "$rel: building kunwind.ko and kunwind_sample.ko (log: $log)"
start=$(date +%s.%N)
rm -rf "$src"
mkdir -p "$src"
(cd "$top" && tar -cf - --exclude=./build --exclude="./$obj" --exclude=./.git \
	--exclude='*.o' --exclude='*.ko' --exclude='*.cmd' --exclude='*.mod' \
	--exclude='*.mod.c' --exclude='*.kunwind' --exclude=Module.symvers \
	--exclude=modules.order .) | tar -C "$src" -xf -
jobs=$(nproc)
kmake() {
	make -C "$kdir" -j"$jobs" KUNWIND_GEN="$gen" "$@" >>"$log" 2>&1
}
kmake M="$src" ${vmlinux:+KUNWIND_VMLINUX=$vmlinux} modules ||
	{ tail -n 40 "$log" >&2; die "$rel: building kunwind.ko failed"; }
kmake M="$src/sample" modules ||
	{ tail -n 40 "$log" >&2; die "$rel: building kunwind_sample.ko failed"; }
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" \
	'BEGIN { printf "%.1f", b - a }')
say "$rel: modules built in $secs s${vmlinux:+ (vmlinux table: $vmlinux)}"
if grep -E '(warning|error):' "$log" | grep -v 'Skipping BTF' >&2; then
	say "$rel: the build warned (above)"
fi
[ "$boot" = 1 ] || { echo "$out"; exit 0; }

cat >"$out/test.sh" <<'EOF'
#!/bin/sh
# After insmod kunwind.ko kunwind_sample.ko: one more point from a sysfs
# write, the exit point at rmmod, then kunwind's own view.
echo 1 >/sys/module/kunwind_sample/parameters/trigger
rmmod kunwind_sample || exit 1
for f in tables stats; do
	echo "kunwind-debugfs: begin $f"
	cat /sys/kernel/debug/kunwind/$f
	echo "kunwind-debugfs: end $f"
done
exit 0
EOF
chmod +x "$out/test.sh"
"$top/scripts/mkinitramfs.sh" "$out/initrd.cpio.gz" "$src/kunwind.ko" \
	"$src/sample/kunwind_sample.ko" "$out/test.sh"

say "$rel: booting /boot/vmlinuz-$rel (console: $out/console.log)"
set +e
"$top/scripts/qemu-run.sh" --kernel "/boot/vmlinuz-$rel" \
	--initrd "$out/initrd.cpio.gz" --timeout "$timeout" \
	--append "loglevel=7" --log "$out/console.log" >/dev/null
rc=$?
set -e
[ "$rc" = 0 ] || say "$rel: the boot failed (status $rc)"
echo "$out/console.log"
exit "$rc"
