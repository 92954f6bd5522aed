#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Download Debian arm64 packages without making arm64 a foreign
# architecture of this machine's dpkg:
#
#	tests/harness/arm64-apt.sh DIR PACKAGE...
#
# leaves each PACKAGE's .deb in DIR.  apt-get runs with arm64 as its only
# architecture and its own sources, lists, cache and (empty) dpkg status
# in DIR/apt, removed afterwards (the lists are ~19 MB), so nothing of the
# system's apt state changes; "apt-get download" fetches.  Sources:
# $KUNWIND_DEBIAN_MIRROR (default http://deb.debian.org/debian) and
# $KUNWIND_DEBIAN_SECURITY (default http://deb.debian.org/debian-security),
# the suites of this machine's release (/etc/os-release) and its -updates,
# -security and -backports, main only; signed by the Debian archive
# keyring.  Used by tests/harness/arm64-initramfs.sh (busybox-static) and
# tests/harness/arm64-stock.sh (Debian's arm64 kernel).
set -euo pipefail

who='arm64-apt'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 DIR PACKAGE..."
dir=$1
shift

APT_WHO=$who
# shellcheck source=scripts/apt.sh
. "$top/scripts/apt.sh"

a=$dir/apt
# shellcheck disable=SC1091 # the machine's, not ours
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$suite" ] || die "no VERSION_CODENAME in /etc/os-release"
mirror=${KUNWIND_DEBIAN_MIRROR:-http://deb.debian.org/debian}
sec=${KUNWIND_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
key=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$key" ] || apt_need debian-archive-keyring || die "no $key"
rm -rf "$a"
mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/parts" \
	"$a/prefs" "$dir"
: >"$a/status"
{
	echo "deb [arch=arm64 signed-by=$key] $mirror $suite main"
	echo "deb [arch=arm64 signed-by=$key] $mirror $suite-updates main"
	echo "deb [arch=arm64 signed-by=$key] $mirror $suite-backports main"
	echo "deb [arch=arm64 signed-by=$key] $sec $suite-security main"
} >"$a/sources.list"
# APT::Sandbox::User=root: the private directories are not the _apt
# user's (only a warning otherwise, but one per download).
opts=(-o APT::Architecture=arm64 -o APT::Architectures::=arm64
	-o "Dir::State::Lists=$a/lists" -o "Dir::State::status=$a/status"
	-o "Dir::Cache=$a/cache" -o "Dir::Etc::sourcelist=$a/sources.list"
	-o "Dir::Etc::sourceparts=$a/parts"
	-o "Dir::Etc::preferencesparts=$a/prefs"
	-o APT::Sandbox::User=root)
say "fetching $* (arm64, private apt state in $a)"
apt-get "${opts[@]}" -qq update >&2 ||
	die "apt-get update of the arm64 lists failed"
(cd "$dir" && apt-get "${opts[@]}" -qq download "$@") >&2 ||
	die "apt-get download $* (arm64) failed"
rm -rf "$a"
