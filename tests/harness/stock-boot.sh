#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a stock Debian kernel in QEMU with kunwind.ko and the sample module
# (sample/) built against its headers, and capture the console:
#
#	tests/harness/stock-boot.sh [--no-boot] [--timeout S] KVER
#	tests/harness/stock-boot.sh --release KVER
#	tests/harness/stock-boot.sh --install KVER
#
# KVER: 6.1 (the bookworm kernel), 6.12 (bookworm's 6.12 backport), or a
# full release such as 6.12.117+deb12-amd64.  The newest installed kernel
# of that series is used; if none is installed, or its headers are
# missing, the newest linux-image-<release>(-unsigned) and
# linux-headers-<release> from apt are installed (after apt-get update:
# about 1 minute on a fresh machine, see tests/stock.mk).  --release only
# prints the release it would use and installs nothing; --install installs
# the image and headers if need be, prints the release and builds nothing
# (tests/harness/stock-vmlinux.sh: the -dbg vmlinux must match the installed
# image); KUNWIND_BOOT_DIR
# (default /boot) is where it looks for installed images (for
# tests/scripts.test).
#
# Everything goes to build/stock/<release>/ (or $O/stock/ with O set as
# for the top Makefile): src/ (a copy of the kunwind tree, so that builds
# for several kernels never share objects; kunwind.ko and
# sample/kunwind_sample.ko are built there), build.log, initrd.cpio.gz and
# console.log.  The initramfs (tests/harness/mkinitramfs.sh) inserts
# kunwind_test_early.ko (kunit/early.c with its table, built alone: a
# module loaded before kunwind.ko, which must register it), kunwind.ko,
# then kunwind_sample.ko, whose init prints every point of
# sample/points.c; /test.sh then writes the sample's trigger parameter, removes
# the sample (its exit point) and prints kunwind's debugfs files.
#
# kunwind.ko carries the vmlinux table, and kernel frames come from
# kunwind tables, from /usr/lib/debug/boot/vmlinux-<release> if it exists
# (linux-image-<release>-dbg), else from the vmlinux tests/harness/stock-vmlinux.sh
# fetches (the -dbg package's, without installing it): a failure there
# fails the build; only when apt has no -dbg package of the image's version
# (stock-vmlinux.sh's "no", its reason on stderr) kunwind.ko is built
# without, and kernel frames come from the ORC fallback, flagged "(orc)".
# KUNWIND_STOCK_VMLINUX=no builds without on purpose; =<path> names the
# vmlinux (tests/stock.test does both).  With a vmlinux table the directory
# is build/stock/<release>-dbg/.
#
# The last line of stdout is the console log's path.  Exit status: 0 when
# the boot went through (tests/harness/qemu-run.sh's status otherwise: 2 panic
# or failed insmod, 3 the initramfs never reported its end, 124 timeout);
# 1 on a build or install error.
set -euo pipefail

who='stock-boot'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
APT_WHO="stock-boot"
# shellcheck source=scripts/apt.sh
. "$top/scripts/apt.sh"

boot=1 timeout=300 resolve=0 install=0
bootdir=${KUNWIND_BOOT_DIR:-/boot}
while [ $# -gt 0 ]; do
	case "$1" in
	--no-boot) boot=0; shift ;;
	--release) resolve=1; shift ;;
	--install) install=1; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	-*) die "unknown option $1 (see the header of $0)" ;;
	*) break ;;
	esac
done
[ $# = 1 ] ||
	die "usage: $0 [--no-boot|--release|--install] [--timeout S] KVER (6.1, 6.12, a release)"
kver=$1

# Newest release of series $1 (6.1, 6.12) with an image in $bootdir and
# headers installed or offered by apt (a machine image may hold a kernel
# whose headers the archive has dropped since).  No grep in a pipe: with
# nothing installed the function must print nothing and succeed (set -e,
# pipefail), so that apt_release runs.
installed_release() {
	local v r found=
	for v in "$bootdir"/vmlinuz-"$1".*-amd64; do
		[ -f "$v" ] || continue
		case "$v" in
		*-cloud-amd64 | *-rt-amd64) continue ;;
		esac
		echo "${v#"$bootdir"/vmlinuz-}"
	done | sort -rV | while read -r r; do
		# No break: sort must never write into a closed pipe.
		[ -z "${found:-}" ] || continue
		if [ -f "/usr/src/linux-headers-$r/Makefile" ] ||
		   apt-cache show "linux-headers-$r" >/dev/null 2>&1; then
			echo "$r"
			found=1
		fi
	done
}

# Newest release of series $1 that apt offers (nothing if none).
apt_release() {
	apt-cache search --names-only "^linux-headers-$1[.-][0-9].*-amd64\$" |
		awk '{ sub(/^linux-headers-/, "", $1) }
		     $1 !~ /-(cloud|rt)-amd64$/ { print $1 }' |
		sort -V | tail -n1
}

case "$kver" in
6.1 | 6.12)
	rel=$(installed_release "$kver")
	if [ -z "$rel" ]; then
		# To be installed: ask fresh lists (a fresh machine's may be
		# empty, or older than the archive).  --release installs
		# nothing: it asks the lists as they are first.
		[ "$resolve" = 1 ] || apt_update
		rel=$(apt_release "$kver")
		if [ -z "$rel" ]; then
			apt_update
			rel=$(apt_release "$kver")
		fi
		[ -n "$rel" ] || die "apt offers no linux-headers-$kver.*-amd64"
	fi
	;;
*)	rel=$kver ;;
esac
if [ "$resolve" = 1 ]; then
	echo "$rel"
	exit 0
fi

# The image: -unsigned where apt has one (the same kernel, one package
# fewer), else the signed package.
if [ ! -f "/boot/vmlinuz-$rel" ]; then
	apt_update
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
if [ "$install" = 1 ]; then
	echo "$rel"
	exit 0
fi

# O: the build directory, as for the top Makefile (relative to the top).
harness_objdir
case "${KUNWIND_STOCK_VMLINUX:-}" in
no) vmlinux= ;;
'')	vmlinux=/usr/lib/debug/boot/vmlinux-$rel
	if [ ! -f "$vmlinux" ]; then
		vmlinux=$("$top/tests/harness/stock-vmlinux.sh" "$rel") ||
			die "$rel: no vmlinux for its table (tests/harness/stock-vmlinux.sh failed)"
		if [ "$vmlinux" = no ]; then
			say "$rel: kunwind.ko without a vmlinux table (the reason above)"
			vmlinux=
		fi
	fi ;;
*)	vmlinux=$KUNWIND_STOCK_VMLINUX
	[ -f "$vmlinux" ] || die "no such file: $vmlinux" ;;
esac

out=$objdir/stock/$rel${vmlinux:+-dbg}
src=$out/src
mkdir -p "$out"
log=$out/build.log
: >"$log"

# The host generator, built once by the top Makefile for all kernels.
harness_gen "$log"

# A private copy of the sources, mirrored by content with the objects of
# the last build kept (objects of one kernel must never be linked into
# another's module: the directory is the release's), so that make
# rebuilds only what changed.
say "$rel: building kunwind.ko and kunwind_sample.ko (log: $log)"
t0=$(now)
harness_mirror "$src" ./Kbuild ./Kconfig ./scripts/kunwind.mk ./unwind \
	./prof ./sample ./kunit/early.c ./kunit/kunwind_test.h
jobs=$(nproc)
kmake() {
	make -C "$kdir" -j"$jobs" KUNWIND_GEN="$gen" "$@" >>"$log" 2>&1
}
kmake M="$src" ${vmlinux:+KUNWIND_VMLINUX=$vmlinux} modules ||
	{ tail -n 40 "$log" >&2; die "$rel: building kunwind.ko failed"; }
kmake M="$src/sample" modules ||
	{ tail -n 40 "$log" >&2; die "$rel: building kunwind_sample.ko failed"; }
# kunit/early.c alone, with its table: a module that needs nothing of
# kunwind's, loaded before kunwind.ko, which must find and register it.
mkdir -p "$src/early"
cp -p "$src/kunit/early.c" "$src/kunit/kunwind_test.h" "$src/early/"
printf '%s\n' '# tests/harness/stock-boot.sh: kunit/early.c, loaded before kunwind.ko' \
	'obj-m += kunwind_test_early.o' 'kunwind_test_early-y := early.o' \
	'include $(KUNWIND_DIR)/scripts/kunwind.mk' >"$src/early/Kbuild"
kmake M="$src/early" KUNWIND_DIR="$src" modules ||
	{ tail -n 40 "$log" >&2; die "$rel: building kunwind_test_early.ko failed"; }
# Without its __kunwind_table symbol (Debian keeps data symbols after
# init: KALLSYMS_ALL), so that only the module's own section list can
# lead kunwind to its table.
objcopy --strip-symbol=__kunwind_table "$src/early/kunwind_test_early.ko" ||
	die "$rel: objcopy --strip-symbol=__kunwind_table failed"
say "$rel: modules built in $(secs "$t0" "$(now)") s${vmlinux:+ (vmlinux table: $vmlinux)}"
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
"$top/tests/harness/mkinitramfs.sh" "$out/initrd.cpio.gz" \
	"$src/early/kunwind_test_early.ko" "$src/kunwind.ko" \
	"$src/sample/kunwind_sample.ko" "$out/test.sh"

say "$rel: booting /boot/vmlinuz-$rel (console: $out/console.log)"
rc=0
harness_boot 3 "$out/console.log" - --kernel "/boot/vmlinuz-$rel" \
	--initrd "$out/initrd.cpio.gz" --timeout "$timeout" \
	--append "loglevel=7" || rc=$?
[ "$rc" = 0 ] || say "$rel: the boot failed (status $rc)"
echo "$out/console.log"
exit "$rc"
