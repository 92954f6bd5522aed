#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunwind loaded early from a real Debian initramfs, booted in QEMU:
#
#	tests/harness/initramfs-boot.sh [--from-tree] [--timeout S]
#				  --vmlinux-table yes|no RELEASE
#
# RELEASE: a stock kernel with /boot/vmlinuz-RELEASE, its headers, and
# kunwind.ko where modprobe finds it (modinfo -k RELEASE kunwind: the
# kunwind-dkms package's /lib/modules/RELEASE/updates/dkms/kunwind.ko).
# tests/dkms.test runs this after installing the package, before removing
# it.  The initramfs hook and init-top script are the installed package's
# (/usr/share/initramfs-tools/hooks/kunwind and scripts/init-top/kunwind);
# --from-tree takes them from scripts/initramfs/ instead, copied into the
# private configuration directory (for development, without the package;
# kunwind.ko must still be where modprobe finds it, e.g. copied by hand to
# /lib/modules/RELEASE/extra/ and depmod RELEASE run).  --vmlinux-table:
# whether that kunwind.ko was built with RELEASE's vmlinux table (DKMS
# with linux-image-RELEASE-dbg's vmlinux): the booted kernel must then
# have registered it, or else say it has none (initramfs_vmlinux_table).
#
# Nothing of the machine changes: mkinitramfs -d CONF -o FILE with CONF a
# copy of /etc/initramfs-tools plus test-only extras, all in the build
# directory $O/initramfs/RELEASE/ (build/ without O, as for the top
# Makefile).  The extras: a hook that adds kunwind_sample.ko (sample/,
# built against RELEASE's headers by tests/harness/stock-boot.sh --no-boot) and
# has the initramfs's own /conf/modules load it with points=0 (a module
# with a kunwind table, loaded as a DKMS driver would be: after kunwind),
# and scripts/init-premount/kunwind-test, which runs after udev and
# /conf/modules loaded their modules, prints the guest's view (prefixed
# "kunwind-test-WHAT: ") and reboots.  QEMU (tests/harness/qemu-run.sh: TCG,
# console=ttyS0 panic=-1, -no-reboot) gets a virtio disk, an e1000 NIC and
# an xHCI controller with a USB keyboard, so that udev loads modules.
#
# Checks, one "ok NAME_<major>_<minor>" / "not ok ..." line each, NAME as
# below and the suffix RELEASE's series (initramfs_boot_6_12 for
# 6.12.117+deb12-amd64), so that the runs for two kernels have names of
# their own; exit 1 if any failed:
#   initramfs_has_kunwind        lsinitramfs: the initramfs holds the
#                                kunwind.ko modprobe finds for RELEASE
#                                (same path) and scripts/init-top/kunwind
#   initramfs_kunwind_before_udev  the initramfs's scripts/init-top/ORDER
#                                runs kunwind before udev
#   initramfs_hook_without_module  the hook for a release without
#                                kunwind.ko: exits 0, warns, and takes the
#                                init-top script out
#   initramfs_boot               the guest ran kunwind-test to its end
#   initramfs_kunwind_first      kunwind is the oldest module in the guest's
#                                /proc/modules, and others were loaded
#                                after it (udev's: virtio, e1000, xhci...)
#   initramfs_vmlinux_table      from the guest's debugfs (kunwind/tables)
#                                and its dmesg (every level, whatever the
#                                console's loglevel=4 shows): with
#                                --vmlinux-table yes, "vmlinux" is
#                                registered with its .text segment live and
#                                no "vmlinux table refused"; with no, no
#                                "vmlinux" registration and kunwind.ko's
#                                "no vmlinux table" line: the ok line says
#                                which
#   initramfs_fallback_steps     kunwind/stats after the profile below:
#                                steps by tables > 0; steps by the ORC
#                                fallback only for "no table", each out of
#                                a frame in text no table covers (the
#                                profiler's modules file: a stock module
#                                udev loaded, or vmlinux without its
#                                table), none out of vmlinux with its table
#                                or a module with one; the profiler's
#                                samples account for them; counted and
#                                printed by owner
#   initramfs_registry           every module in /proc/modules that carries
#                                a .kunwind section (/sys/module/M/sections)
#                                is registered (debugfs tables), at least
#                                kunwind_sample; kunwind.ko found no table
#                                of a module loaded before it (no
#                                "registered N tables of modules loaded
#                                before kunwind.ko" in dmesg)
#   initramfs_trace_equal        kunwind's profiler, selfcheck on, 4 s of
#                                syscalls and the sample's work kthread:
#                                samples > 0, selfcheck_equal > 0,
#                                selfcheck_differ == 0 (every sample's
#                                kunwind walk equal to ORC's)
#   initramfs_optout_conf        built with conf.d/kunwind saying
#                                KUNWIND_INITRAMFS=no: no kunwind.ko and no
#                                init-top script in it (lsinitramfs)
#   initramfs_optout_cmdline     booted with kunwind_early=no: the init-top
#                                script said so and loaded nothing; kunwind
#                                came in later (the sample needs it), after
#                                udev's modules
# Nothing is skipped: a missing piece is a failure.  The console logs stay
# in the build directory (console.log, console-optout.log), named on
# failure.  Missing tools are installed by scripts/apt.sh (idempotent).
#
# Measured (2 cores, TCG, another test run on the machine; `time
# tests/harness/initramfs-boot.sh --from-tree RELEASE`): 6.1.0-56-amd64 181 s
# wall (the sample's build 20 s, each mkinitramfs 28-48 s, the boots 35 s
# and 31 s, the profile's 4 s among them); 6.12.117+deb12-amd64 204 s (its
# build 34 s, boots 30 s and 22 s).  Plus an apt-get install on a machine
# without initramfs-tools-core or busybox.
set -euo pipefail

who='initramfs-boot'
# shellcheck source=tests/harness/lib.sh
. "$(dirname "$0")/lib.sh"
APT_WHO="initramfs-boot"
# shellcheck source=scripts/apt.sh
. "$top/scripts/apt.sh"

from_tree=0 timeout=300 want_table=
while [ $# -gt 0 ]; do
	case "$1" in
	--from-tree) from_tree=1; shift ;;
	--timeout) [ $# -ge 2 ] || die "--timeout wants seconds"
		timeout=$2; shift 2 ;;
	--vmlinux-table) [ $# -ge 2 ] || die "--vmlinux-table wants yes or no"
		want_table=$2; shift 2 ;;
	-*) die "unknown option $1 (see the header of $0)" ;;
	*) break ;;
	esac
done
[ $# = 1 ] || die "usage: $0 [--from-tree] [--timeout S] --vmlinux-table yes|no RELEASE"
case "$want_table" in
yes | no) ;;
*) die "--vmlinux-table yes|no: was kunwind.ko built with RELEASE's vmlinux table?" ;;
esac
rel=$1
case "$rel" in
*[!A-Za-z0-9._+-]* | '') die "bad RELEASE '$rel'" ;;
esac
[ -f "/boot/vmlinuz-$rel" ] || die "no /boot/vmlinuz-$rel"
[ -d "/lib/modules/$rel" ] || die "no /lib/modules/$rel"
apt_need initramfs-tools-core cpio zstd ||
	die "could not install initramfs-tools-core cpio zstd"
# The guest's script needs busybox in the initramfs (BUSYBOX=auto takes
# /bin/busybox).  busybox and busybox-static conflict: asking for one
# removes the other, which other scripts need (tests/harness/mkinitramfs.sh
# wants busybox-static), so either will do.
apt_installed busybox || apt_need busybox-static ||
	die "could not install busybox-static"

harness_objdir
out=$objdir/initramfs/$rel
harness_lock "$out"

t0=$(date +%s.%N)
failed=0
tag=$(echo "$rel" | sed -n 's/^\([0-9]*\)\.\([0-9]*\)[.-].*/_\1_\2/p')
ok() { echo "ok $1$tag"; }
notok() {
	local name=$1$tag
	shift
	echo "not ok $name"
	printf '#   %s\n' "$@"
	failed=1
}

# The sample module, against RELEASE's headers (its own kunwind.ko build,
# whose symbol versions the installed kunwind.ko shares: same sources,
# same headers).  KUNWIND_STOCK_VMLINUX=no: the sample needs no vmlinux
# table, the build needs no -dbg vmlinux.
say "$rel: building kunwind_sample.ko (tests/harness/stock-boot.sh --no-boot)"
sdir=$(O="$out/o" KUNWIND_STOCK_VMLINUX=no \
	"$top/tests/harness/stock-boot.sh" --no-boot "$rel" | tail -n 1) ||
	die "tests/harness/stock-boot.sh --no-boot $rel failed"
sample=$sdir/src/sample/kunwind_sample.ko
prof=$sdir/src/prof/kunwind_prof.ko
[ -f "$sample" ] || die "no $sample"
[ -f "$prof" ] || die "no $prof"

# The installed kunwind.ko, and the hook and init-top script.
ko=$(modinfo -k "$rel" -F filename kunwind 2>/dev/null) || ko=
share=/usr/share/initramfs-tools
if [ "$from_tree" = 1 ]; then
	hook=$top/scripts/initramfs/kunwind-hook
	inittop=$top/scripts/initramfs/kunwind-init-top
else
	hook=$share/hooks/kunwind
	inittop=$share/scripts/init-top/kunwind
fi

# CONF: /etc/initramfs-tools as it is, plus the test's extras.
mkconf() {
	local d=$1
	rm -rf "$d"
	cp -a /etc/initramfs-tools "$d"
	if [ "$from_tree" = 1 ]; then
		install -m 755 "$hook" "$d/hooks/kunwind"
		install -m 755 "$inittop" "$d/scripts/init-top/kunwind"
	fi
	cat >"$d/hooks/kunwind-test" <<EOF
#!/bin/sh
# tests/harness/initramfs-boot.sh's, test only: the sample module, loaded by
# the initramfs's /conf/modules after udev's modules.
[ "\$1" = prereqs ] && exit 0
mkdir -p "\${DESTDIR}/lib/modules/\${version}/kunwind-test"
cp "$sample" "$prof" "\${DESTDIR}/lib/modules/\${version}/kunwind-test/"
echo "kunwind_sample points=0" >>"\${DESTDIR}/conf/modules"
EOF
	chmod 755 "$d/hooks/kunwind-test"
	mkdir -p "$d/scripts/init-premount"
	cat >"$d/scripts/init-premount/kunwind-test" <<'EOF'
#!/bin/sh
# tests/harness/initramfs-boot.sh's, test only: the guest's view, then reboot.
[ "$1" = prereqs ] && exit 0
P=/sys/kernel/debug/kunwind/profile
show() { sed "s/^/kunwind-test-$1: /" "$2"; }
mount -t debugfs debugfs /sys/kernel/debug
echo "kunwind-test: begin"
show modules /proc/modules
for m in $(cut -d' ' -f1 /proc/modules); do
	[ -e "/sys/module/$m/sections/.kunwind" ] &&
		echo "kunwind-test-has-table: $m"
done
[ -f /sys/kernel/debug/kunwind/tables ] &&
	show tables /sys/kernel/debug/kunwind/tables
dmesg | grep -i kunwind >/tmp/kunwind.dmesg
show dmesg /tmp/kunwind.dmesg
grep -qw kunwind_early=no /proc/cmdline || modprobe kunwind_prof
if ! grep -qw kunwind_early=no /proc/cmdline && [ -d $P ]; then
	rmmod kunwind_sample
	modprobe kunwind_sample points=0 work=1
	echo 997 >$P/frequency
	echo 1 >$P/selfcheck
	echo start >$P/control
	end=$(($(cut -d. -f1 /proc/uptime) + 4))
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
		cat /proc/self/stat >/dev/null
		ls /sys/kernel >/dev/null
	done
	echo stop >$P/control
	rmmod kunwind_sample
	show stats $P/stats
	show selfcheck $P/selfcheck_report
	show profmods $P/modules
fi
[ -f /sys/kernel/debug/kunwind/stats ] &&
	show kstats /sys/kernel/debug/kunwind/stats
# The tables again: each one's fallback steps out of its text, by reason.
[ -f /sys/kernel/debug/kunwind/tables ] &&
	show tables-after /sys/kernel/debug/kunwind/tables
echo "kunwind-test: end"
echo "kunwind-init: done status=0"
sync
reboot -f
sleep 5
EOF
	chmod 755 "$d/scripts/init-premount/kunwind-test"
}

# 1. The initramfs, and what lsinitramfs sees in it.
img=$out/initrd.img
mkconf "$out/conf"
say "$rel: mkinitramfs -d $out/conf -o $img"
mkinitramfs -d "$out/conf" -o "$img" "$rel" >"$out/mkinitramfs.log" 2>&1 ||
	{ cat "$out/mkinitramfs.log" >&2; die "mkinitramfs failed (log: $out/mkinitramfs.log)"; }
lsinitramfs "$img" >"$out/lsinitramfs.txt"
want_ko=${ko#/}
want_ko=usr/${want_ko#usr/}
want_ko=${want_ko%.xz} want_ko=${want_ko%.zst} want_ko=${want_ko%.gz}
if [ ! -x "$hook" ] || [ ! -x "$inittop" ]; then
	notok initramfs_has_kunwind "no executable $hook or $inittop"
elif [ -z "$ko" ]; then
	notok initramfs_has_kunwind "modinfo -k $rel kunwind finds no kunwind.ko"
elif ! grep -qx "$want_ko" "$out/lsinitramfs.txt" ||
     ! grep -qx scripts/init-top/kunwind "$out/lsinitramfs.txt"; then
	notok initramfs_has_kunwind "expected $want_ko and scripts/init-top/kunwind in $img; got:" \
		"$(grep kunwind "$out/lsinitramfs.txt" | tr '\n' ' ')"
else
	ok initramfs_has_kunwind
fi

# ORDER as mkinitramfs wrote it (the main archive; after any early one).
rm -rf "$out/unpacked"
unmkinitramfs "$img" "$out/unpacked"
order=$out/unpacked/scripts/init-top/ORDER
[ -f "$order" ] || order=$out/unpacked/main/scripts/init-top/ORDER
kline=$(grep -n '^/scripts/init-top/kunwind ' "$order" | cut -d: -f1) || kline=
uline=$(grep -n '^/scripts/init-top/udev ' "$order" | cut -d: -f1) || uline=
if [ -n "$kline" ] && [ -n "$uline" ] && [ "$kline" -lt "$uline" ]; then
	ok initramfs_kunwind_before_udev
else
	notok initramfs_kunwind_before_udev "$order:" "$(grep '^/scripts' "$order" | tr '\n' ' ')"
fi
rm -rf "$out/unpacked"

# The hook for a release without kunwind.ko, alone, as mkinitramfs runs it.
fake=$out/hook-without-module
rm -rf "$fake"
mkdir -p "$fake/dest/scripts/init-top" "$fake/conf/conf.d"
cp "$inittop" "$fake/dest/scripts/init-top/kunwind"
if env DESTDIR="$fake/dest" CONFDIR="$fake/conf" version=0.0.0-kunwind-none \
	verbose=n MODULESDIR=/lib/modules/0.0.0-kunwind-none \
	sh "$hook" >"$fake/out" 2>&1; then
	hrc=0
else
	hrc=$?
fi
if [ "$hrc" = 0 ] && grep -q '^W: kunwind: no kunwind.ko' "$fake/out" &&
   [ ! -e "$fake/dest/scripts/init-top/kunwind" ]; then
	ok initramfs_hook_without_module
else
	notok initramfs_hook_without_module "exit $hrc (want 0), output:" "$(cat "$fake/out")" \
		"init-top script left: $([ -e "$fake/dest/scripts/init-top/kunwind" ] && echo yes || echo no)"
fi
rm -rf "$fake"

# 2. The boots.  Devices for udev to load modules for.
truncate -s 1M "$out/disk.img"
# At loglevel 4 the kernel does not say it runs /init: Debian's /init
# says "Loading, please wait..." first.
harness_init_mark='Run /init as init process|^Loading, please wait\.\.\.'
boot() {
	local log=$1 append=$2 rc=0
	say "$rel: booting /boot/vmlinuz-$rel $append (console: $log)"
	harness_boot 3 "$log" "$log.err" --kernel "/boot/vmlinuz-$rel" \
		--initrd "$img" --timeout "$timeout" \
		--append "loglevel=4 $append" -- \
		-drive "file=$out/disk.img,if=virtio,format=raw" \
		-nic user,model=e1000 \
		-device qemu-xhci,id=xhci -device usb-kbd,bus=xhci.0 || rc=$?
	[ "$rc" = 0 ] || sed 's/^/initramfs-boot: /' "$log.err" >&2
	return "$rc"
}
# The guest's lines of WHAT, prefix off.
guest() { sed -n "s/^kunwind-test-$2: //p" "$1"; }

log=$out/console.log
if boot "$log" "" && grep -q '^kunwind-test: end' "$log"; then
	ok initramfs_boot
else
	notok initramfs_boot "the guest did not reach the end of kunwind-test (console: $log)"
fi

mods=$(guest "$log" modules | cut -d' ' -f1)
oldest=$(echo "$mods" | tail -n 1)
others=$(echo "$mods" | grep -vx kunwind | tr '\n' ' ') || others=
if [ "$oldest" = kunwind ] && [ -n "$others" ] &&
   grep -q '^kunwind: loaded early, before any other module' "$log"; then
	ok initramfs_kunwind_first
	say "$rel: loaded after kunwind: $others"
else
	notok initramfs_kunwind_first "want kunwind oldest in /proc/modules, others after it, and" \
		"the init-top script's \"loaded early\"; /proc/modules (newest first):" \
		"$(echo "$mods" | tr '\n' ' ')" "console: $log"
fi

owners=$(guest "$log" tables | sed -n 's/^\([^ ]*\) bytes=.*/\1/p')
missing=
for m in $(guest "$log" has-table); do
	echo "$owners" | grep -qx "$m" || missing="$missing $m"
done
before=$(guest "$log" dmesg |
	sed -n 's/.*registered \([0-9]*\) tables\{0,1\} of modules loaded before kunwind.ko.*/\1/p')
if [ -z "$missing" ] && guest "$log" has-table | grep -qx kunwind_sample &&
   [ -z "$before" ]; then
	ok initramfs_registry
else
	notok initramfs_registry "modules with a table but not registered:${missing:- none}" \
		"modules with a table: $(guest "$log" has-table | tr '\n' ' ')" \
		"registered: $(echo "$owners" | tr '\n' ' ')" \
		"kunwind.ko registered ${before:-0} tables of modules loaded before it, want 0" \
		"console: $log"
fi

# The vmlinux table as the booted kernel took it: its registration (name
# line, then its segments, indented) and kunwind.ko's own lines.
vsegs=$(guest "$log" tables | awk '/^[^ ]/ { v = $1 == "vmlinux" } v && /^ / && / size=/')
vreg=$(guest "$log" tables | grep '^vmlinux ') || vreg=
refused=$(guest "$log" dmesg | grep 'vmlinux table refused') || refused=
notable=$(guest "$log" dmesg | grep 'kunwind: no vmlinux table') || notable=
if [ -z "$(guest "$log" tables)" ]; then
	notok initramfs_vmlinux_table "no debugfs kunwind/tables from the guest (console: $log)"
elif [ "$want_table" = yes ]; then
	if [ -n "$vreg" ] && [ -z "$refused" ] && [ -z "$notable" ] &&
	   echo "$vsegs" | awk '$1 == ".text" && $NF == "live" { f = 1 } END { exit !f }'; then
		ok initramfs_vmlinux_table
		echo "#   registered: $vreg; segments: $(echo "$vsegs" | awk '/ size=/ { printf "%s %s; ", $1, $NF }')"
	else
		notok initramfs_vmlinux_table "kunwind.ko was built with the vmlinux table; the guest's kernel has:" 			"registration: ${vreg:-none}" "segments: $(echo "$vsegs" | tr '
' ';')" 			"dmesg: ${refused:-}${notable:-}" "console: $log"
	fi
else
	if [ -z "$vreg" ] && [ -z "$refused" ] && [ -n "$notable" ]; then
		ok initramfs_vmlinux_table
		echo "#   none, as built: ${notable#*kunwind: }"
	else
		notok initramfs_vmlinux_table "kunwind.ko was built without the vmlinux table; the guest's kernel has:" 			"registration: ${vreg:-none}" "dmesg: ${refused:-}${notable:-no \"no vmlinux table\" line}" 			"console: $log"
	fi
fi

# Who walked: kunwind's counters after the profile (every walk since
# kunwind.ko's load, the profiler's self-checked samples most of them),
# and the profiler's modules file: the fallback steps per module whose
# frame they stepped out of, and why.  A fallback step is allowed only
# out of text no table describes, "no table": a module without a
# .kunwind section (udev's stock drivers), or vmlinux when kunwind.ko
# was built without its table; never out of vmlinux with its table nor
# out of a module with a table, and the profiler's samples must account
# for every such step kunwind counted.
kstat() { guest "$log" kstats | awk -v n="$1" '$1 == n { print $2; exit }'; }
pstat() { guest "$log" stats | awk -v n="$1:" '$1 == n { print $2; exit }'; }
walks=$(guest "$log" kstats |
	awk '$1 ~ /^(walks|frames|table_steps|orc_fallback_[a-z_]*)$/ { printf "%s=%s ", $1, $2 }')
tsteps=$(kstat table_steps) fsteps=$(kstat orc_fallback_steps)
nrow=$(kstat orc_fallback_no_row) nfail=$(kstat orc_fallback_row_step_failed)
ntracer=$(kstat orc_fallback_tracer_helper_missing) ntable=$(kstat orc_fallback_no_table)
pfall=$(pstat steps_fallback) pdrop=$(pstat dropped_session_table_full)
# "OWNER REASON=N" per fallback count in the profiler's modules file.
fby=$(guest "$log" profmods | awk '!/^#/ && $1 != "module" {
	line = $0
	while (match(line, /fallback: [a-z ]+=[0-9]+/)) {
		f = substr(line, RSTART + 10, RLENGTH - 10)
		print $1 " " f
		line = substr(line, RSTART + RLENGTH)
	} }')
covered="vmlinux $(guest "$log" has-table | tr '\n' ' ')"
[ "$want_table" = yes ] || covered=" $(guest "$log" has-table | tr '\n' ' ')"
bad='' accounted=0
while read -r owner why; do
	[ -n "$owner" ] || continue
	n=${why##*=}
	accounted=$((accounted + n))
	case " $covered " in
	*" $owner "*) bad="$bad $owner: $why;" ;;
	esac
	case $why in
	"no table="*) ;;
	*) bad="$bad $owner: $why;" ;;
	esac
done <<EOF2
$fby
EOF2
if [ -z "$tsteps" ] || [ -z "$fsteps" ] || [ -z "$nrow" ] || [ -z "$nfail" ] ||
   [ -z "$ntracer" ] || [ -z "$ntable" ] || [ -z "$pfall" ] || [ -z "$pdrop" ]; then
	notok initramfs_fallback_steps "kunwind/stats or profile/stats lacks a counter: ${walks:-none}" \
		"profile: steps_fallback=${pfall:-none} dropped_session_table_full=${pdrop:-none}" "console: $log"
elif [ "$tsteps" -gt 0 ] && [ "$nrow" = 0 ] && [ "$nfail" = 0 ] && [ "$ntracer" = 0 ] &&
     [ -z "$bad" ] && [ "$fsteps" = "$ntable" ] && [ "$pfall" -le "$fsteps" ] &&
     { [ "$pdrop" != 0 ] || [ "$accounted" = "$pfall" ]; } &&
     { [ "$fsteps" = 0 ] || [ "$pfall" -gt 0 ]; }; then
	ok initramfs_fallback_steps
	echo "#   $walks"
	echo "#   fallback steps out of text no table covers (profile/modules): $(echo "$fby" |
		awk 'NF { printf "%s%s", s, $0; s = ", " } END { if (!s) printf "none" }')"
else
	# Whose text the fallback stepped out of (debugfs tables after the
	# profile; "no table" has no owner).
	fowners=$(guest "$log" tables-after | awk '/^[^ ]/ { t = $1 }
		/^  fallback steps out of its text:/ && /[1-9]/ { sub(/^  fallback steps out of its text: /, ""); print t ": " $0 }')
	notok initramfs_fallback_steps "want table_steps > 0; fallback steps only for \"no table\", out of" \
		"text no table covers (covered: $covered), all accounted for by the profiler's samples;" \
		"kunwind/stats after the profile: $walks" \
		"profile: steps_fallback=$pfall dropped_session_table_full=$pdrop, per module: $accounted" \
		"not allowed:${bad:- none}" \
		"profile/modules fallback: $(echo "$fby" | tr '\n' ';')" \
		"by table: ${fowners:-none with a count}" \
		"$(guest "$log" selfcheck | grep '^fallback ' | head -n 10)" "console: $log"
fi

stat_of() { guest "$log" stats | sed -n "s/^$1: *//p" | head -n 1; }
samples=$(stat_of samples) equal=$(stat_of selfcheck_equal)
differ=$(stat_of selfcheck_differ)
if [ "${samples:-0}" -gt 0 ] && [ "${equal:-0}" -gt 0 ] && [ "${differ:-x}" = 0 ]; then
	ok initramfs_trace_equal
	say "$rel: profile samples=$samples selfcheck equal=$equal differ=$differ"
else
	notok initramfs_trace_equal "samples=${samples:-?} selfcheck_equal=${equal:-?}" \
		"selfcheck_differ=${differ:-?} (want >0, >0, 0)" \
		"$(guest "$log" selfcheck | head -n 20)" "console: $log"
fi

# 3. The opt-outs: the conf file at build time, the command line at boot.
mkconf "$out/conf-optout"
echo "KUNWIND_INITRAMFS=no" >"$out/conf-optout/conf.d/kunwind"
say "$rel: mkinitramfs with KUNWIND_INITRAMFS=no"
if mkinitramfs -d "$out/conf-optout" -o "$out/initrd-optout.img" "$rel" \
	>"$out/mkinitramfs-optout.log" 2>&1; then
	left=$(lsinitramfs "$out/initrd-optout.img" |
		grep -E '/kunwind\.ko|init-top/kunwind$' | tr '\n' ' ') || left=
	if [ -z "$left" ]; then
		ok initramfs_optout_conf
	else
		notok initramfs_optout_conf "still in $out/initrd-optout.img: $left"
	fi
else
	notok initramfs_optout_conf "mkinitramfs failed (log: $out/mkinitramfs-optout.log)"
fi
rm -f "$out/initrd-optout.img"

log=$out/console-optout.log
rc=0
boot "$log" "kunwind_early=no" || rc=$?
mods=$(guest "$log" modules | cut -d' ' -f1)
if [ "$rc" = 0 ] && grep -q '^kunwind: early load off (kunwind_early=no)' "$log" &&
   ! grep -q '^kunwind: loaded early' "$log" &&
   [ -n "$mods" ] && [ "$(echo "$mods" | tail -n 1)" != kunwind ]; then
	ok initramfs_optout_cmdline
else
	notok initramfs_optout_cmdline "boot status $rc; want the init-top script's" \
		"\"early load off\" and kunwind not the oldest module; /proc/modules:" \
		"$(echo "$mods" | tr '\n' ' ')" "console: $log"
fi

say "$rel: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }') s"
[ "$failed" = 0 ] || say "$rel: failed; console logs: $out/console.log $out/console-optout.log"
exit "$failed"
