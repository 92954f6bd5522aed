#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kunwind-guestprof (prof/guestprof/) against the guest's own
profiler, QEMU's own memory translation and bad input, in QEMU.

    tests/guestprof_check.py [--alone] [compare] [oracle] [memory] [bad]

(oracle and bad in one process, memory in another, at once, after
compare; --alone: the cases named, in this process, one after the other.)

compare  scripts/guestprof-run.py compare on the test kernel (6.12,
         KASLR, 5-level paging) and on each KUNWIND_GUESTPROF_STOCK kernel
         (default "6.1": Debian's, with its -dbg vmlinux; the module
         layout before 6.4, no pcpu_hot): over the same 15 s round,
         kunwind.ko's profiler in the guest and kunwind-guestprof from
         the host.  Whole stacks (both sides' stacks cut before a
         maskable interrupt's entry, cut_at_irq()): each root-first prefix
         of the folded stacks, at every depth, with PREFIX_MIN_SHARE % or
         more of either side's samples, has the same share on both sides
         within PREFIX_Z binomial standard errors of the difference plus
         PREFIX_TCG points, with PREFIX_MIN_SAMPLES samples a side (the
         sample counts, the prefixes per depth and the worst prefix are
         printed; a round with fewer samples, on a loaded host, is
         profiled once more).  Who
         walked: the host's steps all by the guest's tables (none by the
         vmlinux table built on the host, none by no table row), the
         guest's kunwind/stats over the round: table steps and 0 ORC
         fallback steps (per reason).  Also: the top 5 leaf functions
         within 5 points; the host's walks end at the end of their stack
         but for a few (at most 1 %: the guest stopped where no interrupt
         lands, in a context switch or on the entry stack with a user sp:
         the walk stops as ORC does there); every frame is named; the
         flame graph is written.
oracle   the walker against gdb's own backtrace (DWARF call frame
         information of vmlinux and the modules, tests/guestprof_mem.py
         KUNWIND_GP_MODE=bt) at ORACLE_STOPS random stops of a test-kernel
         guest with nokaslr running a syscall loop and the work kthread:
         every frame gdb unwinds by DWARF is kunwind's at the same depth;
         at least ORACLE_MIN_WALKS kernel walks and ORACLE_MIN_UNWOUND
         frames compared past frame 0; kunwind's frames past gdb's end
         counted, with why gdb ended; every step by the guest's tables.
memory   a live guest with a syscall loop, stopped 20 times: every page
         of every vCPU's stacks, the text at each kernel rip and the
         tables' first pages read from the RAM file through kunwind's page
         walk equal what QEMU's gdbstub reads at the same addresses through
         its own MMU code, and the walk over either memory is the same;
         with 5-level paging and with 4 (no5lvl).
bad      a RAM file that is not the guest's, a gdbstub that is not there,
         another kernel's vmlinux: a message and a non-zero exit, no
         Python traceback, and the guest runs on after each; SIGTERM
         while sampling: the run ends with its output, the guest runs on.

TAP-like lines, "ok NAME" / "not ok NAME"; exit 1 on any failure.
"""
import collections
import math
import os
import re
import subprocess
import sys
import tempfile
import time

import lanes  # tests/lanes.py

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OBJ = os.environ.get('O', 'build')
if not os.path.isabs(OBJ):
    OBJ = os.path.join(TOP, OBJ)
failed = 0
# gdb's backtrace as the oracle (check_oracle): random stops of the
# guest, and at least so many kernel walks compared and frames compared
# past frame 0 (measured: see Documentation/guestprof.rst)
ORACLE_STOPS = 40
ORACLE_MIN_WALKS = 40
ORACLE_MIN_UNWOUND = 300
# Whole stacks (compare_prefixes): the prefixes compared, and the
# tolerance of their shares' difference in standard errors
PREFIX_MIN_SHARE = 1.0
PREFIX_Z = 4.5
PREFIX_MIN_SAMPLES = 1000	# each side (15 s at 199 Hz on 2 vCPUs: 5970)
# Under TCG the host's stops land preferentially on instructions QEMU
# emulates slowly (MMIO, MSR and TLB flushes, IPIs' waits), the guest's
# timer never (it fires between translation blocks): an allowance in
# points on top of the sampling error
PREFIX_TCG = 1.0

LOAD = '''#!/bin/sh
# tests/guestprof_check.py memory: syscalls, page faults, exec
i=0
while :; do
	cat /proc/self/stat >/dev/null
	ls /sys/kernel >/dev/null
	i=$((i + 1))
	[ $((i % 20)) = 0 ] && echo "guestprof-check: alive $i"
done
'''


def say(ok, name, why=''):
    global failed
    print(('ok ' if ok else 'not ok ') + name, flush=True)
    if not ok:
        failed += 1
        for line in str(why).splitlines()[-40:]:
            print('#   ' + line)


def note(msg):
    for line in msg.splitlines():
        print('# ' + line)


def clean(out):
    return 'Traceback' not in out and 'Python Exception' not in out


def folded_stacks(path):
    """{(frame, ...) outermost first: samples} of a folded file."""
    c = collections.Counter()
    for line in open(path, encoding='latin-1'):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        stack, _, n = line.rpartition(' ')
        c[tuple(stack.split(';'))] += int(n)
    return c


def is_irq_entry(frame):
    """A maskable interrupt's entry (idtentry's asm_sysvec_*, or
    asm_common_interrupt): taken only with interrupts on."""
    return frame.startswith('asm_sysvec_') or frame == 'asm_common_interrupt'


def cut_at_irq(stacks):
    """The stacks cut before their first maskable interrupt's entry, and
    how many samples were cut.  The guest's profiler is such an
    interrupt: where another runs it samples when that one returns, in
    the context it interrupted; the host stops inside it.  Both sides are
    cut alike."""
    out, cut = collections.Counter(), 0
    for st, n in stacks.items():
        k = next((i for i, f in enumerate(st) if is_irq_entry(f)), None)
        if k is not None and k > 0:
            st, cut = st[:k], cut + n
        out[st] += n
    return out, cut


def prefix_counts(stacks):
    """{root-first prefix of any depth: samples whose stack begins so}."""
    p = collections.Counter()
    for st, n in stacks.items():
        for k in range(1, len(st) + 1):
            p[st[:k]] += n
    return p


def compare_prefixes(guest, host):
    """Each path prefix's share of the guest's and of the host's samples,
    at every depth, for the prefixes with PREFIX_MIN_SHARE or more on
    either side: (rows, worst) with rows [(prefix, guest %, host %,
    difference in points, tolerance in points)], the tolerance
    PREFIX_Z binomial standard errors of the difference (pooled share p:
    sqrt(p (1 - p) (1/n_guest + 1/n_host))) plus PREFIX_TCG points."""
    ng, nh = sum(guest.values()), sum(host.values())
    pg, ph = prefix_counts(guest), prefix_counts(host)
    rows = []
    for pre in set(pg) | set(ph):
        a, b = pg[pre] / ng, ph[pre] / nh
        if max(a, b) * 100 < PREFIX_MIN_SHARE:
            continue
        p = (pg[pre] + ph[pre]) / (ng + nh)
        se = math.sqrt(p * (1 - p) * (1 / ng + 1 / nh))
        rows.append((pre, 100 * a, 100 * b, 100 * abs(a - b),
                     100 * PREFIX_Z * se + PREFIX_TCG))
    rows.sort(key=lambda r: (len(r[0]), r[0]))
    worst = max(rows, key=lambda r: r[3] / r[4]) if rows else None
    return rows, worst


def check_compare(kernel):
    sfx = kernel.replace('.', '_')
    out = os.path.join(OBJ, 'guestprof', kernel, 'compare')
    for attempt in (1, 2):
        r = subprocess.run([os.path.join(TOP, 'scripts/guestprof-run.py'),
                            'compare', '--seconds', '15', kernel, out],
                           capture_output=True, text=True)
        m = re.search(r'guest samples=(\d+) host samples=(\d+)', r.stdout)
        if r.returncode or not m or attempt == 2 or \
                min(int(m.group(1)), int(m.group(2))) >= PREFIX_MIN_SAMPLES:
            break
        # The sample rates fall with the host's load (both profilers'
        # and the guest's clock run on its CPUs), not with kunwind.
        note('%s: guest %s and host %s samples, fewer than %d: a loaded '
             'host; once more' % (kernel, m.group(1), m.group(2),
                                  PREFIX_MIN_SAMPLES))
    say(r.returncode == 0, 'guestprof_compare_%s_ran' % sfx,
        r.stderr[-3000:] + r.stdout[-2000:])
    if r.returncode:
        return
    leaves = re.findall(r'^guestprof-run: leaf (\S+) guest=([\d.]+)% '
                        r'host=([\d.]+)% diff=([\d.]+)$', r.stdout, re.M)
    bad = [lf for lf in leaves if float(lf[3]) > 5.0]
    say(len(leaves) >= 5 and not bad,
        'guestprof_compare_%s_top5_leaves_within_5_points' % sfx,
        r.stdout)
    note('\n'.join('%-44s guest %6s%% host %6s%%' % lf[:3] for lf in leaves))
    # Whole stacks: every root-first prefix's share, at every depth.
    # The guest's profiler is an interrupt: where interrupts are off it
    # samples where they come back on, in the same context (the deeper
    # prefixes move, not the roots).
    g, gcut = cut_at_irq(folded_stacks(os.path.join(out, 'guest.folded')))
    h, hcut = cut_at_irq(folded_stacks(os.path.join(out, 'host.folded')))
    note('cut at a maskable interrupt\'s entry: guest %d samples, host %d'
         % (gcut, hcut))
    rows, worst = compare_prefixes(g, h)
    bad = [r for r in rows if r[3] > r[4]]
    depth = collections.Counter(len(r[0]) for r in rows)
    note('whole stacks: %d guest samples, %d host samples; %d prefixes '
         'with >= %.1f%% on either side compared (per depth %s), '
         'tolerance %.1f standard errors + %.1f points' % (
             sum(g.values()), sum(h.values()), len(rows), PREFIX_MIN_SHARE,
             ' '.join('%d:%d' % kv for kv in sorted(depth.items())),
             PREFIX_Z, PREFIX_TCG))
    if worst:
        note('worst: %.2f points (tolerance %.2f) guest %.2f%% host %.2f%% '
             'depth %d: %s' % (worst[3], worst[4], worst[1], worst[2],
                               len(worst[0]), ';'.join(worst[0])))
    say(min(sum(g.values()), sum(h.values())) >= PREFIX_MIN_SAMPLES and
        len(rows) >= 10 and max(depth) >= 8 and not bad,
        'guestprof_compare_%s_whole_stack_prefixes_within_tolerance' % sfx,
        '\n'.join('%.2f points (tolerance %.2f) guest %.2f%% host %.2f%%: '
                  '%s' % (r[3], r[4], r[1], r[2], ';'.join(r[0]))
                  for r in bad[:20]) or 'compared: %d prefixes, deepest %d'
        % (len(rows), max(depth) if depth else 0) + '; samples: guest %d '
        'host %d (want %d each)' % (sum(g.values()), sum(h.values()),
                                    PREFIX_MIN_SAMPLES))
    # Who walked, on each side.
    hs = re.search(r'^guestprof-run: host steps: (\d+) by the guest\'s '
                   r'tables; by a fallback: (\d+) by the vmlinux table '
                   r'built on the host .*?, (\d+) by no table row.*$',
                   r.stdout, re.M)
    note(hs.group(0) if hs else 'no host steps line')
    say(hs is not None and int(hs.group(1)) > 0 and hs.group(2) == '0' and
        hs.group(3) == '0', 'guestprof_compare_%s_host_steps_by_guest_'
        'tables_only' % sfx, hs.group(0) if hs else r.stdout[-2000:])
    gs = re.search(r'^guestprof-run: guest steps: walks=(\d+) '
                   r'table_steps=(\d+) orc_fallback_steps=(\d+).*$',
                   r.stdout, re.M)
    note(gs.group(0) if gs else 'no guest steps line')
    tables = re.findall(r'^guestprof-run: guest table .*$', r.stdout, re.M)
    note('\n'.join(tables))
    say(gs is not None and int(gs.group(2)) > 0 and gs.group(3) == '0',
        'guestprof_compare_%s_guest_steps_by_tables_only' % sfx,
        '\n'.join([gs.group(0)] + tables) if gs else r.stdout[-2000:])
    m = re.search(r'ticks=(\d+) samples=(\d+) incomplete=(\d+)', r.stdout)
    ticks, samples, incomplete = (int(v) for v in m.groups()) if m else \
        (0, 0, 0)
    say(samples > 0 and incomplete * 100 <= samples,
        'guestprof_compare_%s_walks_complete' % sfx,
        'samples %d, %d walks did not reach the end of the stack' %
        (samples, incomplete))
    m = re.search(r'guest samples=(\d+) host samples=(\d+) '
                  r'per-sample=(\d+)us', r.stdout)
    note(m.group(0) if m else 'no samples line')
    folded = os.path.join(out, 'host.folded')
    unnamed = [line for line in open(folded)
               if re.search(r'(^|;)0x[0-9a-f]+( |;)', line)]
    say(os.path.getsize(folded) > 0 and not unnamed,
        'guestprof_compare_%s_frames_named' % sfx, ''.join(unnamed[:10]))
    stopped = [line for line in open(folded) if line.startswith('[stopped')]
    note('incomplete host stacks:\n' + ''.join(stopped[:8]))
    html = os.path.join(out, 'host.html')
    say(os.path.exists(html) and os.path.getsize(html) > 10000 and
        '"name"' in open(html).read(), 'guestprof_compare_%s_flamegraph'
        % sfx, html)


def boot_live(kernel, out, append=None):
    with tempfile.NamedTemporaryFile('w', suffix='.sh', delete=False) as f:
        f.write(LOAD)
    cmd = [os.path.join(TOP, 'tests/harness/gdb-boot.sh'), '--ram', '--mem',
           '512M', '--workload', f.name, '--out', out]
    if append:
        cmd += ['--append', append]
    r = subprocess.run(cmd + ['live', kernel], capture_output=True,
                       text=True)
    os.unlink(f.name)
    info = dict(line.split(' ', 1) for line in r.stdout.splitlines()
                if ' ' in line)
    return r, info


def stop(out):
    subprocess.run([os.path.join(TOP, 'tests/harness/gdb-boot.sh'), '--stop', out],
                   capture_output=True)


def gdb_run(vmlinux, commands, env=None, timeout=300):
    cmd = ['gdb', '-batch', '-nx', '-iex', 'set auto-load python-scripts off',
           '-ex', 'set pagination off', '-ex', 'set python print-stack full',
           '-ex', 'source ' + os.path.join(TOP, 'gdb/kunwind-gdb.py')]
    for c in commands:
        cmd += ['-ex', c]
    cmd.append(vmlinux)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout,
                           env=dict(os.environ, **(env or {})))
    except subprocess.TimeoutExpired as e:
        return -1, '%s\ngdb did not end in %d s' % (
            (e.stdout or b'').decode(errors='replace') if isinstance(
                e.stdout, bytes) else e.stdout or '', timeout)
    return r.returncode, r.stdout + r.stderr


def check_memory():
    for levels, append in ((5, None), (4, 'no5lvl')):
        name = 'guestprof_memory_%dlevel' % levels
        out = os.path.join(OBJ, 'guestprof', 'test', 'mem%d' % levels)
        r, info = boot_live('test', out, append)
        say(r.returncode == 0, name + '_boot', r.stderr[-2000:])
        if r.returncode:
            continue
        try:
            rc, o = gdb_run(info['vmlinux'], [
                'source ' + os.path.join(TOP, 'tests/guestprof_mem.py')],
                env={'KUNWIND_GP_SOCK': info['gdb'],
                     'KUNWIND_GP_RAM': info['ram'],
                     'KUNWIND_GP_ROUNDS': '20'})
        finally:
            stop(out)
        m = re.search(r'guestprof-mem: pages=(\d+) equal=(\d+) '
                      r'both_unreadable=(\d+) differ=(\d+) walks=(\d+) '
                      r'walks_equal=(\d+) walks_differ=(\d+) frames=(\d+)', o)
        lv = re.search(r'guestprof-mem: root 0x[0-9a-f]+ levels (\d)', o)
        v = [int(x) for x in m.groups()] if m else [0] * 8
        note(m.group(0) if m else o[-2000:])
        say(rc == 0 and clean(o) and lv is not None and
            int(lv.group(1)) == levels,
            name + '_paging_mode', o[-2000:])
        say(m is not None and v[1] > 100 and v[3] == 0,
            name + '_ram_reads_equal_qemu_reads', o[-3000:])
        say(m is not None and v[4] > 0 and v[6] == 0 and v[7] > v[4],
            name + '_walks_equal_over_either_memory', o[-3000:])


def check_oracle():
    """kunwind-guestprof's walker against gdb's own backtrace (DWARF
    call frame information of vmlinux) at random stops of a guest with
    nokaslr (gdb's vmlinux is not relocated): tests/guestprof_mem.py,
    KUNWIND_GP_MODE=bt."""
    out = os.path.join(OBJ, 'guestprof', 'test', 'oracle')
    r, info = boot_live('test', out, 'nokaslr')
    say(r.returncode == 0, 'guestprof_oracle_boot', r.stderr[-2000:])
    if r.returncode:
        return
    try:
        rc, o = gdb_run(info['vmlinux'], [
            'source ' + os.path.join(TOP, 'tests/guestprof_mem.py')],
            timeout=900, env={'KUNWIND_GP_MODE': 'bt', 'KUNWIND_GP_SOCK': info['gdb'],
                 'KUNWIND_GP_RAM': info['ram'],
                 'KUNWIND_GP_MONITOR': info['monitor'],
                 'KUNWIND_GP_KOS': 'kunwind_sample=%s kunwind=%s' % (
                     info['sample_ko'], info['kunwind_ko']),
                 'KUNWIND_GP_STOPS': str(ORACLE_STOPS)})
    finally:
        stop(out)
    with open(os.path.join(out, 'oracle.log'), 'w') as f:
        f.write(o)
    m = re.search(r'guestprof-bt: stops=(\d+) user=(\d+) kernel_walks=(\d+) '
                  r'compared_frames=(\d+) differ=(\d+) gdb_complete=(\d+) '
                  r'beyond=(\d+) beyond_walks=(\d+) steps_guest=(\d+) '
                  r'steps_host=(\d+) steps_none=(\d+)', o)
    say(rc == 0 and clean(o) and m is not None, 'guestprof_oracle_ran',
        o[-3000:])
    if not m:
        return
    v = dict(zip(('stops', 'user', 'walks', 'compared', 'differ',
                  'complete', 'beyond', 'beyond_walks', 'guest', 'host',
                  'none'), (int(x) for x in m.groups())))
    note('\n'.join(re.findall(r'^guestprof-bt: \d+ stops, random seed.*$',
                              o, re.M)))
    note(m.group(0))
    note('\n'.join(re.findall(r'^guestprof-bt: kunwind walked past.*$', o,
                              re.M)))
    deep = [int(x) for x in re.findall(
        r'^guestprof-bt: stop \d+ cpu \d+ .* (\d+) trusted', o, re.M)]
    note('walks by gdb frames compared: ' + ' '.join(
        '%d:%d' % kv for kv in sorted(collections.Counter(deep).items())))
    # Where gdb gives a frame, kunwind gives the same: every one.
    say(v['differ'] == 0, 'guestprof_oracle_frames_equal_gdb_bt',
        '\n'.join(line for line in o.splitlines()
                  if 'DIFFER' in line or line.startswith('guestprof-bt:   #')
                  )[-3000:])
    # Enough of it: stops, walks, and frames past frame 0 (frame 0 is the
    # register, no unwinding).
    past0 = sum(d - 1 for d in deep)
    say(v['stops'] >= ORACLE_STOPS and v['walks'] >= ORACLE_MIN_WALKS and
        past0 >= ORACLE_MIN_UNWOUND,
        'guestprof_oracle_enough_compared',
        'stops %d (want %d), kernel walks %d (want %d), frames compared '
        'past frame 0 %d (want %d)' % (v['stops'], ORACLE_STOPS, v['walks'],
                                       ORACLE_MIN_WALKS, past0,
                                       ORACLE_MIN_UNWOUND))
    note('frames compared past frame 0: %d; walks gdb completed (its last '
         'trusted frame kunwind\'s last): %d of %d; kunwind frames past '
         'gdb\'s end: %d in %d walks' % (past0, v['complete'], v['walks'],
                                         v['beyond'], v['beyond_walks']))
    # Who walked: the guest registered every table, no step is anyone
    # else's.
    note('steps: %d by the guest\'s tables, %d by the host-built vmlinux '
         'table, %d by no table row' % (v['guest'], v['host'], v['none']))
    say(v['guest'] > 0 and v['host'] == 0 and v['none'] == 0,
        'guestprof_oracle_steps_by_guest_tables_only',
        'steps by host table %d, by no table %d' % (v['host'], v['none']))


def alive(console):
    """Does the guest's loop print another heartbeat within 30 s?"""
    def beats():
        return open(console).read().count('guestprof-check: alive')
    seen = beats()
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if beats() > seen:
            return True
        time.sleep(0.2)
    return False


def check_bad():
    out = os.path.join(OBJ, 'guestprof', 'test', 'bad')
    r, info = boot_live('test', out)
    say(r.returncode == 0, 'guestprof_bad_boot', r.stderr[-2000:])
    if r.returncode:
        return
    prof = os.path.join(TOP, 'scripts/kunwind-guestprof')
    tmp = tempfile.mkdtemp(prefix='guestprof-bad-')
    junk = os.path.join(tmp, 'junk.ram')
    with open(junk, 'wb') as f:
        f.write(os.urandom(1 << 20) * 64)
    cases = [
        ('not_the_guests_ram', [info['vmlinux'], '--gdbstub', info['gdb'],
                                '--ram', junk, '-d', '1'],
         "no vCPU's page tables map this vmlinux"),
        ('no_ram_file', [info['vmlinux'], '--gdbstub', info['gdb'],
                         '--ram', os.path.join(tmp, 'none'), '-d', '1'],
         'cannot map the guest RAM file'),
        ('no_gdbstub', [info['vmlinux'], '--gdbstub',
                        os.path.join(tmp, 'none.sock'), '--ram', info['ram'],
                        '-d', '1'], 'cannot connect to the gdbstub'),
    ]
    # Debian 6.1's -dbg vmlinux (the compare case fetched it once)
    other = subprocess.run([os.path.join(TOP, 'tests/harness/stock-vmlinux.sh'),
                            '6.1'], capture_output=True, text=True).stdout
    other = other.strip().splitlines()[-1] if other.strip() else ''
    say(os.path.exists(other), 'guestprof_bad_another_vmlinux_found', other)
    if os.path.exists(other):
        cases.append(('another_kernels_vmlinux', [
            other, '--gdbstub', info['gdb'], '--ram', info['ram'], '-d', '1'],
            "no vCPU's page tables map this vmlinux"))
    try:
        for name, args, want in cases:
            r = subprocess.run([prof] + args + ['-o', os.path.join(
                tmp, 'out.folded')], capture_output=True, text=True,
                timeout=300)
            o = r.stdout + r.stderr
            say(r.returncode != 0 and want in o and clean(o),
                'guestprof_bad_%s_is_a_message' % name, o[-2000:])
            note(next((line for line in o.splitlines() if want in line),
                      o[-300:]))
            # It detached: the guest runs on, its loop says so.
            say(alive(info['console']),
                'guestprof_bad_%s_leaves_the_guest_running' % name)
        # Killed (SIGTERM) while sampling: it detaches, writes what it
        # has and the guest runs on.
        folded = os.path.join(tmp, 'term.folded')
        p = subprocess.Popen([prof, info['vmlinux'], '--gdbstub',
                              info['gdb'], '--ram', info['ram'], '-d', '120',
                              '-o', folded], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        o = ''
        for line in p.stdout:
            o += line
            if 'vCPUs, KASLR slide' in line:
                time.sleep(2)
                p.terminate()
        p.wait()
        say('signal 15: stopped, the guest resumed' in o and clean(o) and
            os.path.exists(folded) and os.path.getsize(folded) > 0,
            'guestprof_bad_sigterm_ends_the_run', o[-2000:])
        say(alive(info['console']),
            'guestprof_bad_sigterm_leaves_the_guest_running')
        # ... and a good profile right after, detached as well.
        r = subprocess.run([prof, info['vmlinux'], '--gdbstub', info['gdb'],
                            '--ram', info['ram'], '-d', '2', '-o',
                            os.path.join(tmp, 'out.folded')],
                           capture_output=True, text=True, timeout=300)
        say(r.returncode == 0 and 'samples=' in r.stdout,
            'guestprof_bad_then_a_good_profile', r.stdout + r.stderr)
        say(alive(info['console']), 'guestprof_bad_guest_runs_after_detach')
    finally:
        stop(out)
        subprocess.run(['rm', '-rf', tmp])


# The cases after compare, in lanes run at once (tests/lanes.py): their
# guests do not count samples against time, and each has its own
# directory.  compare runs alone: its sample rates fall with the host's
# load.
LANES = (('oracle', 'bad'), ('memory',))


def main():
    args = sys.argv[1:]
    alone = args[:1] == ['--alone']
    what = args[alone:] or ['compare', 'oracle', 'memory', 'bad']
    if 'compare' in what:
        for kernel in ['test'] + os.environ.get('KUNWIND_GUESTPROF_STOCK',
                                                '6.1').split():
            check_compare(kernel)
    if not alone:
        me = [sys.executable, os.path.abspath(__file__), '--alone']
        bad = lanes.run('guestprof', [
            (me + [c for c in lane if c in what], {}) for lane in LANES
            if any(c in what for c in lane)])
        return 1 if failed or bad else 0
    if 'oracle' in what:
        check_oracle()
    if 'memory' in what:
        check_memory()
    if 'bad' in what:
        check_bad()
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
