#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The vmlinux of a stock Debian kernel, for kunwind.ko's vmlinux table:
#
#	KUNWIND_STOCK_VMLINUX=$(scripts/stock-vmlinux.sh KVER)
#
# KVER as scripts/stock-boot.sh takes it (6.1, 6.12, a release).  Prints
# the path scripts/dbg-vmlinux.sh gives (the -dbg package's vmlinux,
# fetched once into ~/.cache/kunwind/dbg), or "no" when there is none:
# then kunwind.ko walks vmlinux frames with the ORC fallback.  An
# already set KUNWIND_STOCK_VMLINUX is printed as it is.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
[ $# = 1 ] || { echo "usage: $0 KVER" >&2; exit 1; }
if [ -n "${KUNWIND_STOCK_VMLINUX:-}" ]; then
	echo "$KUNWIND_STOCK_VMLINUX"
	exit 0
fi
# The -dbg package must match the installed image: install it first (as
# the boot will), idempotently.
"$top/scripts/stock-boot.sh" --no-boot "$1" >/dev/null ||
	{ echo no; exit 0; }
rel=$("$top/scripts/stock-boot.sh" --release "$1") || { echo no; exit 0; }
path=$("$top/scripts/dbg-vmlinux.sh" "$rel" | tail -n1) || path=
if [ -n "$path" ] && [ -f "$path" ]; then
	echo "$path"
else
	echo "stock-vmlinux: no -dbg vmlinux of $rel: vmlinux frames by the ORC fallback" >&2
	echo no
fi
