#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the stack traces of the same guest script on two kernels.

    tests/unwinder_compare.py ORC-CONSOLE KUNWIND-CONSOLE

The consoles are tests/unwinder-guest.sh's on the ORC kernel and on the
kunwind kernel (same config but the unwinder).  A frame is compared by
symbol and offset; where a function's code differs between the two kernels
(its size differs: code that reads struct module, the unwinder's callers),
by symbol alone, and counted as such.  Prints TAP-like lines, one per
section, and exits 1 if one failed.

  tasks: every task (pid and comm equal on both) has the same frames, in
  order.  A task whose stack is still changing at the quiescent point
  (one on a CPU) is left out only if it is left out on both.
  trigger: the stacktrace trigger's frames of the one exec are equal.
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
        m = re.match(r'unwinder-test: (begin|end) (\w+)$', line)
        if m:
            if m.group(1) == 'begin':
                name, cur = m.group(2), []
            else:
                out[name] = cur
                name, cur = None, None
            continue
        if cur is not None:
            cur.append(line)
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


def fmt(frames):
    return ' '.join('%s+%#x/%#x' % f for f in frames)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    orc, kun = sections(sys.argv[1]), sections(sys.argv[2])
    bad = 0
    for name in ('tasks', 'trigger'):
        if name not in orc or name not in kun:
            print('not ok unwinder_%s: section missing (orc %s, kunwind %s)'
                  % (name, name in orc, name in kun))
            bad += 1
    if bad:
        return 1
    counts = {'exact': 0, 'by_name': 0}
    to, tk = tasks(orc['tasks']), tasks(kun['tasks'])
    common = sorted(set(to) & set(tk))
    diff = [k for k in common if not same(to[k], tk[k], counts)]
    frames = sum(len(to[k]) for k in common)
    if not common or diff or frames == 0:
        print('not ok unwinder_proc_stack_equal: %d of %d tasks differ'
              % (len(diff), len(common)))
        for k in diff[:10]:
            print('#   %d %s\n#     orc:     %s\n#     kunwind: %s'
                  % (k[0], k[1], fmt(to[k]), fmt(tk[k])))
        bad += 1
    else:
        print('ok unwinder_proc_stack_equal')
    print('#   %d tasks on both kernels (%d only on ORC, %d only on kunwind), '
          '%d frames: %d by symbol and offset, %d by symbol (code differs)'
          % (len(common), len(set(to) - set(tk)), len(set(tk) - set(to)),
             frames, counts['exact'], counts['by_name']))
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
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
