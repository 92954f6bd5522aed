#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The vmlinux (with DWARF) of a stock Debian kernel, from its -dbg
# package, cached; its path is the last line of stdout:
#
#	vmlinux=$(tests/harness/dbg-vmlinux.sh RELEASE | tail -n1)
#
# RELEASE is a full release (6.1.0-56-amd64, 6.12.117+deb12-amd64).  The
# package is linux-image-RELEASE-dbg (or -unsigned-dbg, whichever apt
# offers), at the version of the installed linux-image-RELEASE(-unsigned):
# a vmlinux of another build of the same release would not match the
# running kernel.  "apt-get download" fetches the .deb into
# $KUNWIND_CACHE/dbg/ (default ~/.cache/kunwind/dbg/); only
# ./usr/lib/debug/boot/vmlinux-RELEASE is extracted (dpkg-deb
# --fsys-tarfile | tar, stopping after that member), then the .deb is
# deleted.  The cache keeps only
#	$KUNWIND_CACHE/dbg/RELEASE/VERSION/vmlinux-RELEASE
# and a second call prints it at once.  One flock serialises callers.
#
# Cost, measured with "time tests/harness/dbg-vmlinux.sh REL" on an empty cache
# (this machine: 2 cores, deb.debian.org at 130-170 MB/s):
#	6.1.0-56-amd64		.deb 858 MB downloaded in 5.8 s, vmlinux
#				633 MB extracted in 5.7 s; 12.3 s in all
#	6.12.117+deb12-amd64	.deb 1034 MB downloaded in 7.7 s, vmlinux
#				354 MB extracted in 4.2 s; 12.7 s in all
# The vmlinux is the data archive's first big member: without
# --occurrence, tar decompresses all of it (6.7 GB for 6.12): 60 s.
# At a slower 20 MB/s mirror the downloads take about 45 s and 50 s.
# Either way a few minutes at most of CI's 90, once per cache, so
# tests/stock.test runs the -dbg variants for real (tests/stock.mk).
#
# Exit status: 0 with the path printed; 2 when apt offers no -dbg package
# of that version (an old release, gone from the archive: the caller may
# skip); 1 on any other failure (download, extraction, not an ELF file).
set -euo pipefail

who='dbg-vmlinux'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
APT_WHO="dbg-vmlinux"
# shellcheck source=scripts/apt.sh
. "$top/scripts/apt.sh"

[ $# = 1 ] || die "usage: $0 RELEASE (e.g. 6.1.0-56-amd64)"
rel=$1
case "$rel" in
*/* | '' | .*) die "not a kernel release: '$rel'" ;;
esac
cache=${KUNWIND_CACHE:-$HOME/.cache/kunwind}/dbg
member=./usr/lib/debug/boot/vmlinux-$rel

# The version of the installed image of that release.
ver=
for p in "linux-image-$rel" "linux-image-$rel-unsigned"; do
	if apt_installed "$p"; then
		ver=$(dpkg-query -W -f='${Version}' "$p")
		break
	fi
done
[ -n "$ver" ] || die "neither linux-image-$rel nor linux-image-$rel-unsigned is installed"

out=$cache/$rel/$ver/vmlinux-$rel
if [ -f "$out" ]; then
	echo "$out"
	exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/lock"
if ! flock -n 9; then
	say "waiting for another download (lock $cache/lock)"
	flock 9
fi
if [ -f "$out" ]; then
	echo "$out"
	exit 0
fi

# The package that apt has at exactly that version.
offered() {
	local p
	for p in "linux-image-$rel-dbg" "linux-image-$rel-unsigned-dbg"; do
		if apt-cache madison "$p" 2>/dev/null |
				awk -F' *[|] *' -v v="$ver" '$2 == v { f = 1 }
					END { exit !f }'; then
			echo "$p"
			return 0
		fi
	done
}
pkg=$(offered)
if [ -z "$pkg" ]; then
	apt_update
	pkg=$(offered)
fi
if [ -z "$pkg" ]; then
	say "apt offers no linux-image-$rel-dbg (nor -unsigned-dbg) at version $ver"
	exit 2
fi

tmp=$cache/tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
# apt-get download runs as _apt where it can; the directory must let it.
chmod 755 "$tmp"

# Quiet unless it fails: apt warns that it downloads "unsandboxed as
# root" when _apt cannot enter the cache ($HOME is private).
download() {
	(cd "$tmp" && apt-get download -q "$pkg=$ver") >"$tmp/apt.log" 2>&1 &&
		return 0
	cat "$tmp/apt.log" >&2
	return 1
}
say "downloading $pkg=$ver"
t0=$(now)
if ! download; then
	# Lists older than the archive: the .deb moved.  Once more, fresh.
	apt_update
	download || die "apt-get download $pkg=$ver failed"
fi
deb=$(ls "$tmp"/*.deb)
t1=$(now)
size=$(stat -c %s "$deb")

# tar stops after the one member (--occurrence): the rest of the data
# (the modules' debug files, most of the 5-7 GB) is never decompressed.
# dpkg-deb then dies of SIGPIPE; what counts is tar's status and the file.
say "extracting $member"
mkdir -p "$tmp/x"
set +o pipefail
dpkg-deb --fsys-tarfile "$deb" 2>"$tmp/dpkg.log" |
	tar -xf - -C "$tmp/x" --occurrence=1 "$member"
trc=${PIPESTATUS[1]}
set -o pipefail
t2=$(now)
if [ "$trc" != 0 ]; then
	cat "$tmp/dpkg.log" >&2
	die "tar failed (status $trc) on $deb"
fi
[ -f "$tmp/x/$member" ] || die "$deb has no $member"
readelf -h "$tmp/x/$member" >/dev/null 2>&1 ||
	die "$member from $deb is not an ELF file"
mkdir -p "$(dirname "$out")"
mv "$tmp/x/$member" "$out"
rm -rf "$tmp"
say "$rel: .deb $((size / 1000000)) MB downloaded in $(secs "$t0" "$t1") s," \
	"vmlinux $(($(stat -c %s "$out") / 1000000)) MB extracted in" \
	"$(secs "$t1" "$t2") s: $out"
echo "$out"
