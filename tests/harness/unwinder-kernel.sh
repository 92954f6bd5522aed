#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the 6.12 test kernel with kunwind as the kernel's own unwinder
# (CONFIG_UNWINDER_KUNWIND, the series in kernel/patches), and print its
# build directory on the last line of stdout:
#
#	KDIR=$(tests/harness/unwinder-kernel.sh [KIND] | tail -n1) || exit
#
# KIND is "unwinder" (the default: test-kernel-unwinder.config on top of
# test-kernel.config) or one of the three benchmark kernels of
# bench/kernels-bench.sh, "bench-fp", "bench-orc" and "bench-kunwind":
# test-kernel-bench.config on top, then the unwinder's own lines.  All
# are built from the same view of the source, in build directories of
# their own ($KUNWIND_CACHE/build-KIND-<version>-<hash>).
#
# Its twin with the ORC unwinder, same config otherwise, is the test
# kernel itself (tests/harness/test-kernel.sh): the series changes nothing
# for a kernel that does not select UNWINDER_KUNWIND.
#
# 1. The source: the test kernel's, which test-kernel.sh unpacks.
# 2. A view of it, $KUNWIND_CACHE/unwinder-src-<version>: `cp -al` (hard
#    links) with the series applied by patch(1), which writes each file it
#    changes anew, so the cached source stays pristine (checked).  Remade
#    when the series changes; a patched file whose contents did not change
#    keeps its time, so that make rebuilds only what a changed patch
#    reaches.
# 3. The build directory, $KUNWIND_CACHE/build-unwinder-<version>-<hash>,
#    the hash covering the composed config fragment (test-kernel.config
#    with test-kernel-unwinder.config on top) and the compiler.  A
#    new one starts as a copy of the test kernel's build, its source paths
#    moved to the view's, and is configured once; the unwinder choice
#    reaches most of the kernel (asm/module.h), so the first build
#    compiles nearly everything.
# 4. make W=1 all.
#
# One flock per cache ($KUNWIND_CACHE/unwinder.lock).  The log is
# $KDIR/build.log.  Environment: KUNWIND_CACHE, KUNWIND_JOBS.
set -euo pipefail

who='unwinder-kernel'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
jobs=${KUNWIND_JOBS:-$(nproc)}
kind=${1:-unwinder}
case "$kind" in
unwinder | bench-fp | bench-orc | bench-kunwind) ;;
*) die "unknown kernel '$kind': unwinder, bench-fp, bench-orc or bench-kunwind" ;;
esac

harness_test_source
harness_cache_lock unwinder

# ---- the view --------------------------------------------------------------

patches=("$top"/kernel/patches/*.patch)
[ -f "${patches[0]}" ] || die "no patches in $top/kernel/patches"
python3 "$top/kernel/copies.py" --check >&2 ||
	die "the series' copies differ from this tree (kernel/copies.py --refresh)"
view=$cache/unwinder-src-$ver
key="$ksrc $(stat -c %i.%Y "$ksrc/.kunwind-unpacked") $(cat "${patches[@]}" | sha256sum | cut -c1-16)"
if [ "$(cat "$view/.kunwind-view" 2>/dev/null)" != "$key" ]; then
	say "making the source view $view with ${#patches[@]} patches"
	rm -rf "$view.tmp"
	cp -al "$ksrc" "$view.tmp"
	for p in "${patches[@]}"; do
		patch -d "$view.tmp" -p1 -s -f --no-backup-if-mismatch <"$p" ||
			die "$(basename "$p") does not apply"
	done
	# patch(1) writes a new file: the cached source must be unchanged.
	while IFS= read -r f; do
		[ "$(stat -c %h "$view.tmp/$f")" = 1 ] ||
			die "$f of the view is still a hard link to the source"
		# Same contents as in the last view: keep its time.
		if [ -f "$view/$f" ] && cmp -s "$view/$f" "$view.tmp/$f"; then
			touch -r "$view/$f" "$view.tmp/$f"
		fi
	done < <(sed -n 's|^+++ b/||p' "${patches[@]}" | sort -u)
	echo "$key" >"$view.tmp/.kunwind-view"
	rm -rf "$view"
	mv "$view.tmp" "$view"
fi

# ---- the fragment ----------------------------------------------------------

composed=$(mktemp)
fragment=$(mktemp)
trap 'rm -f "$composed" "$fragment"' EXIT
if [ "$kind" = unwinder ]; then
	cp "$harness/test-kernel-unwinder.config" "$fragment"
else
	# The unwinder's lines: the one chosen, the other two not set.
	case "$kind" in
	bench-fp) mine=FRAME_POINTER ;;
	bench-orc) mine=ORC ;;
	bench-kunwind) mine=KUNWIND ;;
	esac
	{
		cat "$harness/test-kernel-bench.config"
		for u in FRAME_POINTER ORC KUNWIND; do
			if [ "$u" = "$mine" ]; then
				echo "CONFIG_UNWINDER_$u=y"
			else
				echo "# CONFIG_UNWINDER_$u is not set"
			fi
		done
		echo "CONFIG_LOCALVERSION=\"-kunwind-$kind\""
	} >"$fragment"
fi
harness_compose "$fragment" "$composed"
build=$cache/build-$kind-$ver-$hash
log=$build/build.log

if [ ! -f "$build/.kunwind-config" ]; then
	harness_seed "$build" "$view"
	# The seed was built from the unpatched files, maybe after the view's
	# patched files got their times: make them newer than every object
	# of the seed, or make would keep objects built without the patches
	# (seen: scripts/module.lds kept ORC in every module).
	sed -n 's|^+++ b/||p' "${patches[@]}" | sort -u |
		(cd "$view" && xargs touch)
fi
harness_configure "$build" "$view" "$composed" "$log"
cp "$composed" "$build/kunwind.config"

say "building in $build (log: $log)"
start=$(date +%s)
echo "+ $(date -u '+%F %T') make -j$jobs W=1 all" >>"$log"
if ! make -C "$view" O="$build" -j"$jobs" W=1 all >>"$log" 2>"$build/stderr"; then
	tail -n 20 "$build/stderr" >&2
	die "make failed (log: $log, $build/stderr)"
fi
harness_config_check "$composed" "$build/.config"
echo "build: $(cat "$build/include/config/kernel.release") in" \
	"$(($(date +%s) - start)) s at -j$jobs" >>"$log"
say "built in $(($(date +%s) - start)) s"
echo "$build"
