#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare kunwind-gen's rows for one file with readelf's frames-interp.

usage: readelf_cmp.py FILE [--frame eh_frame|debug_frame] [--gen PATH]
                      [--max-report N] [--name NAME]

Without --frame, every frame section of FILE that holds FDEs is compared
(readelf runs once for both), with one ok / not ok line each.

readelf (binutils) interprets the CFI independently of this project; its
rows are mapped to what `kunwind-gen dump` must print for them:

  readelf CFA   rsp+N / rbp+N   -> the same text
                exp             -> exp:plt, exp:signal, *(rbp+N) (with rbp
                                   exp and ra c-8: a realigned stack) or
                                   unsupported
                other register  -> unsupported (r10, r13: realigned stacks)
  readelf rbp   u, s, absent    -> u (unchanged);   c+N / c-N -> the same
                anything else   -> the row is unsupported (also c+0 and
                                   offsets beyond 16 bits: the format's)
  readelf ra    c-8             -> c-8;   u, absent -> u (end of stack)
                anything else   -> the row is unsupported

readelf's own habits, handled here: an FDE whose instructions are all
nops prints no rows (its row is the CIE's initial row, printed under the
CIE); a row may be printed twice for one address (DW_CFA_advance_loc 0:
the later one holds); "u" is both "undefined" and "no rule".  In an
ET_REL file readelf does not say which text section an FDE belongs to:
that comes from the relocation of the FDE's pc_begin in `readelf -rW`
(section of the symbol, offset Sym.Value + Addend), and readelf's pc
values, relocated or not, are shifted onto it.

arm64 (AArch64 files, by readelf -h): the CFA is sp+N / x29+N, the
frame pointer column is x29; ra u -> u or x30 (readelf prints "u" both
for undefined, the dump's u, end of stack, and for no rule, the dump's
x30, still in x30: readelf cannot tell them apart, tests/arm64.test
checks the ends of stack it knows), c-N -> the same where it is x29's c-M
plus 8 (a frame record at least 16 bytes below the CFA), else the row is
unsupported.

Checks: every readelf row (not unsupported) has the same rule in the
dump over all its bytes; unsupported rows are unsupported (or exp:*) in
the dump; every dump byte lies inside some FDE; dump rows name the text
section that holds them.  Prints the counts, the first mismatches with
both sides, and one "ok" / "not ok" line.  Exit status 1 on "not ok".
"""

import argparse
import bisect
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CmpError(Exception):
    pass


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors='replace')
    if p.returncode != 0:
        raise CmpError('%s exited %d: %s' % (' '.join(cmd), p.returncode,
                                             p.stderr.strip()[:500]))
    return p.stdout


# --- readelf -h -S: file type and sections -------------------------------

SEC_RE = re.compile(r'^\s*\[\s*(\d+)\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+'
                    r'([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+(\S*)\s+\d')


class Section:
    def __init__(self, idx, name, addr, size, flags):
        self.idx, self.name, self.addr, self.size = idx, name, addr, size
        self.execinstr = 'X' in flags


# The architectures: the CFA's registers and the frame pointer's column.
ARCHES = {
    'X86-64': ('rsp|rbp', 'rbp'),
    'AArch64': ('sp|x29', 'x29'),
}
ARCH = {'cfa_re': None, 'fp': 'rbp', 'arm64': False}


def read_headers(path):
    out = run(['readelf', '-W', '-h', '-S', path])
    m = re.search(r'^\s*Type:\s+(\w+)', out, re.M)
    if not m:
        raise CmpError('readelf -h: no ELF type')
    etype = m.group(1)
    m = re.search(r'^\s*Machine:\s+Advanced Micro Devices (X86-64)|'
                  r'^\s*Machine:\s+(AArch64)', out, re.M)
    if not m:
        raise CmpError('readelf -h: neither x86-64 nor AArch64')
    regs, fp = ARCHES[m.group(1) or m.group(2)]
    ARCH.update(cfa_re=re.compile(r'(%s)([+-]\d+)$' % regs), fp=fp,
                arm64=bool(m.group(2)))
    secs = {}
    for line in out.splitlines():
        m = SEC_RE.match(line)
        if m and m.group(3) != 'NULL':
            secs[int(m.group(1))] = Section(
                int(m.group(1)), m.group(2), int(m.group(4), 16),
                int(m.group(6), 16), m.group(8))
    return etype, secs


# --- readelf -s -r: the relocations of the frame section (ET_REL) --------

def read_relocs(path, frame_sec, secs):
    """{offset in frame section: (text section name, S + A)}"""
    out = run(['readelf', '-W', '-s', '-r', path])
    syms = {}       # symbol index -> (value, ndx)
    rels = {}
    want = ('.rela' + frame_sec, '.rel' + frame_sec)
    in_syms = in_rel = False
    for line in out.splitlines():
        if line.startswith('Symbol table'):
            in_syms = '.symtab' in line
            in_rel = False
            continue
        if line.startswith('Relocation section'):
            m = re.match(r"Relocation section '([^']+)'", line)
            in_rel = m is not None and m.group(1) in want
            in_syms = False
            continue
        if in_syms:
            f = line.split()
            if len(f) >= 7 and f[0].endswith(':') and f[0][:-1].isdigit():
                ndx = int(f[6]) if f[6].isdigit() else None
                syms[int(f[0][:-1])] = (int(f[1], 16), ndx)
        elif in_rel:
            f = line.split()
            if len(f) < 3 or not re.fullmatch(r'[0-9a-f]+', f[0]):
                continue
            off, info = int(f[0], 16), int(f[1], 16)
            m = re.search(r'([+-]) ([0-9a-f]+)\s*$', line)
            addend = int(m.group(2), 16) if m else 0
            if m and m.group(1) == '-':
                addend = -addend
            rels[off] = (info >> 32, addend)
    res = {}
    for off, (symi, addend) in rels.items():
        if symi not in syms:
            continue
        value, ndx = syms[symi]
        if ndx is None or ndx not in secs:
            continue
        res[off] = (secs[ndx], value + addend)
    return res


# --- readelf --debug-dump=frames-interp ----------------------------------

ENTRY_RE = re.compile(r'^([0-9a-f]{8}) ([0-9a-f]+) ([0-9a-f]+) '
                      r'(CIE|FDE)\b(.*)$')
FDE_RE = re.compile(r'cie=(\S+)\s+pc=(?:[0-9a-f]+:)?([0-9a-f]+)\.\.([0-9a-f]+)')
ROW_RE = re.compile(r'^([0-9a-f]{16}) (.*)$')
TOK_RE = re.compile(r'r\d+ \([^)]*\)|\S+')


class Entry:
    def __init__(self, off, offset_size, kind):
        self.off, self.offset_size, self.kind = off, offset_size, kind
        self.cols = None        # the LOC line's columns (CFA alone: [])
        self.rows = []          # (loc, cfa, {column: value})
        self.cie = None
        self.pc_begin = self.pc_end = 0


def read_frames(path):
    """{frame section name: [Entry]} for every frame section readelf shows.

    Separate debug files are not followed: kunwind-gen reads the file
    itself (and readelf fails on their NOBITS .eh_frame)."""
    out = run(['readelf', '--debug-dump=no-follow-links',
               '--debug-dump=frames-interp', path])
    sections = {}
    entries = None
    cur = None
    for line in out.splitlines():
        if line.startswith('Contents of the '):
            m = re.match(r'Contents of the (\S+) section', line)
            entries = sections.setdefault(m.group(1), []) if m else None
            cur = None
            continue
        if entries is None:
            continue
        if line.endswith(' ZERO terminator'):
            cur = None
            continue
        m = ENTRY_RE.match(line)
        if m:
            cur = Entry(int(m.group(1), 16), len(m.group(3)) // 2,
                        m.group(4))
            if cur.kind == 'FDE':
                f = FDE_RE.search(m.group(5))
                if not f:
                    raise CmpError('unparsed FDE line: ' + line)
                cur.cie = None if f.group(1).startswith('invalid') \
                    else int(f.group(1), 16)
                cur.pc_begin = int(f.group(2), 16)
                cur.pc_end = int(f.group(3), 16)
            entries.append(cur)
            continue
        if cur is None:
            continue
        if line.startswith('   LOC'):
            cur.cols = line.split()[2:]
            continue
        m = ROW_RE.match(line)
        if m and cur.cols is not None:
            toks = TOK_RE.findall(m.group(2))
            if len(toks) != len(cur.cols) + 1:
                raise CmpError('row does not match its header: ' + line)
            cur.rows.append((int(m.group(1), 16), toks[0],
                             dict(zip(cur.cols, toks[1:]))))
    return sections


# --- readelf rows -> the rule the dump must show ------------------------

CFA_RE = re.compile(r'(rsp|rbp)([+-]\d+)$')
OFF_RE = re.compile(r'c([+-]\d+)$')


def expect(cfa, cols):
    """('cmp', 'CFA RBP RA') or ('exp' | 'other', why).

    'other' rows must be unsupported in the dump: CFA on another register,
    rbp or ra kept some other way, or offsets the table format cannot hold
    (CFA offset beyond 32 bits, rbp offset 0 or beyond 16 bits)."""
    rbp = cols.get(ARCH['fp'], 'u')
    ra = cols.get('ra', 'u')
    if cfa == 'exp':
        return 'exp', 'CFA exp, rbp %s, ra %s' % (rbp, ra)
    m = (ARCH['cfa_re'] or CFA_RE).match(cfa)
    if not m:
        return 'other', 'CFA ' + cfa
    if not -2**31 <= int(m.group(2)) < 2**31:
        return 'other', 'CFA offset ' + cfa
    if rbp in ('u', 's'):
        rbp = 'u'
    else:
        m = OFF_RE.match(rbp)
        if not m or not int(m.group(1)) or \
                not -2**15 <= int(m.group(1)) < 2**15:
            return 'other', ARCH['fp'] + ' ' + rbp
    if ARCH['arm64']:
        # the return address in x30, or the frame record's second word
        if ra != 'u' and (rbp == 'u' or int(rbp[1:]) > -16 or
                          ra != 'c%+d' % (int(rbp[1:]) + 8)):
            return 'other', 'ra ' + ra
    elif ra not in ('u', 'c-8'):
        return 'other', 'ra ' + ra
    return 'cmp', '%s %s %s' % (cfa, rbp, ra)


class Interval:
    """One readelf row over [start, end) of text section key."""
    __slots__ = ('key', 'start', 'end', 'kind', 'rule', 'fde', 'cols')

    def __init__(self, key, start, end, kind, rule, fde, cols):
        self.key, self.start, self.end = key, start, end
        self.kind, self.rule, self.fde, self.cols = kind, rule, fde, cols


# --- kunwind-gen dump ------------------------------------------------------

DUMP_RE = re.compile(r'^(\S+) 0x([0-9a-f]+) 0x([0-9a-f]+) (\S+) (\S+) (\S+)$')


def read_dump(gen, path, frame_sec):
    # --no-orc: readelf knows the CFI, not the rows ORC adds (gen/orc.c)
    out = run([gen, 'dump', '--no-orc', '--frame', frame_sec.lstrip('.'),
               path])
    rows = []
    for line in out.splitlines():
        if not line.strip() or line.startswith('#'):
            continue
        m = DUMP_RE.match(line)
        if not m:
            raise CmpError('unparsed dump line: ' + line)
        rows.append((m.group(1), int(m.group(2), 16), int(m.group(3), 16),
                     m.group(4), m.group(5), m.group(6)))
    return rows


# --- the comparison --------------------------------------------------------

class Result:
    def __init__(self, limit, verbose=False):
        self.limit = limit
        self.verbose = verbose
        self.notes = []
        self.mismatches = []
        self.n_mismatch = 0
        self.stats = dict(fdes=0, fdes_cie_row=0, fdes_skipped=0,
                          fdes_empty=0, compared=0, exp=0, other=0,
                          exp_plt=0, exp_signal=0, exp_drap=0, exp_unsupported=0,
                          overlap_bytes=0)

    def bad(self, msg):
        self.n_mismatch += 1
        if len(self.mismatches) < self.limit:
            self.mismatches.append(msg)


def hx(key, a, b=None):
    k = key + ' ' if key else ''
    return '%s0x%x' % (k, a) if b is None else '%s0x%x..0x%x' % (k, a, b)


def fmt_dump(d):
    return '%s 0x%x 0x%x %s %s %s' % d


def fmt_re(iv):
    return 'FDE@0x%x %s %s' % (iv.fde, hx(iv.key, iv.start, iv.end), iv.rule)


def build_intervals(entries, etype, secs, relocs, res):
    cies = {}
    for e in entries:
        if e.kind == 'CIE':
            cies[e.off] = e.rows[-1] if e.rows else None
    text = sorted((s for s in secs.values() if s.execinstr and s.size),
                  key=lambda s: s.addr)
    starts = [s.addr for s in text]
    ivs = []
    fde_ranges = []
    for e in entries:
        if e.kind != 'FDE':
            continue
        res.stats['fdes'] += 1
        if e.pc_end <= e.pc_begin:
            res.stats['fdes_empty'] += 1
            continue
        rows = e.rows
        if not rows:
            # All nops: readelf prints nothing, the CIE's row holds.
            cie = cies.get(e.cie)
            if cie is None:
                raise CmpError('FDE@0x%x: no rows and no CIE row' % e.off)
            rows = [(e.pc_begin, cie[1], cie[2])]
            res.stats['fdes_cie_row'] += 1
        if etype == 'REL':
            field = e.off + (4 if e.offset_size == 4 else 12) + e.offset_size
            rel = relocs.get(field)
            if rel is None:
                raise CmpError('FDE@0x%x: no relocation at 0x%x of the frame'
                               ' section' % (e.off, field))
            sec, val = rel
            shift = val - e.pc_begin
            key = sec.name
            ok = sec.execinstr and val + (e.pc_end - e.pc_begin) <= sec.size
        else:
            shift = 0
            key = ''
            i = bisect.bisect_right(starts, e.pc_begin) - 1
            ok = i >= 0 and e.pc_end <= text[i].addr + text[i].size
        if not ok and etype == 'REL' and not sec.execinstr:
            # code in a data section on purpose (lkdtm's .rodata function,
            # which its EXEC_RODATA test runs to fault): never text, so
            # no row, as kunwind-gen skips it too (fdes_skipped)
            res.stats['fdes_skipped'] += 1
            res.notes.append(
                'skipped: FDE@0x%x %s: on a section that is not text, as '
                'kunwind-gen skips it' % (e.off, hx(key, e.pc_begin + shift,
                                                   e.pc_end + shift)))
            continue
        if not ok:
            res.stats['fdes_skipped'] += 1
            res.bad('FDE@0x%x %s: outside any text section (not compared)'
                    % (e.off, hx(key, e.pc_begin + shift, e.pc_end + shift)))
            continue
        lo, hi = e.pc_begin + shift, e.pc_end + shift
        fde_ranges.append((key, lo, hi))
        for i, (loc, cfa, cols) in enumerate(rows):
            s = max(loc + shift, lo)
            nxt = rows[i + 1][0] + shift if i + 1 < len(rows) else hi
            t = min(nxt, hi)
            if t <= s:
                continue        # printed twice, or past the FDE's end
            kind, rule = expect(cfa, cols)
            ivs.append(Interval(key, s, t, kind, rule, e.off, cols))
    return ivs, fde_ranges


def merge(ranges):
    """Sorted (start, end) list -> union; also the overlapping byte count."""
    out = []
    overlap = 0
    for s, e in sorted(ranges):
        if out and s < out[-1][1]:
            overlap += min(e, out[-1][1]) - s
            out[-1][1] = max(out[-1][1], e)
        elif out and s == out[-1][1]:
            out[-1][1] = e
        else:
            out.append([s, e])
    return out, overlap


def compare(ivs, fde_ranges, dump, etype, secs, res):
    by_key = {}
    for d in dump:
        key = d[0] if etype == 'REL' else ''
        by_key.setdefault(key, []).append(d)
    for rows in by_key.values():
        rows.sort(key=lambda d: d[1])
        for a, b in zip(rows, rows[1:]):
            if b[1] < a[2]:
                res.bad('dump rows overlap: %s | %s'
                        % (fmt_dump(a), fmt_dump(b)))
    starts = {k: [d[1] for d in v] for k, v in by_key.items()}

    # Every readelf row: covered by the dump, with the same rule.
    for iv in sorted(ivs, key=lambda iv: (iv.key, iv.start)):
        rows = by_key.get(iv.key, [])
        st = starts.get(iv.key, [])
        if iv.kind == 'cmp':
            res.stats['compared'] += 1
        else:
            res.stats[iv.kind] += 1
        i = max(bisect.bisect_right(st, iv.start) - 1, 0)
        cur = iv.start
        problem = None
        while i < len(rows) and rows[i][1] < iv.end:
            d = rows[i]
            i += 1
            if d[2] <= cur:
                continue
            if d[1] > cur:
                problem = problem or 'dump has no row for %s' \
                    % hx(iv.key, cur, d[1])
            cur = d[2]
            got = '%s %s %s' % d[3:]
            if ARCH['arm64'] and d[5] == 'x30':
                got = '%s %s u' % d[3:5]	# readelf: "u" (see the top)
            if iv.kind == 'cmp':
                if got != iv.rule:
                    problem = problem or 'dump ' + fmt_dump(d)
            elif iv.kind == 'exp':
                ra = iv.cols.get('ra', 'u')
                if d[3] == 'exp:plt' and ra == 'c-8':
                    res.stats['exp_plt'] += 1
                elif d[3] == 'exp:signal' and ra == 'exp':
                    res.stats['exp_signal'] += 1
                elif re.match(r'\*\(rbp[-+]\d+\)$', d[3]) and \
                        d[4] == '*rbp' and ra == 'c-8' and \
                        iv.cols.get('rbp') == 'exp':
                    # a realigned stack: readelf prints no expression,
                    # libdw.test checks its operations
                    res.stats['exp_drap'] += 1
                elif d[3] == 'unsupported':
                    res.stats['exp_unsupported'] += 1
                else:
                    problem = problem or 'dump ' + fmt_dump(d)
            elif d[3] != 'unsupported':
                problem = problem or 'dump ' + fmt_dump(d)
        if cur < iv.end:
            problem = problem or 'dump has no row for %s' \
                % hx(iv.key, cur, iv.end)
        if res.verbose and iv.kind != 'cmp':
            got = [fmt_dump(d) for d in rows[max(bisect.bisect_right(
                st, iv.start) - 1, 0):i] if d[2] > iv.start]
            res.notes.append('unsupported: readelf %s (%s) | dump %s'
                             % (fmt_re(iv), iv.kind, '; '.join(got)))
        if problem:
            res.bad('readelf %s (%s) | %s' % (fmt_re(iv), iv.kind, problem))

    # Every dump byte: inside some FDE, and in the section the dump names.
    fdes = {}
    for key, lo, hi in fde_ranges:
        fdes.setdefault(key, []).append((lo, hi))
    text = sorted((s for s in secs.values() if s.execinstr),
                  key=lambda s: s.addr)
    tstarts = [s.addr for s in text]
    by_name = {}
    for s in secs.values():
        by_name.setdefault(s.name, []).append(s)
    for key, rows in by_key.items():
        union, overlap = merge(fdes.get(key, []))
        res.stats['overlap_bytes'] += overlap
        us = [u[0] for u in union]
        for d in rows:
            j = max(bisect.bisect_right(us, d[1]) - 1, 0)
            cur = d[1]
            while j < len(union) and union[j][0] < d[2] and cur < d[2]:
                if union[j][1] <= cur:
                    j += 1
                    continue
                if union[j][0] > cur:
                    break
                cur = union[j][1]
                j += 1
            if cur < d[2]:
                res.bad('dump row outside every FDE at %s: %s'
                        % (hx(key, cur), fmt_dump(d)))
            if etype == 'REL':
                cands = by_name.get(d[0], [])
                if len(cands) != 1 or not cands[0].execinstr \
                        or d[2] > cands[0].size:
                    res.bad('dump row not inside a text section %s: %s'
                            % (d[0], fmt_dump(d)))
            else:
                k = bisect.bisect_right(tstarts, d[1]) - 1
                s = text[k] if k >= 0 else None
                if s is None or s.name != d[0] or d[2] > s.addr + s.size:
                    res.bad('dump row in section %s, readelf -S says %s: %s'
                            % (d[0], s.name if s else 'none', fmt_dump(d)))


def compare_section(path, gen, frame_sec, etype, secs, entries, limit,
                    verbose):
    res = Result(limit, verbose)
    relocs = read_relocs(path, frame_sec, secs) if etype == 'REL' else {}
    ivs, fde_ranges = build_intervals(entries, etype, secs, relocs, res)
    dump = read_dump(gen, path, frame_sec)
    compare(ivs, fde_ranges, dump, etype, secs, res)
    if res.stats['compared'] == 0:
        res.bad('no row compared')
    return res


def report(name, res):
    st = res.stats
    print('# %s: %d FDEs (%d with the CIE row only, %d empty, %d skipped), '
          '%d rows compared, %d unsupported (exp %d: plt %d, signal %d, '
          'realigned %d, unsupported %d; other %d), %d FDE bytes overlap, '
          '%d mismatches'
          % (name, st['fdes'], st['fdes_cie_row'], st['fdes_empty'],
             st['fdes_skipped'], st['compared'], st['exp'] + st['other'],
             st['exp'], st['exp_plt'], st['exp_signal'], st['exp_drap'],
             st['exp_unsupported'], st['other'], st['overlap_bytes'],
             res.n_mismatch))
    for m in res.notes:
        print('#   ' + m)
    for m in res.mismatches:
        print('#   ' + m)
    if res.n_mismatch > len(res.mismatches):
        print('#   ... %d more' % (res.n_mismatch - len(res.mismatches)))
    print('%s readelf_rows_match %s'
          % ('not ok' if res.n_mismatch else 'ok', name))
    return res.n_mismatch == 0


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split('\n')[0],
        epilog='Without --frame: every frame section that has FDEs.')
    ap.add_argument('file')
    ap.add_argument('--frame', choices=['eh_frame', 'debug_frame'])
    ap.add_argument('--gen', default=os.environ.get('KUNWIND_GEN'),
                    help='kunwind-gen (default: $O/kunwind-gen, O=build)')
    ap.add_argument('--max-report', type=int, default=20,
                    help='mismatches printed (default 20)')
    ap.add_argument('--name', help='test name (default: the file)')
    ap.add_argument('-v', '--verbose', action='store_true',
                    help='also list the unsupported rows')
    args = ap.parse_args()
    gen = args.gen or os.path.join(TOP, os.environ.get('O', 'build'),
                                   'kunwind-gen')
    name = args.name or args.file
    try:
        etype, secs = read_headers(args.file)
        frames = read_frames(args.file)
    except CmpError as e:
        print('# %s: %s' % (name, e))
        print('not ok readelf_rows_match %s' % name)
        return 1
    names = {s.name for s in secs.values()}
    if args.frame:
        todo = ['.' + args.frame]
    else:
        todo = []
        for sec in ('.eh_frame', '.debug_frame'):
            if sec not in names:
                continue
            if not any(e.kind == 'FDE' for e in frames.get(sec, [])):
                print('# %s: %s holds no FDE, nothing to compare'
                      % (name, sec))
                continue
            todo.append(sec)
        if not todo:
            print('# %s: no FDE in .eh_frame or .debug_frame' % name)
            print('not ok readelf_rows_match %s' % name)
            return 1
    ok = True
    for sec in todo:
        what = '%s %s' % (name, sec)
        try:
            if sec not in names:
                raise CmpError('no %s section' % sec)
            entries = frames.get(sec, [])
            if not any(e.kind == 'FDE' for e in entries):
                raise CmpError('readelf shows no FDE in ' + sec)
            res = compare_section(args.file, gen, sec, etype, secs, entries,
                                  args.max_report, args.verbose)
        except CmpError as e:
            print('# %s: %s' % (what, e))
            print('not ok readelf_rows_match %s' % what)
            ok = False
            continue
        ok = report(what, res) and ok
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
