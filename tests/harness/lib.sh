# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC3043 # local: in dash and every sh we run
# shellcheck disable=SC2034 # obj, objdir, bzimage, boot_status: the caller's
#
# The QEMU test harness's shared shell library, sourced by the scripts of
# tests/harness/ (every one but test-kernel.sh, whose code lines are the
# test kernel's cache key: a line added there rebuilds it for everyone):
#
#	who='death-boot'
#	# shellcheck source=tests/harness/lib.sh
#	. "$(dirname "$0")/lib.sh"
#
# It sets no shell option and runs nothing but the two assignments below;
# the rest are functions:
#
#	top, harness	the tree's top and tests/harness/, absolute
#	say MSG...	"WHO: MSG" on stderr (stdout is the script's answer:
#			a path, a console, result lines)
#	die MSG...	"WHO: error: MSG" on stderr, exit 1
#	now		a time stamp for secs, in seconds since the epoch
#	secs T0 T1	the seconds from T0 to T1, "%.1f"
#	harness_objdir	sets obj, the build directory as the top Makefile's
#			O (default build, relative to the top), and objdir,
#			the same made absolute
#	harness_gen LOG	builds $obj/kunwind-gen with the top Makefile (its
#			output to LOG), one such make at a time (scripts
#			run at once share it); sets gen, its path
#	harness_mirror DIR PATH...
#			PATH... of the tree (relative to the top) into DIR
#			by content, build products left alone, so that
#			make there rebuilds only what changed since
#	harness_test_source
#			the test kernel built (test-kernel.sh; dies if it
#			fails); sets kdir, its build directory, ksrc, its
#			source, ver, the source's version (src-<ver>)
#	harness_cache_lock NAME
#			sets cache, the kernel cache ($KUNWIND_CACHE, default
#			~/.cache/kunwind), and holds its NAME.lock (flock on
#			fd 9) until the script ends, saying so if it has to
#			wait: one build per cache
#	harness_compose FRAGMENT OUT
#			test-kernel.config with FRAGMENT's lines on top (a
#			line there replaces the base's line of the same
#			option) into OUT; sets hash, 12 hex digits of its
#			options and the compiler: a build directory's key
#	harness_configure BUILD VIEW COMPOSED LOG
#			configures BUILD once: the base config COMPOSED's
#			"# base:" line names, COMPOSED merged on top,
#			olddefconfig (output to LOG; dies if one fails)
#	harness_seed BUILD VIEW
#			BUILD made anew as a copy of the test kernel's build
#			($kdir), its absolute source paths (Kbuild's .cmd
#			files, its Makefile, the source link) moved from
#			$ksrc to VIEW, a view of the same files: make there
#			compiles only what a changed file or option reaches
#	harness_config_check FRAGMENT CONFIG
#			dies unless every option FRAGMENT sets or unsets is
#			so in CONFIG (a .config after Kconfig)
#	harness_lock DIR
#			makes DIR and holds DIR/lock (flock on fd 8) until
#			the script ends: one run at a time per directory
#	harness_modules KERNEL [DIR]
#			kunwind.ko and the sample module for KERNEL
#			(boot-modules.sh KERNEL [DIR]); sets bzimage, the
#			kernel to boot, and src, the directory of kunwind.ko
#			and sample/kunwind_sample.ko; dies if the build failed
#	harness_arm64_make LOG KDIR MAKE-ARGS...
#			make -C KDIR (a kernel build or headers directory)
#			for arm64 with aarch64-linux-gnu-, W=1,
#			CONFIG_WERROR=y and $gen as KUNWIND_GEN, the output
#			appended to LOG; fails if make does, or if LOG has
#			a compiler warning
#	harness_boot TRIES LOG ERR QEMU-RUN-ARGS...
#			one boot (qemu-run.sh --log LOG QEMU-RUN-ARGS, its
#			stdout dropped, its stderr to the file ERR, or
#			passed on for "-"), booted again while the kernel
#			ended before it ran /init (no line of the console
#			matches the ERE harness_init_mark, by default the
#			kernel's "Run /init as init process", which a boot
#			at loglevel < 7 does not print: such a caller sets
#			it to its /init's first line too), TRIES boots at
#			most (the ones before kept as LOG.early-N); sets
#			boot_rc, qemu-run.sh's exit status, and
#			boot_status, the word for it (harness_boot_status);
#			returns boot_rc
#	harness_boot_status RC LOG
#			qemu-run.sh's status RC and its console LOG as a
#			word: ok, panic, init-failed (the initramfs said a
#			non-zero status), no-init-done (it never said it
#			was done), timeout, qemu-failed-RC
#
# Why the retry: a boot that ends before the kernel runs /init never
# reached kunwind (no module is loaded before /init): under TCG the stock
# kernels rarely hang or oops in early boot (6.1 hung at 1.06 s; 6.12 took
# an int3 in sched_clock_cpu() while patching text at 1.7 s).  Such a
# boot is not a result: it is kept and booted again.  A boot whose checks
# run before /init (KUnit's built-in suites) must not be retried: TRIES 1.

harness=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$harness/../.." && pwd)

say() { echo "${who:-harness}: $*" >&2; }
die() { say "error: $*"; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

harness_objdir() {
	obj=${O:-build}
	case "$obj" in
	/*) objdir=$obj ;;
	*) objdir=$top/$obj ;;
	esac
}

harness_test_source() {
	kdir=$("$harness/test-kernel.sh" | tail -n1) ||
		die "no test kernel (tests/harness/test-kernel.sh failed)"
	ksrc=$(readlink -f "$kdir/source")
	ver=$(basename "$ksrc")
	ver=${ver#src-}
}

harness_cache_lock() {
	cache="${KUNWIND_CACHE:-$HOME/.cache/kunwind}"
	mkdir -p "$cache"
	exec 9>"$cache/$1.lock"
	if ! flock -n 9; then
		say "waiting for another build (lock $cache/$1.lock)"
		flock 9
	fi
}

harness_compose() {
	# The option a fragment line sets or unsets, or nothing.
	local opt_awk='function opt(l) {
	if (match(l, /^CONFIG_[A-Za-z0-9_]+=/)) return substr(l, 1, RLENGTH - 1)
	if (l ~ /^# CONFIG_[A-Za-z0-9_]+ is not set$/) return substr(l, 3, index(l, " is") - 3)
	return "" }'
	{
		echo "# Composed from test-kernel.config and $(basename "$1")."
		awk "$opt_awk"'
			FNR == NR { if (opt($0) != "") mine[opt($0)] = 1; next }
			!(opt($0) in mine)' "$1" "$harness/test-kernel.config"
		cat "$1"
	} >"$2"
	hash=$({
		grep -E '^(CONFIG_|# CONFIG_.* is not set|# *base:)' "$2"
		gcc --version | head -n1
	} | sha256sum | cut -c1-12)
}

harness_configure() {
	local build="$1" view="$2" composed="$3" log="$4" base
	[ -f "$build/.kunwind-config" ] && return
	say "configuring $build"
	base=$(sed -n 's/^# *base: *\([a-z]*config\) *$/\1/p' "$composed" | head -n1)
	[ -n "$base" ] || die "$composed: no '# base:' line"
	{
		make -C "$view" O="$build" "$base" &&
			"$view/scripts/kconfig/merge_config.sh" -m -O "$build" \
				"$build/.config" "$composed" &&
			make -C "$view" O="$build" olddefconfig
	} >>"$log" 2>&1 || die "configuring $build failed (log: $log)"
	touch "$build/.kunwind-config"
}

harness_seed() {
	local build="$1" view="$2"
	say "seeding $build with a copy of the test kernel's build $kdir"
	rm -rf "$build.seed"
	cp -a "$kdir" "$build.seed"
	rm -f "$build.seed/.kunwind-done" "$build.seed/.kunwind-config" \
		"$build.seed/.times" "$build.seed/build.log"
	ln -sfn "$view" "$build.seed/source"
	grep -rlZF --include='*.cmd' --include=Makefile -- "$ksrc" \
		"$build.seed" | xargs -0 -r sed -i "s|$ksrc|$view|g"
	rm -rf "$build"
	mv "$build.seed" "$build"
}

harness_config_check() {
	local line opt bad=
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) grep -qxF -- "$line" "$2" || bad="$bad $line" ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			! grep -q "^$opt=" "$2" || bad="$bad $opt=n" ;;
		esac
	done <"$1"
	[ -z "$bad" ] || die "not in $2 after Kconfig:$bad"
}

harness_lock() {
	mkdir -p "$1"
	exec 8>"$1/lock"
	flock 8
}

harness_gen() {
	mkdir -p "$objdir"
	flock "$objdir/.kunwind-gen.lock" \
		make -s -C "$top" O="$obj" "$obj/kunwind-gen" >>"$1" 2>&1 ||
		{ tail -n 30 "$1" >&2; die "building $obj/kunwind-gen failed"; }
	gen=$objdir/kunwind-gen
}

# By content (--checksum), and a copied file gets the time of the copy,
# not of its source (no -t): an object built from an older copy that is
# newer than the source's edit must not look up to date.  --delete does
# not touch the excluded build products.
harness_mirror() {
	local dir="$1"
	shift
	mkdir -p "$dir"
	(cd "$top" && rsync -rlpD --checksum --relative --delete \
		--exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
		--exclude='*.mod.c' --exclude='.*.cmd' --exclude='*.kunwind' \
		--exclude='*.a' --exclude='modules.order' \
		--exclude='Module.symvers' --exclude='vmlinux-info.h' \
		--exclude='*.tmp' --exclude='.tmp*' "$@" "$dir/") ||
		die "rsync of the sources into $dir failed"
}

harness_arm64_make() {
	local log="$1" kd="$2"
	shift 2
	echo "+ make -C $kd $*" >>"$log"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u O -u CC -u CFLAGS \
		make -C "$kd" ARCH=arm64 -j"$(nproc)" \
		CROSS_COMPILE=aarch64-linux-gnu- KUNWIND_GEN="$gen" W=1 \
		CONFIG_WERROR=y "$@" >>"$log" 2>&1 || return 1
	! grep -E 'warning:|error:' "$log" >&2
}

harness_modules() {
	local line
	line=$("$harness/boot-modules.sh" "$@" | tail -n1) || true
	bzimage=${line%% *}
	src=${line#* }
	if [ -z "$line" ] || [ "$src" = "$line" ]; then
		die "$1: building the modules failed"
	fi
}

harness_boot_status() {
	case "$1" in
	0) echo ok ;;
	2)
		if grep -q 'Kernel panic' "$2" 2>/dev/null; then
			echo panic
		else
			echo init-failed
		fi
		;;
	3) echo no-init-done ;;
	124) echo timeout ;;
	*) echo "qemu-failed-$1" ;;
	esac
}

harness_init_mark='Run /init as init process'
harness_boot() {
	local tries="$1" log="$2" err="$3" attempt=1
	shift 3
	while :; do
		boot_rc=0
		if [ "$err" = - ]; then
			"$harness/qemu-run.sh" --log "$log" "$@" >/dev/null ||
				boot_rc=$?
		else
			"$harness/qemu-run.sh" --log "$log" "$@" >/dev/null \
				2>"$err" || boot_rc=$?
		fi
		[ -f "$log" ] || break
		grep -qE "$harness_init_mark" "$log" && break
		[ "$attempt" -lt "$tries" ] || break
		mv "$log" "$log.early-$attempt"
		say "the kernel ended before /init (QEMU status $boot_rc), not a result: booting again (kept $log.early-$attempt)"
		attempt=$((attempt + 1))
	done
	boot_status=$(harness_boot_status "$boot_rc" "$log")
	return "$boot_rc"
}
