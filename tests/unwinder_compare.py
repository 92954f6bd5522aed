#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the stack traces of the same guest script on two kernels.

    tests/unwinder_compare.py [--only-deaths|--only-selftests] ORC-CONSOLE KUNWIND-CONSOLE

The consoles are tests/unwinder-guest.sh's on the ORC kernel and on the
kunwind kernel (same config but the unwinder).  A frame is compared by
symbol and offset; where a function's code differs between the two kernels
(its size differs: code that reads struct module, the unwinder's callers),
by symbol alone, and counted as such.  Prints TAP-like lines, one per
section, and exits 1 if one failed.

  tasks: every task (pid and comm equal on both) has the same frames, in
  order; or it waited elsewhere on the two boots (a kworker running other
  work): the first frame under the scheduler differs by name, and both
  traces end in the same bottom frame; or it ran on one boot when read
  (no frame there: the kernel walks no running task) and the other trace
  is a whole walk.  Those are listed, not failed.
  trigger: the stacktrace trigger's frames of the one exec are equal.
  kprobes: the KUnit kprobes suite passed every case on both kernels,
  the same cases (its stack-trace-on-kretprobe cases among them).
  show: sysrq's show-state, every task (pid and name) on both: the same
  reliable frames (the lines without "? ") and brackets.
  nmi: sysrq's backtrace of every CPU, three times, the other CPU busy
  reading /dev/zero: that CPU's traces, walked inside the NMI handler
  from the interrupted registers, each a whole walk to a stack bottom,
  and the first pair that interrupted the same instruction on both
  kernels equal frame for frame (what the NMI hits may differ); the
  asking CPU's, walked directly, equal.
  sample: kunwind's sample module (sample/points.c): at every point the
  kernel's dump_stack() trace (its reliable frames, brackets) equal on
  both kernels; a point in an interrupt may find another state under
  it, as a crash in one (below).
  tramp: an ftrace instance's function tracer with func_stack_trace on
  LKDTM's lkdtm_debugfs_read(), called through the instance's dynamic
  trampoline: its stack traces equal, and through the module's frame on
  into vmlinux's read path (ksys_read()).
  perf: perf record -g's samples, in order, the same events, the kernel
  part of each callchain equal by symbol and offset (user frames are
  the user's: not compared); no tracer trampoline left in a chain.
  ftracetest: every ftrace selftest listed passed on both kernels.
  livepatch: every livepatch selftest script exited 0 on both kernels,
  every TEST in it "ok", the same tests.
  death-T: LKDTM's crash T, the kernel's report on both: its RIP lines,
  reliable frames and brackets equal.  The "? " lines are the printer's
  scan of the stack, not the unwinder's walk, and are left out.  A crash
  in an interrupt may find another state under the interrupt on each
  boot: then equal up to the interrupt's C entry (common_interrupt(),
  sysvec_*(): by name, its call site depends on the stack the interrupt
  came on), and each a whole walk, ending at a stack bottom (what is
  under the interrupt may be another task on each boot).
"""
import re
import sys

FRAME = re.compile(r'\[<[0-9a-f]+>\] ([\w.]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)')
TRIG = re.compile(r'^ => ([\w.]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)')


def sections(path):
    out, cur, name = {}, None, None
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        line = re.sub(r'^\[\s*\d+\.\d+\] ', '', line)
        # A marker may share its line with a printk the console spliced
        # into it (sysrq's output goes on after the write returns).
        m = re.search(r'unwinder-test: (begin|end) ([\w-]+)', line)
        if m:
            if m.group(1) == 'begin':
                name, cur = m.group(2), []
            else:
                out[name] = cur
                name, cur = None, None
            continue
        if cur is not None:
            cur.append(line)
    if cur is not None:		# a panic ended the boot inside it
        out[name] = cur
    return out


def tasks(lines):
    t, cur = {}, None
    for line in lines:
        m = re.match(r'task (\d+) (.*)$', line)
        if m:
            cur = t.setdefault((int(m.group(1)), m.group(2)), [])
            continue
        f = FRAME.search(line)
        if f and cur is not None:
            cur.append((f.group(1), int(f.group(2), 16), int(f.group(3), 16)))
    return t


def trigger(lines):
    return [(m.group(1), int(m.group(2), 16), int(m.group(3), 16))
            for m in (TRIG.match(l) for l in lines) if m]


# A frame line: "? " for the printer's scan; a symbol with offset and size
# (and a module), or a bare address outside every symbol (generated code,
# a dynamic ftrace trampoline, whose address differs per boot).
REPORT = re.compile(r'^ *(\? )?(?:([\w.]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)'
                    r'(?: \[\w+\])?|0x[0-9a-f]+)$')
BRACKET = re.compile(r'^ *(</?(?:TASK|IRQ|NMI|SOFTIRQ|#DF|#DB|#MC|#VC|ENTRY_TRAMPOLINE|EOI)>)$')
RIP = re.compile(r'^RIP: [0-9a-f]{4}:([\w.]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)')


def report(lines):
    """The kernel's trace in lines: RIP lines, brackets and reliable
    frames, in order; counts the "? " lines apart."""
    out, scanned = [], 0
    for line in lines:
        m = RIP.match(line)
        if m:
            out.append(('RIP ' + m.group(1), int(m.group(2), 16),
                        int(m.group(3), 16)))
            continue
        m = BRACKET.match(line)
        if m:
            out.append((m.group(1), 0, 0))
            continue
        m = REPORT.match(line)
        if not m:
            continue
        if m.group(1):
            scanned += 1
        elif m.group(2):
            out.append((m.group(2), int(m.group(3), 16), int(m.group(4), 16)))
        else:
            out.append(('(generated code)', 0, 0))
    return out, scanned


# The frames a whole kernel stack ends in: a task's entry from user
# mode, a kthread's first frame, an idle task's start.
BOTTOM = re.compile(r'^(entry_SYSCALL_64_after_hwframe|entry_SYSCALL_compat\w*|'
                    r'ret_from_fork_asm|common_startup_64|'
                    r'secondary_startup_64\w*|start_secondary)$')


def last(f):
    """The trace's last frame, not a bracket nor a RIP line, or None."""
    return next((x for x in reversed(f) if not x[0].startswith(('<', 'RIP '))),
                None)


def ends(f):
    """Does the trace end at the bottom of a stack?"""
    return last(f) is not None and bool(BOTTOM.match(last(f)[0]))


IRQ_ENTRY = re.compile(r'^(common_interrupt|spurious_interrupt|sysvec_\w+)$')


def interrupted_elsewhere(a, b, counts):
    """A crash in an interrupt: what the interrupt came on differs between
    two boots.  The interrupt's C entry (common_interrupt(), sysvec_*())
    calls the handler at one of two sites, directly when it came on the
    IRQ stack already, through call_on_irqstack() when it came on a task
    stack: equal up to that frame, which is equal by name, and both
    traces whole walks, each ending at a stack bottom.  The walk through
    the interrupt is then the same; what is under it is another state,
    another task even (a write() on one boot, the idle task on the
    other)."""
    def entry(f):
        return next((i for i, x in enumerate(f) if IRQ_ENTRY.match(x[0])),
                    None)
    i, j = entry(a), entry(b)
    if i is None or i != j or not same(a[:i], b[:j], counts) or \
       a[i][0] != b[j][0]:
        return False
    return ends(a) and ends(b)


def show_tasks(lines):
    t, cur = {}, None
    for line in lines:
        m = re.match(r'task:(\S+)\s+state:.*\bpid:(\d+)', line)
        if m:
            cur = t.setdefault((int(m.group(2)), m.group(1)), [])
            continue
        if cur is not None:
            cur.append(line)
    return {k: report(v)[0] for k, v in t.items()}


def ktap(lines):
    res = {}
    for line in lines:
        m = re.match(r'^\s*(ok|not ok) \d+ (test_\w+)', line)
        if m:
            res[m.group(2)] = m.group(1)
    return res


def same(a, b, counts):
    """Frames a (ORC) and b (kunwind) equal: name, and offset where the
    function's size is the same in both kernels."""
    if len(a) != len(b):
        return False
    for fa, fb in zip(a, b):
        if fa[0] != fb[0]:
            return False
        if fa[2] == fb[2]:
            if fa[1] != fb[1]:
                return False
            counts['exact'] += 1
        else:
            counts['by_name'] += 1
    return True


SCHED = re.compile(r'^(<TASK>|__schedule|schedule\w*|preempt_schedule\w*|'
                   r'io_schedule\w*|__wait_for_common|wait_for_completion\w*)$')


def running(a, b):
    """Was the task running on one boot when its stack was read?  Then
    that side has no frame (the kernel walks no running task), and the
    other must be a whole walk."""
    return (last(a) is None and ends(b)) or (last(b) is None and ends(a))


def elsewhere(a, b):
    """Did the task wait elsewhere on the two boots, which no unwinder
    makes equal: the first frame under the scheduler and the completion
    waits differs by name?
    Then both traces must still end alike (the task's bottom frame), or
    it is a difference after all."""
    def site(f):
        return next((x[0] for x in f if not SCHED.match(x[0])), None)
    return (site(a) != site(b) and last(a) is not None and
            last(a) == last(b))


def compare(ta, tb, counts):
    """Tasks of two boots: (equal, elsewhere, differ) lists of keys."""
    eq, away, diff = [], [], []
    for k in sorted(set(ta) & set(tb)):
        if same(ta[k], tb[k], counts):
            eq.append(k)
        elif elsewhere(ta[k], tb[k]) or running(ta[k], tb[k]):
            away.append(k)
        else:
            diff.append(k)
    return eq, away, diff


def fmt(frames):
    return ' '.join('%s+%#x/%#x' % f for f in frames)


def check_tasks(test, to, tk):
    """Tasks of two boots (pid, name -> frames), compared: the TAP line,
    the counts, the tasks listed; 1 if it failed."""
    counts = {'exact': 0, 'by_name': 0}
    eq, away, diff = compare(to, tk, counts)
    failed = not eq or bool(diff)
    print('%s %s%s' % ('not ok' if failed else 'ok', test,
                       ': %d of %d tasks differ' % (len(diff), len(eq) +
                                                   len(away) + len(diff))
                       if failed else ''))
    report_tasks(to, tk, eq, away, diff, counts)
    return int(failed)


def report_tasks(to, tk, eq, away, diff, counts):
    print('#   %d tasks on both kernels (%d only on ORC, %d only on kunwind): '
          '%d equal, %d frames (%d by symbol and offset, %d by symbol: code '
          'differs); %d waiting elsewhere or running on one boot; %d differ'
          % (len(eq) + len(away) + len(diff), len(set(to) - set(tk)),
             len(set(tk) - set(to)), len(eq), counts['exact'] +
             counts['by_name'], counts['exact'], counts['by_name'], len(away),
             len(diff)))
    for kind, keys in (('elsewhere or running', away), ('differs', diff)):
        for k in keys[:10]:
            print('#   %s: %d %s\n#     orc:     %s\n#     kunwind: %s'
                  % (kind, k[0], k[1], fmt(to[k]), fmt(tk[k])))


def main():
    args = sys.argv[1:]
    only_deaths = args[:1] == ['--only-deaths']
    only_selftests = args[:1] == ['--only-selftests']
    if only_deaths or only_selftests:
        args = args[1:]
    if len(args) != 2:
        sys.exit(__doc__)
    orc, kun = sections(args[0]), sections(args[1])
    if only_selftests:
        return 1 if checks(orc, kun, (('ftracetest', check_ftracetest),
                                      ('livepatch', check_livepatch))) else 0
    if only_deaths:
        deaths = [n for n in set(orc) | set(kun) if n.startswith('death-')]
        if not deaths:
            print('not ok unwinder_death: no crash in %s or %s' % tuple(args))
            return 1
        return 1 if more(orc, kun) else 0
    bad = 0
    for name in ('tasks', 'trigger'):
        if name not in orc or name not in kun:
            print('not ok unwinder_%s: section missing (orc %s, kunwind %s)'
                  % (name, name in orc, name in kun))
            bad += 1
    if bad:
        return 1
    bad += check_tasks('unwinder_proc_stack_equal', tasks(orc['tasks']),
                       tasks(kun['tasks']))
    counts = {'exact': 0, 'by_name': 0}
    a, b = trigger(orc['trigger']), trigger(kun['trigger'])
    if not a or not same(a, b, counts):
        print('not ok unwinder_stacktrace_trigger_equal\n#   orc:     %s\n'
              '#   kunwind: %s' % (fmt(a), fmt(b)))
        bad += 1
    else:
        print('ok unwinder_stacktrace_trigger_equal')
    print('#   %d frames: %d by symbol and offset, %d by symbol'
          % (len(a), counts['exact'], counts['by_name']))
    bad += checks(orc, kun, (('nmi', check_nmi), ('sample', check_sample),
                             ('tramp', check_tramp), ('perf', check_perf)))
    bad += more(orc, kun)
    return 1 if bad else 0


def checks(orc, kun, which):
    """Each (section, check) of which on both consoles: failures."""
    bad = 0
    for name, check in which:
        if name not in orc or name not in kun:
            print('not ok unwinder_%s: section missing (orc %s, kunwind %s)'
                  % (name, name in orc, name in kun))
            bad += 1
        else:
            bad += check(orc[name], kun[name])
    return bad


def nmi_traces(lines):
    """[report()] of each trace sysrq l printed, in order."""
    out, cur = [], None
    for line in lines:
        if re.search(r'NMI backtrace for cpu \d+$', line):
            cur = []
            out.append(cur)
            continue
        if cur is not None:
            cur.append(line)
    return [report(t)[0] for t in out]


def check_tramp(orc, kun):
    """The function tracer's trace through its dynamic trampoline."""
    a, b = trigger(orc), trigger(kun)
    counts = {'exact': 0, 'by_name': 0}
    deep = all(any(f[0] == 'ksys_read' for f in t) for t in (a, b))
    if not deep or not same(a, b, counts):
        print('not ok unwinder_ftrace_trampoline_into_module_equal\n'
              '#   orc:     %s\n#   kunwind: %s' % (fmt(a), fmt(b)))
        return 1
    print('ok unwinder_ftrace_trampoline_into_module_equal')
    print('#   %d frames: %d by symbol and offset, %d by symbol'
          % (len(a), counts['exact'], counts['by_name']))
    return 0


def check_nmi(orc, kun):
    """sysrq l's traces: the asking CPU's, walked directly (its trace
    holds nmi_cpu_backtrace()), equal every time; the other CPU's, walked
    inside the NMI handler from the registers the NMI interrupted (show_
    regs()): at least one on each kernel, each a whole walk to a stack
    bottom, and two that interrupted the same instruction (the same RIP
    line) equal frame for frame."""
    a, b = nmi_traces(orc), nmi_traces(kun)
    counts = {'exact': 0, 'by_name': 0}

    def direct(f):
        return any(x[0] == 'nmi_cpu_backtrace' for x in f)
    da, db = [f for f in a if direct(f)], [f for f in b if direct(f)]
    na = [f for f in a if f and not direct(f)]
    nb = [f for f in b if f and not direct(f)]
    pairs = [(fa, fb) for fa in na for fb in nb if fa[0] == fb[0]]
    bad = not na or not nb or not da or len(da) != len(db) or \
        not all(ends(f) for f in na + nb)
    for fa, fb in pairs[:1] + list(zip(da, db)):
        bad = bad or not same(fa, fb, counts)
    print('%s unwinder_nmi_backtrace%s'
          % ('not ok' if bad else 'ok', ': walked in an NMI orc %d (%d whole),'
             ' kunwind %d (%d whole); direct orc %d, kunwind %d; or they '
             'differ' % (len(na), sum(map(ends, na)), len(nb),
                         sum(map(ends, nb)), len(da), len(db))
             if bad else ''))
    print('#   walked inside the NMI handler, from the interrupted registers '
          'to the task\'s stack bottom: orc %d, kunwind %d (%d frames), %d '
          'at the same instruction on both compared frame for frame; the '
          'asking CPU\'s %d direct traces equal (%d lines by symbol and '
          'offset, %d by symbol)'
          % (len(na), len(nb), sum(len(f) for f in nb), min(len(pairs), 1),
             len(da), counts['exact'], counts['by_name']))
    if bad:
        print('#   orc:     %s\n#   kunwind: %s'
              % (fmt(na[0] if na else []), fmt(nb[0] if nb else [])))
    return int(bad)


SAMPLE_MARK = re.compile(r'kunwind-sample: point (\d+) (begin (\S+)|kunwind|kernel|end)')


def sample_points(lines):
    """{(number, name): the kernel part's lines} of the sample's points."""
    pts, names, cur = {}, {}, None
    for line in lines:
        m = SAMPLE_MARK.search(line)
        if m:
            num = int(m.group(1))
            if m.group(3):
                names[num] = m.group(3)
            cur = pts.setdefault((num, names.get(num, '?')), []) \
                if m.group(2) == 'kernel' else None
            continue
        if cur is not None:
            cur.append(line)
    return pts


def check_sample(orc, kun):
    a, b = sample_points(orc), sample_points(kun)
    bad, lines, counts = [], 0, {'exact': 0, 'by_name': 0}
    notes = []
    for k in sorted(set(a) | set(b)):
        fa, fb = report(a.get(k, []))[0], report(b.get(k, []))[0]
        lines += len(fa)
        if fa and same(fa, fb, counts):
            continue
        if fa and interrupted_elsewhere(fa, fb, counts):
            notes.append(k)
            continue
        bad.append(k)
    ok = len(a) >= 16 and not bad
    print('%s unwinder_sample_dump_stack_equal%s'
          % ('ok' if ok else 'not ok',
             '' if ok else ': %d points (want 16), %d differ' % (len(a), len(bad))))
    print('#   %d points, %d lines (frames, brackets): %d by symbol and offset, '
          '%d by symbol' % (len(a), lines, counts['exact'], counts['by_name']))
    for k in notes:
        print('#   point %d %s: equal through the interrupt, another state '
              'under it' % k)
    for k in bad[:5]:
        print('#   point %d %s differs\n#     orc:     %s\n#     kunwind: %s'
              % (k + (fmt(report(a.get(k, []))[0]), fmt(report(b.get(k, []))[0]))))
    return int(not ok)


PERF_FRAME = re.compile(r'^\s+([0-9a-f]+) (\S+?)(?:\+0x([0-9a-f]+))? \((\S+)\)$')
TRAMPOLINES = {'return_to_handler', 'arch_rethook_trampoline',
               '__kretprobe_trampoline', 'kretprobe_trampoline'}


def perf_samples(lines):
    """[(comm, event, [(sym, off)...] kernel frames)] of perf script."""
    out = []
    for line in lines:
        if not line.strip():
            continue
        m = PERF_FRAME.match(line)
        if m:
            if out and m.group(4).startswith('[') and m.group(4) != '[unknown]':
                out[-1][2].append((m.group(2), int(m.group(3) or '0', 16)))
            continue
        w = line.split()
        ev = [x.rstrip(':') for x in w[1:2] if x.startswith('sched:')]
        if not line[0].isspace() and ev:
            out.append((w[0], ev[0], []))
    return out


def tracer_hits(lines):
    """{"function_graph bprm_execve": hits, ...}: the guest's counts of
    the tracers that rewrote return addresses during perf record."""
    return {' '.join(w[1:3]): int(w[3]) for w in (l.split() for l in lines)
            if len(w) == 4 and w[0] == 'perf-tracer' and w[3].isdigit()}


def check_perf(orc, kun):
    a, b = perf_samples(orc), perf_samples(kun)
    ha, hb = tracer_hits(orc), tracer_hits(kun)
    idle = sorted('%s (%s)' % (k, side) for side, h in (('orc', ha), ('kunwind', hb))
                  for k, v in h.items() if not v)
    frames = sum(len(x[2]) for x in a)
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    tramp = [x for x in a + b for f in x[2] if f[0] in TRAMPOLINES]
    events = sorted(set(x[1] for x in a))
    ok = (len(a) >= 6 and len(a) == len(b) and not diff and not tramp and
          len(ha) == 4 and ha.keys() == hb.keys() and not idle and
          all(x[2] for x in a) and events == ['sched:sched_process_exec',
                                              'sched:sched_process_fork'])
    print('%s unwinder_perf_callchains_equal%s'
          % ('ok' if ok else 'not ok', '' if ok else
             ': orc %d samples, kunwind %d, %d differ, %d with a tracer '
             'trampoline; tracers that never hit: %s'
             % (len(a), len(b), len(diff), len(tramp), ', '.join(idle) or '-')))
    print('#   %d samples (%s), %d kernel frames, equal by symbol and offset'
          % (len(a), ', '.join('%d %s' % (sum(1 for x in a if x[1] == e), e)
                              for e in events), frames))
    print('#   return addresses rewritten meanwhile, hits orc/kunwind: %s'
          % ', '.join('%s %d/%d' % (k, ha[k], hb.get(k, 0)) for k in sorted(ha)))
    for i in diff[:3]:
        print('#   sample %d\n#     orc:     %s\n#     kunwind: %s'
              % (i, a[i], b[i]))
    return int(not ok)


FTRACETEST = re.compile(r'^\[(\d+)\] (.*?)\s*\[(PASS|FAIL|UNRESOLVED|UNTESTED|'
                        r'UNSUPPORTED|XFAIL)\]')


def check_ftracetest(orc, kun):
    def res(lines):
        return {m.group(2): m.group(3)
                for m in (FTRACETEST.match(l) for l in lines) if m}
    a, b = res(orc), res(kun)
    fails = sorted('%s: %s' % (n, v) for r in (a, b) for n, v in r.items()
                   if v != 'PASS')
    ok = a and a.keys() == b.keys() and not fails
    print('%s unwinder_ftrace_selftests%s'
          % ('ok' if ok else 'not ok', '' if ok else
             ': orc %d, kunwind %d; not passed: %s'
             % (len(a), len(b), '; '.join(fails) or '-')))
    print('#   %d passed on both: %s' % (len(a), '; '.join(sorted(a))))
    return int(not ok)


def check_livepatch(orc, kun):
    def res(lines):
        exits, tests = {}, {}
        for l in lines:
            m = re.match(r'^livepatch-exit (\S+) (\d+)$', l)
            if m:
                exits[m.group(1)] = int(m.group(2))
            m = re.match(r'^TEST: (.*) \.\.\. (ok|not ok)$', l)
            if m:
                tests[m.group(1)] = m.group(2)
        return exits, tests
    (ea, ta), (eb, tb) = res(orc), res(kun)
    bad = sorted('%s exit %d' % (n, v) for e in (ea, eb)
                 for n, v in e.items() if v) + \
        sorted('%s: %s' % (n, v) for t in (ta, tb) for n, v in t.items()
               if v != 'ok')
    ok = ea and ea.keys() == eb.keys() and ta.keys() == tb.keys() and \
        len(ta) > 0 and not bad
    print('%s unwinder_livepatch_selftests%s'
          % ('ok' if ok else 'not ok', '' if ok else
             ': orc %d scripts %d tests, kunwind %d scripts %d tests; %s'
             % (len(ea), len(ta), len(eb), len(tb), '; '.join(bad) or '-')))
    print('#   %d scripts, %d tests, each ok on both kernels: %s'
          % (len(ea), len(ta), ' '.join(sorted(ea))))
    return int(not ok)


def more(orc, kun):
    """kprobes, show and the deaths, where the consoles have them."""
    bad = 0
    if 'kprobes' in orc or 'kprobes' in kun:
        a, b = ktap(orc.get('kprobes', [])), ktap(kun.get('kprobes', []))
        fails = sorted(k for k, v in list(a.items()) + list(b.items())
                       if v != 'ok')
        if not a or a.keys() != b.keys() or fails:
            print('not ok unwinder_kunit_kprobes: orc %d cases, kunwind %d, '
                  'failed: %s' % (len(a), len(b), ' '.join(fails) or '-'))
            bad += 1
        else:
            print('ok unwinder_kunit_kprobes')
        print('#   %d cases passed on both: %s' % (len(a), ' '.join(sorted(a))))
    if 'show' in orc or 'show' in kun:
        bad += check_tasks('unwinder_sysrq_show_state_equal',
                           show_tasks(orc.get('show', [])),
                           show_tasks(kun.get('show', [])))
    for name in sorted(set(orc) | set(kun)):
        if not name.startswith('death-'):
            continue
        counts = {'exact': 0, 'by_name': 0}
        (a, sa), (b, sb) = report(orc.get(name, [])), report(kun.get(name, []))
        test = 'unwinder_%s' % name.replace('-', '_').lower()
        if a and same(a, b, counts):
            print('ok %s' % test)
        elif a and interrupted_elsewhere(a, b, counts):
            print('ok %s' % test)
            print('#   equal through the interrupt; it came on another '
                  'state on the two boots:\n#   orc:     %s\n#   kunwind: %s'
                  % (fmt(a), fmt(b)))
        else:
            print('not ok %s\n#   orc:     %s\n#   kunwind: %s'
                  % (test, fmt(a), fmt(b)))
            bad += 1
        print('#   %d lines (frames, brackets, RIP): %d by symbol and offset, '
              '%d by symbol; "? " lines orc %d, kunwind %d'
              % (len(a), counts['exact'], counts['by_name'], sa, sb))
    return bad


if __name__ == '__main__':
    sys.exit(main())
