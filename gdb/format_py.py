#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""unwind/format.h -> Python: every "#define KUNWIND_NAME <literal>".

    format_py.py unwind/format.h > kunwind_format.py

The header promises plain literals (numbers and strings) for exactly this
reader; anything else is an error, so Python and C cannot drift apart
silently.  The Makefile runs it into the build directory, next to
libkunwind.so, where gdb/kunwind finds both.
"""
import re
import sys

DEFINE = re.compile(r'^#define\s+(KUNWIND_\w+)\s+(.*?)\s*(?:/\*.*)?$')
LITERAL = re.compile(r'^(0x[0-9a-fA-F]+|\d+)u?$|^"[^"\\]*"$')


def main():
    out = ['# Generated from %s by gdb/format_py.py: do not edit.' % sys.argv[1]]
    n = 0
    for line in open(sys.argv[1]):
        m = DEFINE.match(line)
        if not m:
            continue
        name, val = m.groups()
        if not val or name.startswith('_'):
            continue		# include guards, KUNWIND_FORMAT_DEFINES_ONLY
        if not LITERAL.match(val):
            if re.fullmatch(r'KUNWIND_\w+', val):
                out.append('%s = %s' % (name, val))	# an alias
                n += 1
                continue
            sys.exit('%s: %s is not a literal: %r' % (sys.argv[1], name, val))
        out.append('%s = %s' % (name, val.rstrip('u')))
        n += 1
    if not n:
        sys.exit('%s: no KUNWIND_ defines' % sys.argv[1])
    print('\n'.join(out))


if __name__ == '__main__':
    main()
