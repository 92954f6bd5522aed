#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the rows kunwind-gen takes from an object's ORC with objtool's.

    orc_cmp.py GEN OBJTOOL FILE NAME

`kunwind-gen dump --only-orc FILE` gives the rows gen/orc.c makes of the
object's .orc_unwind; `objtool --dump=orc FILE` (the kernel's own reader,
the objtool of the kernel FILE was built for: the layout changed in 6.3)
gives the entries.  Every entry covers its address up to the next one in
its section (the last: up to the section's end).  An entry the table can
say must be covered there by dump rows of exactly its rule, in the dump's
notation; any other (undefined, the DRAP registers, another BP_INDIRECT,
a call marked signal, a register frame not marked signal) must leave a
gap.

    call  sp:spN / sp:bpN / sp:(sp)N    rsp+N / rbp+N / *rsp+N, RA c-8
          bp:(und)                      rbp u
          bp:prevspM                    rbp c+M (M != 0)
          bp:bpM with sp:bpN            rbp c+(M-N)
    call  sp:(bpN) bp:bp+0              *(rbp+N) *rbp c-8 (realigned)
    regs  sp:spN / sp:bpN, bp:(und), signal 1       regs:rsp+N regs regs
    regs (partial) ..., signal 1                    iret:rsp+N u regs
    end                                             u u u

objtool before 6.3 prints "ADDR: sp:.. bp:.. type:call|regs|iret end:E"
(register frames are always signal frames there, and an undefined sp with
end set is the end of the stack); from 6.3 "ADDR:type:.. sp:.. bp:..
signal:S".  Prints "ok orc_rows_match_objtool NAME" or "not ok ..." with
the first differences, and a summary line.
"""
import bisect
import re
import subprocess
import sys


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env={'SRCARCH': 'x86', 'PATH': '/usr/bin:/bin'})
    if r.returncode:
        sys.exit('%s failed (%d): %s' % (' '.join(cmd), r.returncode,
                                         r.stderr[-2000:]))
    return r.stdout


def sections(path):
    """Executable sections: name -> (addr, size)."""
    out = run(['readelf', '-SW', path])
    secs = {}
    for line in out.splitlines():
        m = re.match(r'\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+'
                     r'\s+([0-9a-f]+)\s+[0-9a-f]+\s+(\S*)', line)
        if m and 'X' in m.group(4):
            secs[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
    return secs


def num(s):
    return int(s, 0)


def expected(f):
    """The dump's rule for objtool's fields f, or None for a gap."""
    typ, sp, bp, sig = f['type'], f['sp'], f['bp'], f['signal']
    if typ == 'end':
        return 'u u u'
    m = re.fullmatch(r'\(bp([-+]\d+)\)', sp)
    if m:
        if typ != 'call' or sig or bp != 'bp+0':
            return None
        return '*(rbp%+d) *rbp c-8' % num(m.group(1))
    m = re.fullmatch(r'(sp|bp|\(sp\))([-+]\d+)', sp)
    if not m or typ not in ('call', 'regs', 'regs (partial)'):
        return None
    base, off = m.group(1), num(m.group(2))
    if typ == 'call':
        if sig:
            return None
        cfa = {'sp': 'rsp', 'bp': 'rbp', '(sp)': '*rsp'}[base] + '%+d' % off
        if bp == '(und)':
            return cfa + ' u c-8'
        m = re.fullmatch(r'prevsp([-+]\d+)', bp)
        if m and num(m.group(1)):
            return cfa + ' c%+d c-8' % num(m.group(1))
        m = re.fullmatch(r'bp([-+]\d+)', bp)
        if m and base == 'bp' and num(m.group(1)) != off:
            return cfa + ' c%+d c-8' % (num(m.group(1)) - off)
        return None
    if not sig or bp != '(und)' or base == '(sp)':
        return None
    reg = 'rsp' if base == 'sp' else 'rbp'
    if typ == 'regs':
        return 'regs:%s%+d regs regs' % (reg, off)
    return 'iret:%s%+d u regs' % (reg, off)


OLD = re.compile(r'^(\S+): sp:(\S+) bp:(\S+) type:(\S+) end:(\d)$')
NEW = re.compile(r'^([^:]+):type:(.+?) sp:(\S+) bp:(\S+) signal:(\d)$')


def entries(objtool, path, secs):
    """[(section, offset, rule or None)] in table order."""
    out = []
    for line in run([objtool, '--dump=orc', path]).splitlines():
        m = NEW.match(line)
        if m:
            at, f = m.group(1), {'type': m.group(2), 'sp': m.group(3),
                                 'bp': m.group(4),
                                 'signal': m.group(5) == '1'}
            if f['type'] == '(und)':
                f['type'] = 'undefined'
        else:
            m = OLD.match(line)
            if not m:
                sys.exit('objtool: unexpected line: %r' % line)
            at, sp, bp, typ, end = m.groups()
            if sp == '(und)':
                typ = 'end' if end == '1' else 'undefined'
            f = {'type': {'iret': 'regs (partial)'}.get(typ, typ),
                 'sp': sp, 'bp': bp, 'signal': typ in ('regs', 'iret')}
        if '+' in at and not at[0].isdigit():
            sec, off = at.rsplit('+', 1)
            off = int(off, 16)
        else:			# a linked file: an address
            addr = int(at, 16)
            sec = next((n for n, (a, s) in secs.items()
                        if a <= addr < a + s), None)
            if sec is None:
                continue
            off = addr - secs[sec][0]
        out.append((sec, off, expected(f)))
    return out


def dump_rows(gen, path, secs, linked):
    """section -> sorted [(start, end, rule)], section-relative."""
    rows = {}
    for line in run([gen, 'dump', '--only-orc', path]).splitlines():
        p = line.split(None, 3)
        if len(p) < 4 or not p[1].startswith('0x'):
            continue
        sec, start, end = p[0], int(p[1], 16), int(p[2], 16)
        if linked:
            start -= secs[sec][0]
            end -= secs[sec][0]
        rows.setdefault(sec, []).append((start, end, p[3]))
    for r in rows.values():
        r.sort()
    return rows


def main():
    gen, objtool, path, name = sys.argv[1:5]
    secs = sections(path)
    linked = any(a for a, s in secs.values())
    ents = entries(objtool, path, secs)
    rows = dump_rows(gen, path, secs, linked)
    # Of two entries at one address the kernel takes the later one.
    last = {}
    for i, (sec, off, rule) in enumerate(ents):
        last[(sec, off)] = (i, rule)
    bysec = {}
    for (sec, off), (i, rule) in last.items():
        bysec.setdefault(sec, []).append((off, rule))
    bad, checked, said = [], 0, 0
    for sec, lst in sorted(bysec.items()):
        lst.sort()
        r = rows.get(sec, [])
        starts = [x[0] for x in r]
        alt = sec.startswith('.altinstr_replacement')
        for k, (off, rule) in enumerate(lst):
            end = lst[k + 1][0] if k + 1 < len(lst) else secs[sec][1]
            if off >= end:
                continue
            if alt:
                rule = None	# never run where it lies: not in the table
            checked += 1
            said += rule is not None
            # dump rows meeting [off, end)
            j = max(bisect.bisect_right(starts, off) - 1, 0)
            covered, meet = off, []
            while j < len(r) and r[j][0] < end:
                if r[j][1] > off:
                    meet.append(r[j])
                j += 1
            if rule is None:
                if meet:
                    bad.append('%s+%#x..%#x: ORC says nothing the table can'
                               ' say, dump has %s' % (sec, off, end, meet[0]))
                continue
            ok = True
            for s, e, got in meet:
                if s > covered or got != rule:
                    ok = False
                    break
                covered = max(covered, e)
            if not ok or covered < end:
                bad.append('%s+%#x..%#x: objtool %r, dump %s' %
                           (sec, off, end, rule, meet[:3] or 'nothing'))
    print('# %s: %d ORC entries, %d ranges compared, %d the table says, '
          '%d differences' % (path, len(ents), checked, said, len(bad)))
    if bad or not said:
        print('not ok orc_rows_match_objtool %s' % name)
        for b in bad[:10]:
            print('#   ' + b)
        if not said:
            print('#   no entry the table can say: nothing was compared')
        return 1
    print('ok orc_rows_match_objtool %s' % name)
    return 0


if __name__ == '__main__':
    sys.exit(main())
