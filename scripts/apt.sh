# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Debian package helpers, sourced (POSIX sh) by the scripts that install
# what they need: deps.sh, stock-boot.sh, qemu-run.sh, mkinitramfs.sh,
# dbg-vmlinux.sh.
#
#	. "$top/scripts/apt.sh"
#	apt_installed PKG	true if PKG is installed
#	apt_need PKG...		install those of PKG that are missing; nothing
#				at all when every one is there (idempotent)
#	apt_install PKG...	install PKG (after apt_update)
#	apt_update		apt-get update, at most once per process
#
# On a fresh machine apt-get install fails without an update first: a
# container's /var/lib/apt/lists may be empty, and an image's lists may be
# older than the archive (the packages they name are gone), so every
# install is preceded by one update per process.  Another apt may hold
# dpkg's lock (tests/harness/test-kernel.sh installs while it builds): wait for
# it up to 10 minutes, and up to 20 for an apt-get that another of these
# scripts runs (a flock).  apt's output goes to stderr, stdout stays the
# caller's.  APT_WHO (default "apt") prefixes the messages.

apt_sudo() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		echo "${APT_WHO:-apt}: error: not root and no sudo for: $*" >&2
		return 1
	fi
}

apt_installed() {
	# No pipe: under pipefail a "grep -q" that stops reading early can
	# fail the pipeline.
	case "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" in
	*" ok installed") return 0 ;;
	esac
	return 1
}

# One apt-get of these scripts at a time, whoever runs them at once (the
# tests' lanes): apt-get update does not wait for the lists' lock.
apt_locked() {
	apt_sudo flock -w 1200 /run/lock/kunwind-apt.lock "$@"
}

apt_updated=
apt_update() {
	[ -n "$apt_updated" ] && return 0
	echo "${APT_WHO:-apt}: apt-get update" >&2
	apt_locked env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
		-o DPkg::Lock::Timeout=600 >&2 || return 1
	apt_updated=1
}

apt_install() {
	apt_update || return 1
	echo "${APT_WHO:-apt}: installing $*" >&2
	apt_locked env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		-o DPkg::Lock::Timeout=600 --no-install-recommends "$@" >&2
}

apt_need() {
	apt_missing=
	for apt_p in "$@"; do
		apt_installed "$apt_p" || apt_missing="$apt_missing $apt_p"
	done
	[ -z "$apt_missing" ] && return 0
	# shellcheck disable=SC2086 # one word a package
	apt_install $apt_missing
}
