#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The vmlinux of a stock Debian kernel, for kunwind.ko's vmlinux table:
#
#	KUNWIND_STOCK_VMLINUX=$(tests/harness/stock-vmlinux.sh KVER) || die ...
#
# KVER as tests/harness/stock-boot.sh takes it (6.1, 6.12, a release).  The
# image is installed first if need be ("stock-boot.sh --install": the
# -dbg package must match it), then tests/harness/dbg-vmlinux.sh gives the -dbg
# package's vmlinux (fetched once into ~/.cache/kunwind/dbg).
#
# Exit status and stdout:
#	0  the vmlinux's path
#	0  "no", only when there is no vmlinux table to be had, for a reason
#	   printed on stderr as one line
#		stock-vmlinux: no vmlinux table: REASON
#	   REASON: apt offers no -dbg package of the installed image's
#	   version (dbg-vmlinux.sh's status 2: an old release, gone from
#	   the archive), or the caller said so (KUNWIND_STOCK_DBG=no,
#	   KUNWIND_STOCK_VMLINUX=no).  kunwind.ko then walks vmlinux frames
#	   with the ORC fallback ("no table"): a caller that meant to have
#	   the table skips, and says why, or says so beside its result.
#	1  any other failure (install, download, extraction, a
#	   KUNWIND_STOCK_VMLINUX that is no file): nothing on stdout.  A
#	   caller fails; it must never go on without the table.
# An already set KUNWIND_STOCK_VMLINUX (a file) is printed as it is.
set -euo pipefail

who='stock-vmlinux'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
none() { say "no vmlinux table: $*"; echo no; exit 0; }
[ $# = 1 ] || die "usage: $0 KVER"
case "${KUNWIND_STOCK_VMLINUX:-}" in
'') ;;
no) none "KUNWIND_STOCK_VMLINUX=no" ;;
*)	[ -f "$KUNWIND_STOCK_VMLINUX" ] ||
		die "KUNWIND_STOCK_VMLINUX=$KUNWIND_STOCK_VMLINUX: no such file"
	echo "$KUNWIND_STOCK_VMLINUX"
	exit 0 ;;
esac
[ "${KUNWIND_STOCK_DBG:-yes}" != no ] || none "KUNWIND_STOCK_DBG=no"
rel=$("$top/tests/harness/stock-boot.sh" --install "$1" | tail -n1) ||
	die "tests/harness/stock-boot.sh --install $1 failed"
[ -n "$rel" ] || die "tests/harness/stock-boot.sh --install $1 printed no release"
set +e
out=$("$top/tests/harness/dbg-vmlinux.sh" "$rel")
rc=$?
set -e
path=$(printf '%s\n' "$out" | tail -n1)
case "$rc" in
0)	if [ -z "$path" ] || [ ! -f "$path" ]; then
		die "tests/harness/dbg-vmlinux.sh $rel printed no file: '$path'"
	fi
	echo "$path" ;;
2)	none "apt offers no -dbg package of $rel's installed version" ;;
*)	die "tests/harness/dbg-vmlinux.sh $rel failed (status $rc)" ;;
esac
