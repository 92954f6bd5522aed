#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The gdb helpers (gdb/kunwind) against the kernel and gdb, in QEMU.

    tests/gdb_check.py dump|fork|bad|live|unwinder   (tests/gdb.test: all)
    tests/gdb_check.py --alone KERNEL... dump|fork|bad|live

The test kernel's cases, the stock kernels' (KUNWIND_GDB_STOCK) and the
unwinder kernel's run at once, each in a process of this script
(tests/lanes.py); --alone: the cases of the kernels named (test,
unwinder, 6.1, ...), here, one after the other.

dump  tests/harness/gdb-boot.sh dump test: the sample's three sleeping kthreads
      print their kernel traces (sched_show_task()), then the sample
      panics; QEMU dumps the guest.  gdb with vmlinux and the dump:
      kunwind-bt PID equals each sleeper's kernel trace frame for frame;
      kunwind-bt -c CPU of the panicking CPU equals panic()'s own trace
      from panic() outwards (the registers were taken in panic's final
      loop); every task's walk (kunwind-bt -a) and every CPU's is complete.
      drgn on the same dump (a second, independent unwinder), with a
      vmlinux without .orc_* (0.0.22 predates 6.4's ORC): the frames it
      gives must be kunwind's; how far it gets is reported.
fork  tests/harness/gdb-boot.sh --fork 6 dump: the kernel dies right after a
      shell forked 6 jobs that cannot run before (SCHED_FIFO 99, CPU 0):
      the tasks forked but never scheduled (saved return address
      ret_from_fork_asm / ret_from_fork, from nm and VMCOREINFO) are
      counted, must be there, and each walks complete, one frame at that
      symbol's first instruction; every task's and CPU's walk complete.
      dump and fork again on each KUNWIND_GDB_STOCK kernel (default 6.1).
bad   on copies of that dump: a corrupt table (its magic), a task with a
      garbage saved stack pointer, kunwind.ko's module renamed (a dump
      without kunwind loaded): each a clear message, no Python traceback;
      without kunwind, vmlinux's table is built on the fly and the walk
      goes as far as vmlinux's frames.
unwinder
      tests/harness/gdb-boot.sh dump unwinder: the dump case on the test
      kernel with kunwind as its own unwinder (kernel/patches), whose
      console traces are kunwind's own walk with the kernel's tables;
      drgn (DWARF .debug_frame of the build's vmlinux) the independent
      oracle.  The helpers must take the kernel's tables from the dump:
      vmlinux's at __start_kunwind_table (nm and KERNELOFFSET), every
      module's at mod->arch.kunwind_table, kunwind.ko's registry (loaded
      too) not read, nothing built on the fly; and walk the same with
      vmlinux's .debug_frame removed and no kunwind-gen at hand.
live  tests/harness/gdb-boot.sh live test: a breakpoint on ksample_report(),
      which the guest calls every 2 s from a write to the sample's trigger
      parameter; where it stops, kunwind-bt equals gdb's own DWARF bt
      (the same pcs, the whole stack down to the entry frame) and the
      in-kernel kunwind walk ksample_report() prints from the same call.

Who walked: kunwind-bt ends each walk with its steps by the target's
tables and by a fallback, per reason (gdb/kunwind/bt.py); every check of
a walk requires every step counted and 0 by a fallback (where the
target's tables cover the code: all but "bad"'s dump without kunwind.ko,
whose every step must be by vmlinux's table built on the fly), and its ok
line prints the counts.

TAP-like lines, "ok NAME" / "not ok NAME"; exit 1 on any failure.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

import lanes  # tests/lanes.py
from gdb_facts import (core_offset, diff, fork_return, kernel_offset,  # noqa: E402
                       kernel_trace, nm_syms, patch)

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYS_PYTHON = '/usr/bin/python3'		# Debian's, with python3-drgn
failed = 0

# The constants generated from C beside libkunwind.so (gdb/gdb.mk), where
# the helpers find them: the walker's stop reasons as kunwind_stop_str()
# names them, never copied here.
LIB_DIR = os.environ.get('KUNWIND_GDB_LIB') or os.path.join(
    TOP, os.environ.get('O', 'build'), 'gdb')
sys.path.insert(0, LIB_DIR)
import kunwind_format as fmt  # noqa: E402

# How kunwind-bt ends a walk (gdb/kunwind/bt.py's walk_end()).
WALK_COMPLETE = 'kunwind: walk complete'
WALK_STOPPED_NO_ROW = 'kunwind: walk stopped: ' + \
    fmt.KUNWIND_STOP_STR[fmt.KUNWIND_STOP_NO_ROW]


def say(ok, name, why=''):
    global failed
    print(('ok ' if ok else 'not ok ') + name)
    if not ok:
        failed += 1
        for line in str(why).splitlines()[:40]:
            print('#   ' + line)


def clean(out):
    """No Python error got through: gdb prints an exception escaping a
    command as "Python Exception <class ...>", a traceback only with
    "set python print-stack full"."""
    return 'Traceback' not in out and 'Python Exception' not in out


def note(msg):
    for line in msg.splitlines():
        print('# ' + line)


def boot(mode, kernel='test', fork=None):
    # 256 MB: a dump of a quarter the size, as good for every check
    r = subprocess.run([os.path.join(TOP, 'tests/harness/gdb-boot.sh'), '--mem',
                        '256M'] + (['--fork', str(fork)] if fork else []) +
                       [mode, kernel], capture_output=True, text=True)
    info = {}
    for line in r.stdout.splitlines():
        p = line.split(None, 1)
        if len(p) == 2:
            info[p[0]] = p[1]
    if r.returncode:
        sys.stdout.write('not ok gdb_boot_%s_%s: tests/harness/gdb-boot.sh %s%s %s '
                         'exited %d\n' % (mode, kernel, '--fork %d ' % fork
                                          if fork else '', mode, kernel,
                                          r.returncode))
        for line in (r.stderr.splitlines() + r.stdout.splitlines())[-20:]:
            print('#   ' + line)
        sys.exit(1)
    return info


def gdb(vmlinux, commands, core=None, remote=None, timeout=300, env=None):
    """Output of a gdb batch run of the helpers' commands (env: more
    environment)."""
    cmd = ['gdb', '-batch', '-nx', '-iex', 'set auto-load python-scripts off',
           '-ex', 'set pagination off', '-ex', 'set width 0',
           '-ex', 'set python print-stack full']
    if core:
        cmd += ['-ex', 'core-file ' + core]
    if remote:
        cmd += ['-ex', 'target remote ' + remote]
    cmd += ['-ex', 'source ' + os.path.join(TOP, 'gdb/kunwind-gdb.py')]
    for c in commands:
        cmd += ['-ex', c]
    cmd.append(vmlinux)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       env=dict(os.environ, **(env or {})))
    return r.stdout + r.stderr


FRAME = re.compile(r'^#(\d+)\s+0x([0-9a-f]+) (\S+(?: \[\S+\])?)( \(exact\))?$')
STEPS = re.compile(r'^\s*kunwind: steps: (\d+) by tables, (\d+) by a fallback '
                   r'\((.*)\)$')


def steps(out):
    """{header: (by tables, by a fallback, {reason: n})} of the walks of
    kunwind-bt output (the line after each walk's last), headers as
    walks()'s."""
    res, cur = {}, None
    for line in out.splitlines():
        m = re.match(r'^(PID \d+|CPU \d+)\b.*:$', line)
        if m:
            cur = m.group(1)
            continue
        m = STEPS.match(line)
        if m and cur:
            res[cur] = parse_steps(m)
            cur = None
    return res


def parse_steps(m):
    reasons = dict((r.rsplit(' ', 1)[0], int(r.rsplit(' ', 1)[1]))
                   for r in m.group(3).split(', '))
    return int(m.group(1)), int(m.group(2)), reasons


def who(st, frames, fly=0):
    """Who walked a walk of len(frames) frames, by its steps line st:
    (every step counted and as many as expected by vmlinux's table built
    on the fly, the others by the target's tables; the words for an ok
    line)."""
    if st is None:
        return False, 'no steps line'
    by, fb, why = st
    ok = by + fb == max(len(frames) - 1, 0) and fb == fly and \
        why.get('vmlinux table built on the fly') == fly and \
        why.get('no table') == 0 and sum(why.values()) == fb
    return ok, '%d steps by tables, %d by a fallback (%s)' % (
        by, fb, ', '.join('%s %d' % kv for kv in why.items()))


def groups_of(out):
    """kunwind-bt -a's groups: [(tasks, [frame names], walk line, steps)]."""
    res = []
    for m in re.finditer(r'^(\d+) tasks?: .*\n((?:  .*\n)*)', out, re.M):
        frames, last, st = [], None, None
        for line in m.group(2).splitlines():
            line = line.strip()
            f = re.match(r'^#\d+\s+(.*)$', line)
            if f:
                frames.append(f.group(1))
            elif STEPS.match(line):
                st = parse_steps(STEPS.match(line))
            else:
                last = line
        res.append((int(m.group(1)), frames, last, st))
    return res


def every_task(out, fly=0):
    """(kunwind-bt -a: every task's walk complete with its steps counted
    as who() wants them, the numbers for the ok line)."""
    gs = groups_of(out)
    ntasks = sum(g[0] for g in gs)
    stopped = [g[2] for g in gs if g[2] != WALK_COMPLETE]
    bad = [g for g in gs if not who(g[3], g[1], fly)[0]]
    by = sum(g[0] * g[3][0] for g in gs if g[3])
    fb = sum(g[0] * g[3][1] for g in gs if g[3])
    ok = ntasks > 10 and not stopped and not bad
    return ok, ntasks, len(gs), stopped, bad, \
        '%d tasks, %d steps by tables, %d by a fallback' % (ntasks, by, fb)


def walks(out):
    """{header: (frames [(ip, 'sym+off/size [mod]')], last line)} of
    kunwind-bt output: 'PID 59 (comm):' or 'CPU 1:' headers."""
    res, cur = {}, None
    for line in out.splitlines():
        m = re.match(r'^(PID \d+|CPU \d+)\b.*:$', line)
        if m:
            cur = m.group(1)
            res[cur] = ([], None)
            continue
        if cur is None:
            continue
        m = FRAME.match(line)
        if m:
            res[cur][0].append((int(m.group(2), 16), m.group(3)))
        elif line.startswith('kunwind: walk'):
            res[cur] = (res[cur][0], line)
            cur = None
    return res


# ---- dump -------------------------------------------------------------------

def sleepers(stacks):
    """{pid: kernel trace} and (panic cpu, panic trace) from stacks.txt."""
    lines = open(stacks).read().splitlines()
    res, panic = {}, None
    for i, line in enumerate(lines):
        m = re.search(r'dump sleeper \d+ pid (\d+) comm \S+ depth \d+ begin',
                      line)
        if m:
            j = next(k for k in range(i, len(lines))
                     if 'Call Trace:' in lines[k])
            res[int(m.group(1))] = kernel_trace(lines[j + 1:])
        m = re.search(r'dump panic cpu (\d+) pid', line)
        if m:
            j = next(k for k in range(i, len(lines))
                     if 'Call Trace:' in lines[k])
            panic = int(m.group(1)), kernel_trace(lines[j + 1:])
    return res, panic


def dump_names(kernel):
    """(prefix, suffix) of a dump case's ok lines: gdb_dump_X (the test
    kernel), gdb_dump_X_6_1, gdb_unwinder_dump_X."""
    if kernel == 'unwinder':
        return 'gdb_unwinder_dump', ''
    return 'gdb_dump', '' if kernel == 'test' else '_' + kernel.replace(
        '.', '_')


def dump_cmds(sl):
    return ['kunwind-tables'] + ['kunwind-bt %d' % p for p in sorted(sl)] + \
        ['kunwind-bt -c %d' % c for c in range(2)] + ['kunwind-bt -a']


def check_dump(info, kernel):
    pre, sfx = dump_names(kernel)
    vml, dump = info['vmlinux'], info['dump']
    sl, panic = sleepers(info['stacks'])
    say(len(sl) == 3 and panic is not None, pre + '_sample_printed' + sfx,
        'stacks.txt has %d sleepers, panic %s' % (len(sl), panic))
    out = gdb(vml, dump_cmds(sl), core=dump)
    say(clean(out), pre + '_no_traceback' + sfx, out[-3000:])
    if kernel == 'unwinder':
        check_kernel_tables(info, out)
    else:
        say(re.search(r"tables, \d+ segments from kunwind.ko's registry",
                      out) is not None and
            re.search(r'KASLR slide 0x[0-9a-f]+', out) is not None,
            pre + '_tables_from_the_registry' + sfx, out[:2000])
    note(re.search(r'KASLR slide .*', out).group(0) if
         re.search(r'KASLR slide .*', out) else 'no slide line')
    w, st = walks(out), steps(out)
    for pid, ktrace in sorted(sl.items()):
        frames, last = w.get('PID %d' % pid, ([], None))
        ours = [s for _, s in frames]
        counted, words = who(st.get('PID %d' % pid), frames)
        say(ours == ktrace and last == WALK_COMPLETE and counted,
            '%s_sleeper_%d_equals_kernel_trace%s: %s' % (pre, pid, sfx,
                                                          words),
            'kunwind-bt (left), sched_show_task() (right); %s; %s\n%s' %
            (last, words, diff(ours, ktrace)))
        note('sleeper %d: %d frames' % (pid, len(ours)))
    if panic:
        cpu, ktrace = panic
        frames, last = w.get('CPU %d' % cpu, ([], None))
        ours = [s for _, s in frames]
        a = next((i for i, s in enumerate(ours) if s.startswith('panic+')),
                 None)
        b = next((i for i, s in enumerate(ktrace) if s.startswith('panic+')),
                 None)
        counted, words = who(st.get('CPU %d' % cpu), frames)
        ok = a is not None and b is not None and ours[a + 1:] == \
            ktrace[b + 1:] and last == WALK_COMPLETE and counted
        say(ok, '%s_panic_cpu_%d_equals_panic_trace%s: %s' % (
            pre, cpu, sfx, words),
            'from panic() outwards: kunwind-bt -c %d (left), the kernel '
            '(right); %s; %s\n%s' % (cpu, last, words, diff(
                ours[a or 0:], ktrace[b or 0:])))
        note('panicking CPU %d: %d frames, %d from panic() on' %
             (cpu, len(ours), len(ours) - (a or 0)))
    check_cpus(w, st, sfx, pre[len('gdb_'):])
    ok, ntasks, ngroups, stopped, bad, words = every_task(out)
    say(ok, '%s_every_task_walk_complete%s: %s' % (pre, sfx, words),
        '%d tasks, %d groups, not complete: %s; steps not as expected: %s'
        % (ntasks, ngroups, stopped[:5], bad[:3]))
    note('kunwind-bt -a: %d tasks in %d groups, %d stopped' %
         (ntasks, ngroups, len(stopped)))
    check_drgn(info, sl, w, pre, sfx)
    return w, sl


def check_kernel_tables(info, out):
    """The unwinder kernel's dump: the helpers took the kernel's own
    tables, vmlinux's at __start_kunwind_table (from nm and VMCOREINFO's
    KERNELOFFSET, not the helpers' measure) and each module's from
    mod->arch.kunwind_table; none built on the fly, and kunwind.ko's
    registry (it is loaded too, with the same tables) not read."""
    syms = nm_syms(info['vmlinux'], ('__start_kunwind_table',
                                     '__stop_kunwind_table'))
    slide = kernel_offset(info['dump'])
    m = re.search(r"^kunwind: vmlinux table from the kernel's "
                  r"\.kunwind_table at (0x[0-9a-f]+) \((\d+) bytes\); (\d+) "
                  r"module tables from mod->arch\.kunwind_table$", out, re.M)
    mods = set(re.findall(r'^kunwind: table of (\S+) at 0x', out, re.M))
    segs = set(re.findall(r'^0x[0-9a-f]+-0x[0-9a-f]+ (\S+) ', out, re.M))
    start = syms.get('__start_kunwind_table', 0) + (slide or 0)
    size = syms.get('__stop_kunwind_table', 0) - \
        syms.get('__start_kunwind_table', 0)
    ok = m is not None and slide is not None and \
        int(m.group(1), 16) == start and int(m.group(2)) == size and \
        int(m.group(3)) == len(mods) and \
        mods >= {'kunwind', 'kunwind_sample'} and segs >= mods | {'vmlinux'} \
        and 'modules without one' not in out and \
        'kunwind.ko is loaded too: its registry holds these same tables, ' \
        'not read' in out and 'kunwind-gen' not in out and \
        "kunwind.ko's registry" not in out
    say(ok, 'gdb_unwinder_dump_tables_from_the_kernel: vmlinux\'s at '
        '__start_kunwind_table %#x, %d bytes; %d module tables (%s); none '
        'built on the fly, kunwind.ko\'s registry not read' % (
            start, size, len(mods), ', '.join(sorted(mods))),
        'want vmlinux\'s at %#x (%d bytes: nm and KERNELOFFSET %s), a table '
        'for kunwind and kunwind_sample, each with segments\n%s' % (
            start, size, '%#x' % slide if slide is not None else 'none',
            '\n'.join(line for line in out.splitlines()
                      if line.startswith(('kunwind:', '0x')))[:3000]))


def check_no_debug_frame(info, sl, w):
    """The unwinder kernel's walks need no debug info for the tables: the
    same walks (sleepers and CPUs) with vmlinux's .debug_frame removed,
    what kunwind-gen builds vmlinux's table from, and no kunwind-gen where
    the helpers look for it (beside the library)."""
    tmp = tempfile.mkdtemp()
    try:
        vml, lib = os.path.join(tmp, 'vmlinux'), os.path.join(tmp, 'gdb')
        r = subprocess.run(['objcopy', '--remove-section=.debug_frame',
                            info['vmlinux'], vml], capture_output=True,
                           text=True)
        if r.returncode:
            say(False, 'gdb_unwinder_dump_walks_without_debug_frame',
                'objcopy: ' + r.stderr)
            return
        os.mkdir(lib)
        for f in ('libkunwind.so', 'kunwind_format.py'):
            os.symlink(os.path.join(LIB_DIR, f), os.path.join(lib, f))
        out = gdb(vml, dump_cmds(sl)[:-1], core=info['dump'],
                  env={'KUNWIND_GDB_LIB': lib})
    finally:
        shutil.rmtree(tmp)
    w2 = walks(out)
    keys = ['PID %d' % p for p in sorted(sl)] + ['CPU %d' % c
                                                  for c in range(2)]
    same = [k for k in keys if k in w and w2.get(k) == w[k] and
            w[k][1] == WALK_COMPLETE]
    ok = clean(out) and same == keys and 'kunwind-gen' not in out and \
        "from the kernel's .kunwind_table" in out
    say(ok, 'gdb_unwinder_dump_walks_without_debug_frame: %d walks, %d '
        'frames, the same without vmlinux\'s .debug_frame and kunwind-gen'
        % (len(same), sum(len(w2[k][0]) for k in same)),
        'walks not the same: %s\n%s' % (
            [k for k in keys if k not in same],
            '\n'.join(line for line in out.splitlines()
                      if line.startswith('kunwind'))[:3000]))


def check_cpus(w, st, sfx, what):
    """Every CPU's walk (kunwind-bt -c) complete, its steps by tables."""
    res = [(c, w.get('CPU %d' % c, ([], None)), st.get('CPU %d' % c))
           for c in range(2)]
    ok = all(wc[1] == WALK_COMPLETE and who(s, wc[0])[0]
             for _, wc, s in res)
    by = sum(s[0] for _, _, s in res if s)
    fb = sum(s[1] for _, _, s in res if s)
    say(ok, 'gdb_%s_every_cpu_walk_complete%s: %d steps by tables, %d by a '
        'fallback' % (what, sfx, by, fb),
        '\n'.join('CPU %d: %s; %s' % (c, wc[1], who(s, wc[0])[1])
                  for c, wc, s in res))


def check_drgn(info, sl, w, pre, sfx):
    """drgn 0.0.22's traces of the sleepers: each frame it gives must be
    kunwind's, in order (inlined frames skipped: kunwind reports physical
    frames)."""
    if not os.path.exists(SYS_PYTHON) or subprocess.run(
            [SYS_PYTHON, '-c', 'import drgn'], capture_output=True).returncode:
        sh = os.path.join(TOP, 'scripts/apt.sh')
        subprocess.run(['bash', '-c', '. %s && apt_need python3-drgn' % sh],
                       capture_output=True)
    tmp = tempfile.mkdtemp()
    try:
        vml = os.path.join(tmp, 'vmlinux')
        # 6.4's ORC (.orc_header) is what 0.0.22 cannot read: without it,
        # drgn takes the DWARF.  An older kernel's ORC it reads.
        secs = subprocess.run(['readelf', '-SW', info['vmlinux']],
                              capture_output=True, text=True).stdout
        if '.orc_header' in secs:
            r = subprocess.run(['objcopy', '--remove-section=.orc_*',
                                info['vmlinux'], vml], capture_output=True,
                               text=True)
        else:
            os.symlink(info['vmlinux'], vml)
            r = subprocess.CompletedProcess([], 0)
        if r.returncode:
            say(False, pre + '_drgn_agrees' + sfx, 'objcopy: ' + r.stderr)
            return
        script = '''
import sys, drgn
from drgn.helpers.linux.pid import find_task
p = drgn.Program()
p.set_core_dump(sys.argv[1])
try:
    p.load_debug_info(sys.argv[2:4])
except drgn.MissingDebugInfoError as e:	# 0.0.22 and 6.4+ modules
    print('note', str(e).replace(chr(10), ' '))
for pid in sys.argv[4:]:
    t = find_task(p, int(pid))
    out = []
    try:
        for f in p.stack_trace(t):
            if f.is_inline:
                continue
            out.append('%x' % f.pc)
    except Exception as e:
        out.append('error:' + str(e).replace(' ', '_'))
    print(pid, ' '.join(out))
'''
        r = subprocess.run([SYS_PYTHON, '-c', script, info['dump'], vml,
                            info['sample_ko']] +
                           [str(p) for p in sorted(sl)],
                           capture_output=True, text=True, timeout=300)
    finally:
        shutil.rmtree(tmp)
    if r.returncode:
        say(False, pre + '_drgn_agrees' + sfx, 'drgn failed:\n' + r.stderr[-2000:])
        return
    bad, got, total = [], 0, 0
    for line in r.stdout.splitlines():
        p = line.split()
        if p[0] == 'note':
            note('drgn: ' + line[5:])
            continue
        pid, pcs = int(p[0]), [x for x in p[1:] if not x.startswith('error:')]
        ours = [ip for ip, _ in w.get('PID %d' % pid, ([], None))[0]]
        total += len(ours)
        for i, pc in enumerate(pcs):
            pc = int(pc, 16)
            if pc == 0:		# drgn's end of a trace it could not follow
                break
            if i >= len(ours) or ours[i] != pc:
                bad.append('pid %d frame %d: drgn %#x, kunwind %s' % (
                    pid, i, pc, '%#x' % ours[i] if i < len(ours) else '-'))
                break
            got += 1
    say(not bad and got > 0, pre + '_drgn_agrees' + sfx, '\n'.join(bad) or
        'drgn gave no frame')
    note('drgn 0.0.22 (vmlinux, without 6.4\'s ORC; the sample .ko): %d of '
         'kunwind\'s %d frames of the sleepers, all equal (0.0.22 finds no '
         '6.4+ module: there it stops at the first module frame)' %
         (got, total))


# ---- fork: tasks forked but never scheduled --------------------------------

FORK_JOBS = 6


def check_fork(info, kernel):
    """A dump of a kernel that died right after a shell forked jobs that
    never ran (tests/harness/gdb-boot.sh --fork): each task whose saved return
    address (at thread.sp, the kernel's inactive_task_frame) is
    ret_from_fork(_asm), found here from nm and VMCOREINFO, must be in the
    dump (or the case proves nothing) and walked complete by kunwind-bt,
    one frame: the first instruction of ret_from_fork(_asm), whose row
    ends the stack, as the kernel's own unwinder walks such a task."""
    sfx = '' if kernel == 'test' else '_' + kernel.replace('.', '_')
    vml, dump = info['vmlinux'], info['dump']
    jobs = [int(x) for x in info.get('forked', '').split()]
    name, link = fork_return(vml)
    slide = kernel_offset(dump)
    if name is None or slide is None:
        say(False, 'gdb_fork_dump_has_unscheduled_tasks' + sfx,
            'nm: %s; VMCOREINFO KERNELOFFSET: %s' % (name, slide))
        return
    fork = link + slide
    script = '''python
import kunwind.tasks as T, kunwind.target as G
off_sp = G.field_offset('struct task_struct', 'thread', 'sp')
off_ret = G.field_offset('struct inactive_task_frame', 'ret_addr')
new = []
for t in T.tasks():
    cpu = t.cpu()
    ret = G.try_u64(G.u64(t.addr + off_sp) + off_ret)
    print('kunwind-test task %d %s %d %#x' % (t.pid, t.comm,
                                              -1 if cpu is None else cpu,
                                              ret or 0))
    if cpu is None and ret == FORK:
        new.append(t.pid)
for pid in new:
    try:
        gdb.execute('kunwind-bt %d' % pid)
    except gdb.error as e:	# its message, the other walks go on
        print('PID %d: kunwind-bt failed: %s' % (pid, e))
end
kunwind-bt -c 0
kunwind-bt -c 1
kunwind-bt -a
'''.replace('FORK', '%#x' % fork)
    with tempfile.NamedTemporaryFile('w', suffix='.gdb', delete=False) as f:
        f.write(script)
    try:
        out = gdb(vml, ['source ' + f.name], core=dump)
    finally:
        os.unlink(f.name)
    tasks = re.findall(r'^kunwind-test task (\d+) (\S*) (-?\d+) '
                       r'(0x[0-9a-f]+)$', out, re.M)
    new = [int(pid) for pid, _, cpu, ret in tasks
           if cpu == '-1' and int(ret, 16) == fork]
    say(clean(out), 'gdb_fork_no_traceback' + sfx, out[-3000:])
    say(len(new) > 0,
        'gdb_fork_dump_has_unscheduled_tasks%s: %d tasks forked but never '
        'scheduled, %d of the shell\'s %d jobs' % (
            sfx, len(new), len([p for p in new if p in jobs]), len(jobs)),
        '%d tasks in the dump, none returns to %s (%#x) from its saved '
        'frame\n%s' % (len(tasks), name, fork, out[-2000:]))
    note('fork: %d tasks forked but never scheduled: %s' % (
        len(new), ' '.join(str(p) for p in new)))
    w, st = walks(out), steps(out)
    bad, by, fb = [], 0, 0
    for pid in new:
        frames, last = w.get('PID %d' % pid, ([], None))
        counted, words = who(st.get('PID %d' % pid), frames)
        by += st.get('PID %d' % pid, (0, 0))[0]
        fb += st.get('PID %d' % pid, (0, 0))[1]
        if not (len(frames) == 1 and frames[0][0] == fork and
                frames[0][1].startswith(name + '+0x0/') and
                last == WALK_COMPLETE and counted):
            bad.append('PID %d: %s; %s; %s' % (pid, [s for _, s in frames],
                                               last, words))
    say(new and not bad,
        'gdb_fork_unscheduled_tasks_walk_complete%s: %d walks at %s+0x0, '
        '%d steps by tables, %d by a fallback' % (sfx, len(new), name, by,
                                                  fb),
        '\n'.join(bad) or 'no task to walk')
    check_cpus(w, st, sfx, 'fork')
    ok, ntasks, ngroups, stopped, bad, words = every_task(out)
    say(ok, 'gdb_fork_every_task_walk_complete%s: %s' % (sfx, words),
        '%d tasks, %d groups, not complete: %s; steps not as expected: %s'
        % (ntasks, ngroups, stopped[:5], bad[:3]))


# ---- bad input --------------------------------------------------------------

def check_bad(info, sl):
    vml = info['vmlinux']
    pid = sorted(sl)[1]
    # Where to break things: from the helpers themselves, on the dump.
    out = gdb(vml, ['python import kunwind.registry as R, kunwind.tasks as T,'
                    ' kunwind.modules as M, kunwind.target as G',
                    'python r = R.registry(); '
                    'print("kunwind-test table", [n for n in r.notes '
                    'if "kunwind_sample at" in n][0].split()[-1])',
                    'python t = T.find_task(%d); print("kunwind-test sp", '
                    'hex(t.addr + G.field_offset("struct task_struct", '
                    '"thread", "sp")))' % pid,
                    'python m = M.find("kunwind"); print("kunwind-test name",'
                    ' hex(m.addr + G.field_offset("struct module", "name")))'],
              core=info['dump'])
    addr = dict(re.findall(r'^kunwind-test (\w+) (0x[0-9a-f]+)', out, re.M))
    if len(addr) != 3:
        say(False, 'gdb_bad_input_setup', out[-2000:])
        return
    tmp = tempfile.mkdtemp(dir=os.path.dirname(info['dump']))
    try:
        bad = os.path.join(tmp, 'bad.elf')
        shutil.copyfile(info['dump'], bad)
        patch(bad, int(addr['table'], 16), b'XXXX')
        patch(bad, int(addr['sp'], 16), struct.pack('<Q', 0xdead000000001234))
        out = gdb(vml, ['kunwind-bt %d' % sorted(sl)[0], 'kunwind-bt %d' %
                        pid], core=bad)
        say(clean(out) and re.search(
            r'kunwind: warning: table of kunwind_sample at '
            r'0x[0-9a-f]+ is corrupt: bad magic: its frames are not walked',
            out) is not None and WALK_STOPPED_NO_ROW in out,
            'gdb_bad_input_corrupt_table_is_a_message', out[-2500:])
        say(re.search(r'task %d \(\S+\): saved sp 0xdead000000001234 is not '
                      r'on its stack' % pid, out) is not None,
            'gdb_bad_input_garbage_sp_is_a_message', out[-2500:])
        note('\n'.join(line for line in out.splitlines() if 'kunwind' in line
                       and ('warning' in line or 'saved sp' in line)))
        patch(bad, int(addr['name'], 16), b'xunwind\0')
        out = gdb(vml, ['kunwind-tables', 'kunwind-bt %d' % sorted(sl)[0]],
                  core=bad)
        w = walks(out).get('PID %d' % sorted(sl)[0], ([], None))
        names = [s for _, s in w[0]]
        # every step by the table built on the fly, the reason named; the
        # walk stops at the first module frame (no table, no step)
        counted, words = who(steps(out).get('PID %d' % sorted(sl)[0]), w[0],
                             fly=max(len(w[0]) - 1, 0))
        say(clean(out) and
            'kunwind.ko is not loaded in the target' in out and
            'vmlinux table built from' in out and names[:2] and
            names[0].startswith('__schedule+') and counted and
            w[1] == WALK_STOPPED_NO_ROW,
            'gdb_bad_input_without_kunwind_walks_vmlinux: %s' % words,
            out[-2500:])
    finally:
        shutil.rmtree(tmp)


# ---- live -------------------------------------------------------------------

GDB_BT = re.compile(r'^#(\d+)\s+(?:0x([0-9a-f]+) in )?(\S+)')


def check_live(info):
    vml, ko, sock = info['vmlinux'], info['sample_ko'], info['gdb']
    script = '''python
import kunwind.modules as M, kunwind.target as T, kunwind.registry as R
addr = M.find('kunwind_sample').lookup('ksample_report')
gdb.execute('hbreak *%#x' % addr)
end
continue
kunwind-bt
python
reg = R.registry()
segs = [(start, sec) for start, end, name, sec in reg.segs
        if name == 'kunwind_sample']
text = [s for s, sec in segs if sec == '.text'][0]
other = ' '.join('-s %s %#x' % (sec, s) for s, sec in segs if sec != '.text')
slide = T.slide()
gdb.execute('symbol-file -o %#x VMLINUX' % slide)
# its init text is gone: out of the way of everything
gdb.execute('add-symbol-file KO %#x %s -s .init.text 0xffffffffff000000'
            % (text, other))
end
bt
delete
detach
'''.replace('VMLINUX', vml).replace('KO', ko)
    with tempfile.NamedTemporaryFile('w', suffix='.gdb', delete=False) as f:
        f.write(script)
    try:
        out = gdb(vml, ['source ' + f.name], remote=sock)
    finally:
        os.unlink(f.name)
    say(clean(out) and 'hit Breakpoint 1' in out,
        'gdb_live_breakpoint_in_sample', out[-3000:])
    w = list(walks(out).values())
    frames, last = w[0] if w else ([], None)
    # gdb's bt: physical frames (an inlined caller has no address of its
    # own), down to the last kernel address (then it reads user garbage).
    pcs, entry = [], None
    bt = out.split('kunwind: walk', 1)[-1]	# gdb's bt comes after ours
    for line in bt.splitlines():
        m = GDB_BT.match(line)
        if not m:
            continue
        if m.group(1) == '0':	# stopped at the breakpoint
            bp = re.search(r'breakpoint 1 at 0x([0-9a-f]+)', out)
            pcs.append(int(bp.group(1), 16) if bp else None)
        elif m.group(2):
            pc = int(m.group(2), 16)
            if pc < 0xffff800000000000:
                break
            pcs.append(pc)
            entry = m.group(3)
    ours = [ip for ip, _ in frames]
    st = list(steps(out).values())
    counted, words = who(st[0] if st else None, frames)
    say(ours and ours == pcs and last == WALK_COMPLETE and counted,
        'gdb_live_kunwind_bt_equals_gdb_bt: %s' % words,
        'kunwind-bt %s; %s; pcs: kunwind (left), gdb bt (right)\n%s' % (
            last, words, diff(['%#x' % x for x in ours],
                       ['%#x' % x if x else '-' for x in pcs])))
    note('live: %d frames, gdb bt the same pcs down to %s' % (len(ours),
                                                             entry))
    # The in-kernel walk ksample_report() printed from the call it was
    # stopped in: the first "point 15 kunwind" trace after the stop, which
    # all equal each other (the trigger's path).
    # Complete traces only: the guest may have been stopped, and the
    # console read, while it printed the last one.
    console = open(info['console']).read().splitlines()
    traces = []
    for i, line in enumerate(console):
        if re.search(r'kunwind-sample: point \d+ kunwind$', line):
            j = i + 1
            if j < len(console) and 'kunwind: Call Trace' in console[j] \
                    and any(re.search(r'^(\[\s*\d+\.\d+\])?\s*</TASK>', l)
                            for l in console[j + 1:j + 64]):
                traces.append(kernel_trace(console[j + 1:]))
    names = [s for _, s in frames]
    ok = traces and all(t == traces[-1] for t in traces) and \
        names[1:] == traces[-1][1:] and traces[-1][0].startswith(
            'ksample_report+') and names[0].startswith('ksample_report+0x0/')
    say(bool(ok), 'gdb_live_kunwind_bt_equals_in_kernel_walk',
        '%d in-kernel traces; kunwind-bt (left), the kernel\'s kunwind walk '
        '(right)\n%s' % (len(traces), diff(names, traces[-1] if traces
                                           else [])))


def main():
    """The test kernel's cases in one lane, the stock kernels' in
    another, at once (tests/lanes.py; each kernel's boots have their own
    directory and lock); --alone KERNEL...: those kernels' cases here."""
    args = sys.argv[1:]
    stock = os.environ.get('KUNWIND_GDB_STOCK', '6.1').split()
    if args[:1] != ['--alone']:
        what = args or ['dump', 'fork', 'bad', 'live', 'unwinder']
        me = [sys.executable, os.path.abspath(__file__), '--alone']
        cases = [a for a in what if a != 'unwinder']
        runs = [(me + ['test'] + cases, {})] if cases else []
        if cases and stock:
            runs.append((me + stock + cases, {}))
        if 'unwinder' in what:
            runs.append((me + ['unwinder', 'dump'], {}))
        bad = lanes.run('gdb', runs)
        return 1 if bad else 0
    cases = ('dump', 'fork', 'bad', 'live')
    kernels = [a for a in args[1:] if a not in cases]
    what = [a for a in args[1:] if a in cases]
    odd = [k for k in kernels
           if not re.match(r'^(test|unwinder|\d+\.\d+\S*)$', k)]
    if odd or not kernels or not what:
        sys.exit('usage: %s --alone KERNEL... %s... (not %s)' % (
            sys.argv[0], '|'.join(cases), ' '.join(odd) or 'that'))
    for kernel in kernels:
        test = kernel == 'test'
        if 'dump' in what or (test and 'bad' in what):
            info = boot('dump', kernel)
            w, sl = check_dump(info, kernel)
            if kernel == 'unwinder':
                check_no_debug_frame(info, sl, w)
            if test and 'bad' in what:
                check_bad(info, sl)
        if 'fork' in what:
            check_fork(boot('dump', kernel, fork=FORK_JOBS), kernel)
        if test and 'live' in what:
            info = boot('live')
            try:
                check_live(info)
            finally:
                subprocess.run([os.path.join(TOP,
                                             'tests/harness/gdb-boot.sh'),
                                '--stop', os.path.dirname(info['gdb'])],
                               capture_output=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
