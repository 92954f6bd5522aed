#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Make a tiny busybox-static initramfs for QEMU test boots:
#
#	tests/harness/mkinitramfs.sh OUT.cpio.gz [FILE[:DEST]...]
#
# FILE ending in .ko	copied to /lib/modules/ and insmod'ed at boot, with
#			the MODULE.PARAM=VALUE options of the kernel command
#			line (as modprobe would pass them), in the
#			order given
# FILE ending in .sh	(but test.sh) copied to /NAME and run with sh at
#			its place in that order, between the insmods
# FILE named test.sh	copied to /test.sh and run after all of those
# any other FILE	copied to /NAME (or to DEST when given as FILE:DEST;
#			a .ko or .sh given so is only copied)
#
# A FILE that is a dynamically linked program (ldd lists its libraries:
# perf, bash) brings those libraries and its loader along, each at its
# host path, so that it runs in the guest as it does here.
#
# /init mounts proc, sysfs, devtmpfs and debugfs, loads the modules and
# runs the scripts in order ("kunwind-init: insmod NAME", "kunwind-init:
# run NAME" then "kunwind-init: NAME exit N"), runs /test.sh, prints
# "kunwind-init: done status=N" (N = number of failed insmods and of
# scripts that exited non-zero, plus test.sh's exit status: 0 when all
# went well; qemu-run.sh turns it into its exit code, and its absence
# into another) and reboots: "reboot -f" works with or without ACPI and,
# with QEMU's -no-reboot, ends the VM.  "poweroff -f" is only the
# fallback, since it hangs on kernels without ACPI.
set -euo pipefail

who='mkinitramfs'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 OUT.cpio.gz [FILE[:DEST]...]"
out=$1
shift

# busybox-static puts a static /bin/busybox in place of the dynamic one;
# KUNWIND_BUSYBOX, another static busybox (arm64-initramfs.sh's).
busybox=${KUNWIND_BUSYBOX:-/bin/busybox}
APT_WHO="mkinitramfs"
# shellcheck source=scripts/apt.sh
. "$top/scripts/apt.sh"
apt_need cpio || die "could not install cpio"
if [ -z "${KUNWIND_BUSYBOX:-}" ]; then
	apt_need busybox-static || die "could not install busybox-static"
fi
# ldd succeeds only on a dynamic executable.
ldd "$busybox" >/dev/null 2>&1 && die "$busybox is not static"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,root,lib/modules}
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
# /dev/console before devtmpfs is up; kernels also ship one in their
# built-in initramfs, so a non-root caller can do without it.
if [ "$(id -u)" = 0 ]; then
	mknod -m 600 "$root/dev/console" c 5 1
fi
: >"$root/lib/modules/order"

for arg in "$@"; do
	f=${arg%%:*}
	dest=
	[ "$f" != "$arg" ] && dest=${arg#*:}
	[ -f "$f" ] || die "no such file: $f"
	name=$(basename "$f")
	if [ -n "$dest" ]; then
		mkdir -p "$root/$(dirname "$dest")"
		cp "$f" "$root/$dest"
	elif [ "${name%.ko}" != "$name" ]; then
		cp "$f" "$root/lib/modules/$name"
		echo "$name" >>"$root/lib/modules/order"
	elif [ "$name" = test.sh ]; then
		cp "$f" "$root/test.sh"
		chmod +x "$root/test.sh"
	elif [ "${name%.sh}" != "$name" ]; then
		[ ! -e "$root/$name" ] || die "$name: a second file of that name"
		cp "$f" "$root/$name"
		chmod +x "$root/$name"
		echo "$name" >>"$root/lib/modules/order"
	else
		cp "$f" "$root/$name"
	fi
	# ldd succeeds only on a dynamic executable; "=> /path" are its
	# libraries, the bare absolute path its loader.
	if libs=$(ldd "$f" 2>/dev/null); then
		! grep -q 'not found' <<<"$libs" ||
			die "$f: a library ldd does not find: $(grep 'not found' <<<"$libs")"
		for lib in $(awk '$2 == "=>" && $3 ~ /^\// { print $3 }
				$1 ~ /^\// { print $1 }' <<<"$libs"); do
			[ -e "$root$lib" ] && continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	fi
done

cat >"$root/init" <<'EOF'
#!/bin/sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
exec </dev/console >/dev/console 2>&1
echo "kunwind-init: $(uname -r) up $(cut -d' ' -f1 /proc/uptime) s"
status=0
for m in $(cat /lib/modules/order); do
	case "$m" in
	*.sh)
		echo "kunwind-init: run $m"
		sh "/$m"
		rc=$?
		echo "kunwind-init: $m exit $rc"
		[ "$rc" = 0 ] || status=$((status + 1))
		;;
	*)
		# Options from the kernel command line, as modprobe
		# gives them: "MODULE.PARAM=VALUE" words.
		mod=$(echo "${m%.ko}" | tr - _)
		opts=$(tr ' ' '\n' </proc/cmdline | sed -n "s/^$mod\.//p")
		echo "kunwind-init: insmod $m" $opts
		# shellcheck disable=SC2086 # one word an option
		insmod "/lib/modules/$m" $opts || {
			echo "kunwind-init: insmod $m failed"
			status=$((status + 1))
		}
		;;
	esac
done
if [ -x /test.sh ]; then
	/test.sh
	rc=$?
	echo "kunwind-init: /test.sh exit $rc"
	status=$((status + rc))
fi
echo "kunwind-init: done status=$status"
sync
reboot -f
sleep 2
poweroff -f
EOF
chmod +x "$root/init"

(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet -R 0:0) | gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
