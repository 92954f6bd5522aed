#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The series' copies of kunwind's sources, kept equal to this tree's.

The kernel series (kernel/patches) adds kunwind's core to lib/kunwind and
its generator to scripts/kunwind/gen: the same files as this tree's
unwind/ and gen/, byte for byte, so that the kernel's unwinder walks with
the walker the module, the host tools and gdb use, not a copy that drifts.

    kernel/copies.py --check     list every copied file that differs from
                                 its source here, exit 1 if one does
    kernel/copies.py --refresh   rewrite those new-file diffs in place

Only new files are copies; the patches' other hunks are written by hand.
"""
import glob
import hashlib
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Kernel path prefix -> this tree's directory.  Files under a prefix that
# exist here are copies; the rest (Makefiles, forwarding includes) are the
# series' own.
MAP = [
    ('lib/kunwind/linux/', 'unwind/linux/'),
    ('lib/kunwind/', 'unwind/'),
    ('scripts/kunwind/gen/', 'gen/'),
]


def source_of(kpath):
    for kpre, pre in MAP:
        if kpath.startswith(kpre):
            rel = pre + kpath[len(kpre):]
            if '/' in kpath[len(kpre):]:
                return None
            p = os.path.join(TOP, rel)
            return rel if os.path.isfile(p) else None
    return None


def blob_id(data):
    return hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest()


def new_file_diff(kpath, data):
    lines = data.decode().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    out = ['diff --git a/%s b/%s' % (kpath, kpath), 'new file mode 100644',
           'index 0000000..%s' % blob_id(data)[:7], '--- /dev/null',
           '+++ b/%s' % kpath, '@@ -0,0 +1,%d @@' % len(lines)]
    out += ['+' + l for l in lines]
    return '\n'.join(out) + '\n'


DIFF = re.compile(r'^diff --git a/(\S+) b/\S+\n', re.M)


def process(patch, refresh):
    text = open(patch).read()
    starts = [m.start() for m in DIFF.finditer(text)]
    if not starts:
        return []
    # The mail's trailer ("-- \n2.39.5\n") follows the last diff.
    trailer = text.rfind('\n-- \n')
    ends = starts[1:] + [trailer + 1 if trailer > starts[-1] else len(text)]
    bad, pieces, last = [], [], 0
    for s, e in zip(starts, ends):
        chunk = text[s:e]
        kpath = DIFF.match(chunk).group(1)
        rel = source_of(kpath)
        if rel is None or 'new file mode' not in chunk.split('@@')[0]:
            continue
        want = new_file_diff(kpath, open(os.path.join(TOP, rel), 'rb').read())
        if chunk != want:
            bad.append('%s: %s differs from %s' %
                       (os.path.basename(patch), kpath, rel))
            pieces += [text[last:s], want]
            last = e
    if refresh and bad:
        pieces.append(text[last:])
        open(patch, 'w').write(''.join(pieces))
    return bad


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ('--check', '--refresh'):
        sys.exit(__doc__)
    refresh = sys.argv[1] == '--refresh'
    bad = []
    for p in sorted(glob.glob(os.path.join(TOP, 'kernel/patches/*.patch'))):
        bad += process(p, refresh)
    for b in bad:
        print(('refreshed ' if refresh else '') + b)
    sys.exit(1 if bad and not refresh else 0)


if __name__ == '__main__':
    main()
