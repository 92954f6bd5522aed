#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print, one a line and as absolute paths, the files the oracle tests
# (tests/readelf.test, the libdw oracle) compare kunwind-gen against:
# the machine's libc, dynamic loader and libstdc++, the objects
# tests/readelf.mk builds, and the test module.  A file may be listed
# without existing (not built, headers missing): the tests report it.
# Exits 1, after printing what it can, if the object list is not built.
#   O=build tests/oracle-files.sh
top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-build}
case $O in /*) obj=$O ;; *) obj=$top/$O ;; esac

for lib in libc.so.6 ld-linux-x86-64.so.2 libstdc++.so.6; do
	path=$(gcc -print-file-name="$lib" 2>/dev/null)
	[ -e "$path" ] || path=/usr/lib/x86_64-linux-gnu/$lib
	readlink -f "$path" || echo "$path"
done

list=$obj/tests/objs/objs.list
rc=0
if [ -r "$list" ]; then
	cat "$list"
else
	echo "oracle-files.sh: $list missing: run 'make oracle-objs'" >&2
	rc=1
fi
echo "$obj/tests/kmod/kunwind_frames.ko"
exit $rc
