#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the 6.12 test kernel with kunwind built in (CONFIG_KUNWIND=y) and
# its KUnit suites as modules, from this tree, and print its build
# directory on the last line of stdout:
#
#	KDIR=$(tests/harness/builtin-kernel.sh | tail -n1) || exit
#	qemu: $KDIR/arch/x86/boot/bzImage    suites: $KDIR/lib/kunwind/kunit/*.ko
#
# 1. The source: the test kernel's (tests/harness/test-kernel.sh unpacks it once
#    and builds the default test kernel, which `make check` needs anyway).
# 2. A view of it, $KUNWIND_CACHE/builtin-src-<version>: `cp -al` (hard
#    links: inodes only), with real copies of lib/Kconfig and lib/Makefile
#    given 'source "lib/kunwind/Kconfig"' and 'obj-y += kunwind/', as the
#    Kbuild header says (tests/kbuild.test makes its view the same way).
#    Remade only when the cached source is another unpack.
# 3. This tree mirrored into the view's lib/kunwind on every run, by
#    content (a changed file gets the time of the copy), so that make
#    rebuilds what changed and nothing else.
# 4. The build directory, $KUNWIND_CACHE/build-builtin-<version>-<hash>,
#    keyed like the test kernel's on the config (the hash covers the
#    composed fragment's settings and the compiler), not on kunwind's
#    sources, which change all the time: they are rebuilt incrementally.
#    The fragment is test-kernel.config with test-kernel-builtin.config on
#    top (a line there replaces the base's line of the same option),
#    composed into the build directory.  A new build directory starts as
#    a copy of the test kernel's (same sources, compiler and W=1), its
#    absolute source paths moved to the view's, so that only what the
#    config's difference reaches is compiled; then configured once (base,
#    merge, olddefconfig), every option of the fragment checked on every
#    run.
# 5. make W=1 all (vmlinux, bzImage, the modules: kunit/*.ko in tree,
#    with their tables).  W=1 for the whole kernel, so that kunwind's
#    objects are compiled with it as built in: the kernel's own W=1
#    warnings are ignored; every line on stderr that names kunwind goes to
#    $KDIR/kunwind-warnings (empty: none), and if there is one the objects
#    of lib/kunwind are removed, so that the next run compiles them again
#    and says so again.  Never skipped.  When
#    the mirror changed nothing since a build that completed without such
#    a line, make is not even run.
#
# One flock per cache ($KUNWIND_CACHE/builtin.lock).  Messages go to
# stderr; the log is $KDIR/build.log (one "+ make" section a run, then the
# run's wall and CPU time).  Exit status 1 on a failed build.
#
# Environment: KUNWIND_CACHE (default $HOME/.cache/kunwind), KUNWIND_JOBS
# (make -j, default: number of CPUs).
#
# Measured on the 2-CPU machine at -j2 (2026-11-28): cold (view, copy,
# config, 72 files compiled, the default test kernel cached) 64 s, where
# the whole kernel built from nothing took 16 min 16 s (2026-11-24, load
# ~5); tree unchanged 0.3 s (make not
# run); a file of kunit/ changed 10 s; a file of unwind/linux changed 16 s
# (vmlinux linked again, with kallsyms' three links).
set -euo pipefail

who='builtin-kernel'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
jobs=${KUNWIND_JOBS:-$(nproc)}

harness_test_source
harness_cache_lock builtin

# ---- the fragment ----------------------------------------------------------

composed=$(mktemp)
trap 'rm -f "$composed"' EXIT
harness_compose "$harness/test-kernel-builtin.config" "$composed"
build=$cache/build-builtin-$ver-$hash
log=$build/build.log
mkdir -p "$build"
cp "$composed" "$build/kunwind.config"

# ---- the view --------------------------------------------------------------

view=$cache/builtin-src-$ver
key="$ksrc $(stat -c %i.%Y "$ksrc/.kunwind-unpacked")"
if [ "$(cat "$view/.kunwind-view" 2>/dev/null)" != "$key" ]; then
	say "making the source view $view"
	rm -rf "$view" "$view.tmp"
	cp -al "$ksrc" "$view.tmp"
	for f in lib/Kconfig lib/Makefile; do
		rm "$view.tmp/$f"
		cp -p "$ksrc/$f" "$view.tmp/$f"
	done
	echo 'source "lib/kunwind/Kconfig"' >>"$view.tmp/lib/Kconfig"
	echo 'obj-y += kunwind/' >>"$view.tmp/lib/Makefile"
	echo "$key" >"$view.tmp/.kunwind-view"
	mv "$view.tmp" "$view"
fi
# This tree's sources, not its build products (.gitignore) nor build/.
# Nothing changed since a complete build: nothing to do.
mkdir -p "$view/lib/kunwind"
changed=$(rsync -rlpD --checksum --delete --itemize-changes --exclude=/.git \
	--exclude=/build --filter=':- .gitignore' "$top/" "$view/lib/kunwind/") ||
	die "rsync of the tree into $view/lib/kunwind failed"
if [ -z "$changed" ] && [ -f "$build/.kunwind-done" ]; then
	echo "$build"
	exit 0
fi
rm -f "$build/.kunwind-done"

# ---- configure, build ------------------------------------------------------

echo "+ $(date -u '+%F %T') run" >>"$log"
kmake() {
	echo "+ make $*" >>"$log"
	make -C "$view" O="$build" "$@" >>"$log" 2>>"$build/stderr"
}
: >"$build/stderr"
fail() {
	say "$1 failed; the last 20 lines of $log and of its stderr:"
	tail -n 20 "$log" >&2
	tail -n 20 "$build/stderr" >&2
	exit 1
}
start=$(date +%s)
# A build directory never configured starts as a copy of the test
# kernel's: the same sources (the view's files are hard links to them,
# with their times), the same compiler and flags (W=1), so make compiles
# only what the config's difference reaches (CONFIG_KUNWIND*, the local
# version) and links again.  The copy's absolute source paths (Kbuild's
# commands and dependencies in its .cmd files, its Makefile, the source
# link) are moved to the view's first; a command that still differed
# would only be compiled again.
if [ ! -f "$build/.kunwind-config" ]; then
	keep=$(mktemp -d)
	cp -p "$build/kunwind.config" "$keep/"
	[ ! -f "$log" ] || cp -p "$log" "$keep/"
	harness_seed "$build" "$view"
	cp -p "$keep"/* "$build/"
	rm -rf "$keep"
	echo "+ seeded from $kdir in $(($(date +%s) - start)) s" >>"$log"
fi
harness_configure "$build" "$view" "$composed" "$log"
say "building in $build (log: $log)"
kmake -j"$jobs" W=1 all || fail "make W=1 all"

# Every option of the fragment, after Kconfig (also after a Kconfig file
# of this tree changed, which makes the build run syncconfig again).
harness_config_check "$composed" "$build/.config"
[ -f "$build/arch/x86/boot/bzImage" ] && [ -f "$build/vmlinux" ] ||
	fail "bzImage or vmlinux"

# kunwind's warnings, from the compiler, modpost or kunwind-gen (the
# paths made relative first: the cache's own path says kunwind).
sed "s|$view/||g; s|$build/||g" "$build/stderr" | grep -i kunwind \
	>"$build/kunwind-warnings" || true
if [ -s "$build/kunwind-warnings" ]; then
	say "$(wc -l <"$build/kunwind-warnings") lines on stderr name kunwind" \
		"($build/kunwind-warnings); lib/kunwind will be compiled again"
	find "$build/lib/kunwind" -name '*.o' -delete
else
	touch "$build/.kunwind-done"
fi
end=$(date +%s)
times >"$build/.times"
echo "build: $(cat "$build/include/config/kernel.release") in" \
	"$((end - start)) s at -j$jobs; cpu user/sys $(tail -n1 "$build/.times")" \
	>>"$log"
say "built in $((end - start)) s"
echo "$build"
