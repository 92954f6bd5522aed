#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run kunwind's KUnit suites (kunit/) on the 6.12 test kernel in QEMU:
#
#	scripts/kunit-run.sh		build, boot, report
#	scripts/kunit-run.sh --build	build only; the last line of stdout is
#					the directory holding kunwind.ko and
#					kunit/*.ko (bench/kernel-bench.sh)
#
# 1. scripts/test-kernel.sh gives the test kernel's build dir (built once,
#    cached in ~/.cache/kunwind).
# 2. The module sources (Kbuild, Kconfig, scripts/kunwind.mk, unwind/,
#    kunit/) are mirrored to $OUT/src, so the tree stays clean, and built
#    there against the test kernel: kunwind.ko with the vmlinux table
#    (KUNWIND_VMLINUX), then kunit/ with every module's table embedded by
#    the one-line opt-in.  kunwind_test_badtable.ko's table is then
#    corrupted (its magic), for the registry suite.
# 3. A busybox initramfs insmods kunwind.ko and kunwind_test.ko (whose
#    suites run at insmod); the helper modules go to /lib/kunwind for the
#    registry suite to insmod/rmmod.  QEMU TCG boots it (-smp 2).
# 4. Only kunwind_test's KTAP (the console between "insmod
#    kunwind_test.ko" and the next init line: the built-in empty run prints
#    a KTAP header of its own first) goes to the kernel's own parser,
#    tools/testing/kunit/kunit.py parse --json.  One line a case:
#	ok kunit_<suite>.<case>[.<param>]	not ok ... (with its diagnostics)
#    and, from the console: no panic/oops/WARN/BUG, the corrupt table
#    refused with exactly one message, QEMU and the init script clean.
#
# Exit status 0 iff every line is "ok" and at least one case ran.
# Environment: KUNWIND_KUNIT_OUT (default build/kunit), KUNWIND_KUNIT_TIMEOUT
# (QEMU, seconds, default 600), KUNWIND_JOBS (make -j).  One run at a time
# per output directory (flock).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
out=${KUNWIND_KUNIT_OUT:-$root/build/kunit}
timeout=${KUNWIND_KUNIT_TIMEOUT:-600}
jobs=${KUNWIND_JOBS:-$(nproc)}
build_only=0
[ "${1:-}" = --build ] && build_only=1

say() { echo "# kunit-run: $*"; }
die() { echo "not ok kunit_run: $*"; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

mkdir -p "$out"
exec 8>"$out/lock"
flock 8

t0=$(now)
kdir=$("$here/test-kernel.sh" | tail -n1) || die "no test kernel (scripts/test-kernel.sh failed)"
[ -f "$kdir/vmlinux" ] && [ -f "$kdir/arch/x86/boot/bzImage" ] ||
	die "test kernel build dir $kdir lacks vmlinux or bzImage"
ksrc=$(readlink -f "$kdir/source")
kunitpy=$ksrc/tools/testing/kunit/kunit.py
[ -f "$kunitpy" ] || die "no $kunitpy"

# The host generator, built by the top Makefile.
make -s -C "$root" build/kunwind-gen >&2 || die "make build/kunwind-gen failed"
gen=$root/build/kunwind-gen

# Mirror the sources; keep the build products of the last run (--delete
# does not touch excluded files) so that an unchanged tree rebuilds nothing.
mkdir -p "$out/src"
(cd "$root" && rsync -a --relative --delete \
	--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude='.*.cmd' --exclude='*.kunwind' --exclude='*.a' \
	--exclude='modules.order' --exclude='Module.symvers' \
	--exclude='vmlinux-info.h' --exclude='*.tmp' --exclude='.tmp*' \
	./Kbuild ./Kconfig ./scripts/kunwind.mk ./unwind ./kunit \
	$(test -d sample && echo ./sample) "$out/src/") ||
	die "rsync of the sources failed"

log=$out/build.log
: >"$log"
kmake() {
	echo "+ make -C $kdir $*" >>"$log"
	make -C "$kdir" -j"$jobs" KUNWIND_GEN="$gen" "$@" >>"$log" 2>&1
}
if ! kmake M="$out/src" KUNWIND_VMLINUX="$kdir/vmlinux" modules ||
   ! kmake M="$out/src/kunit" \
	KBUILD_EXTRA_SYMBOLS="$out/src/Module.symvers" modules; then
	tail -n 40 "$log" | sed 's/^/# /'
	die "module build failed (log: $log)"
fi
grep -E 'warning:|WARNING:' "$log" | sort -u | sed 's/^/# build: /' || true
t1=$(now)
say "modules built in $(secs "$t0" "$t1") s (log: $log)"

if [ "$build_only" = 1 ]; then
	echo "$out/src"
	exit 0
fi

# The bad table: the copy's .kunwind magic becomes "BAD!".
mkdir -p "$out/bad"
python3 - "$out/src/kunit/kunwind_test_badtable.ko" \
	"$out/bad/kunwind_test_badtable.ko" <<'EOF' || die "could not corrupt the bad table"
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', data, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
def sec(i):
    return struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
strtab = sec(shstrndx)
for i in range(shnum):
    s = sec(i)
    name = data[strtab[4] + s[0]:].split(b'\0', 1)[0]
    if name == b'.kunwind':
        data[s[4]:s[4] + 4] = b'BAD!'
        open(sys.argv[2], 'wb').write(data)
        sys.exit(0)
sys.exit('no .kunwind section in ' + sys.argv[1])
EOF

"$here/mkinitramfs.sh" "$out/initramfs.cpio.gz" \
	"$out/src/kunwind.ko" "$out/src/kunit/kunwind_test.ko" \
	"$out/src/kunit/kunwind_test_helper.ko:/lib/kunwind/kunwind_test_helper.ko" \
	"$out/bad/kunwind_test_badtable.ko:/lib/kunwind/kunwind_test_badtable.ko" \
	>&2 || die "mkinitramfs failed"

console=$out/console.log
set +e
"$here/qemu-run.sh" --kernel "$kdir/arch/x86/boot/bzImage" \
	--initrd "$out/initramfs.cpio.gz" --append "kunit.enable=1" \
	--timeout "$timeout" --log "$console" >/dev/null 2>"$out/qemu.err"
qrc=$?
set -e
t2=$(now)
say "QEMU boot and tests in $(secs "$t1" "$t2") s, exit $qrc (console: $console)"

python3 - "$console" "$kunitpy" "$out" "$qrc" <<'EOF'
import json, os, re, subprocess, sys

console, kunitpy, out, qrc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
lines = open(console, errors='replace').read().splitlines()
results = []		# (ok, name, diagnostics)

def report(ok, name, diag=()):
    results.append((ok, name, list(diag)))

# kunwind_test's part of the console: after its insmod, up to the next
# line of the init script.
start = next((i for i, l in enumerate(lines)
              if l.startswith('kunwind-init: insmod kunwind_test.ko')), None)
if start is None:
    part = []
else:
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].startswith('kunwind-init:')), len(lines))
    part = lines[start + 1:end]
ktap = os.path.join(out, 'ktap.log')
with open(ktap, 'w') as f:
    f.write('\n'.join(part) + '\n')

jpath = os.path.join(out, 'kunit.json')
if os.path.exists(jpath):
    os.unlink(jpath)
p = subprocess.run([sys.executable, kunitpy, 'parse', '--json=' + jpath, ktap],
                   capture_output=True, text=True)
with open(os.path.join(out, 'kunit-parse.txt'), 'w') as f:
    f.write(p.stdout + p.stderr)

# Diagnostics of each result line, by name: the lines since the previous
# result line at any level.
diag, buf = {}, []
res_re = re.compile(r'^\s*(not )?ok \d+ (\S+)')
for l in part:
    l = re.sub(r'^\[\s*\d+\.\d+\]\s?', '', l)
    m = res_re.match(l)
    if m:
        diag[m.group(2)] = buf[-40:]
        buf = []
    elif l.strip():
        buf.append(l.strip())

def walk(group, prefix):
    for c in group.get('test_cases', []):
        name = prefix + c['name']
        report(c['status'] in ('PASS', 'SKIP'), name,
               diag.get(c['name'], []) if c['status'] not in ('PASS', 'SKIP') else [])
    for g in group.get('sub_groups', []):
        walk(g, prefix + g['name'] + '.')

ncases = 0
if os.path.exists(jpath):
    root = json.load(open(jpath))
    walk(root, '')
    ncases = len(results)
    # In the order the cases ran: a case's first result line in the KTAP.
    order = {}
    for i, l in enumerate(part):
        m = res_re.match(re.sub(r'^\[\s*\d+\.\d+\]\s?', '', l))
        if m:
            order.setdefault(m.group(2), i)
    results.sort(key=lambda r: min(order.get(x, 1 << 30)
                                   for x in r[1].split('.')[1:]))
if ncases == 0:
    report(False, 'cases_ran',
           ['kunit.py parse found no case in ' + ktap] + (p.stdout + p.stderr).splitlines()[-10:])

# The console as a whole.
bad_re = re.compile(r'Kernel panic|BUG:|Oops|WARNING:|general protection fault|'
                    r'Call Trace:|RIP: 0010|\] kunwind: ')
# kunwind.ko is silent on the test kernel (vmlinux table, get_stack_info()
# found) but for the one refusal checked below and the taint notice;
# anything else it says (KUNWIND_WARN_ONCE, a degraded start) fails.
expected_re = re.compile(r'\] kunwind: (kunwind_test_badtable: table refused|'
                         r'loading out-of-tree module taints kernel)')
bad = [l for l in lines if bad_re.search(l) and not expected_re.search(l)]
report(not bad, 'console_no_panic_oops_warning_or_kunwind_message', bad[:20])
refused = [l for l in lines if 'table refused' in l]
want = [l for l in refused if 'kunwind_test_badtable' in l and 'bad magic' in l]
report(len(want) == 1 and len(refused) == 1, 'console_bad_table_refused_with_one_message',
       ['expected one "kunwind_test_badtable: table refused: bad magic", got:'] + refused)
timeouts = {124: 'QEMU timed out', 2: 'kernel panic or init status != 0'}
report(qrc == 0, 'qemu_and_init_exit_clean',
       ['qemu-run.sh exit %d: %s' % (qrc, timeouts.get(qrc, 'QEMU failed'))] +
       [l for l in lines if l.startswith('kunwind-init:')][-5:])

failed = 0
for ok, name, d in results:
    print('%s kunit_%s' % ('ok' if ok else 'not ok', name))
    if not ok:
        failed += 1
        for l in d:
            print('#   ' + l)
print('# kunit: %d cases from KTAP, %d checks failed' % (ncases, failed))
sys.exit(1 if failed else 0)
EOF
