#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# elfutils' own test cores, for tests/kunwind-stack-mixed.test: prints the
# tests/ directory of Debian's elfutils source, fetched once into
# ~/.cache/kunwind/elfutils-VERSION (the version of the installed
# elfutils, whose eu-stack the cores are compared with).
#
#	tests/harness/elfutils-tests.sh	-> /root/.cache/kunwind/elfutils-0.188/tests
#
# apt-get source needs a deb-src line: if apt has none for the release's
# main component, one is added (/etc/apt/sources.list.d/kunwind-src.sources,
# Debian's archive and keyring) and apt-get update runs.  Only the tests/
# directory is unpacked from the upstream tarball: dpkg-source is not
# needed.  Idempotent; exits non-zero, saying why, when it cannot.
set -eu
who='elfutils-tests'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
APT_WHO="elfutils-tests"
# shellcheck source=scripts/apt.sh
. "$top/scripts/apt.sh"

ver=$(dpkg-query -W -f='${Version}' elfutils 2>/dev/null) ||
	die "elfutils is not installed (scripts/deps.sh)"
upstream=${ver%%-*}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/kunwind/elfutils-$upstream
if [ -f "$cache/tests/backtrace.x86_64.fp.core.bz2" ]; then
	echo "$cache/tests"
	exit 0
fi

has_src() {
	grep -rqs -e '^deb-src ' -e '^Types:.*deb-src' \
		/etc/apt/sources.list /etc/apt/sources.list.d/
}
if ! has_src; then
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$codename" ] || die "no VERSION_CODENAME in /etc/os-release"
	echo "elfutils-tests: adding a deb-src line for $codename" >&2
	printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$codename" | apt_sudo tee /etc/apt/sources.list.d/kunwind-src.sources >/dev/null ||
		die "cannot write /etc/apt/sources.list.d/kunwind-src.sources"
	apt_updated=
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A fresh update if the source cannot be found (the line may be new).
if ! (cd "$tmp" && apt-get source -qq --download-only "elfutils=$ver" >&2); then
	apt_update || die "apt-get update failed"
	(cd "$tmp" && apt-get source -qq --download-only "elfutils=$ver" >&2) ||
		die "apt-get source elfutils=$ver failed"
fi
orig=$(ls "$tmp"/elfutils_"$upstream".orig.tar.* 2>/dev/null | head -n1)
[ -n "$orig" ] || die "no upstream tarball in what apt-get source fetched"
mkdir -p "$tmp/x"
tar -xf "$orig" -C "$tmp/x" --wildcards "elfutils-$upstream/tests/*" ||
	die "cannot unpack tests/ from $orig"
mkdir -p "$(dirname "$cache")"
rm -rf "$cache"
mv "$tmp/x/elfutils-$upstream" "$cache"
[ -f "$cache/tests/backtrace.x86_64.fp.core.bz2" ] ||
	die "no backtrace.x86_64.fp.core.bz2 in elfutils $upstream's tests"
echo "$cache/tests"
