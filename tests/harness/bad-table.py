#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The registry suite's corrupt table (kunit/badtable.c):

	tests/harness/bad-table.py IN.ko OUT.ko

writes a copy of IN.ko, a 64-bit little-endian ELF module (x86-64 or
arm64), whose .kunwind section's magic is "BAD!": kunwind.ko must refuse
that table with one message and walk the module by its fallback.
Used by tests/harness/kunit-run.sh and tests/harness/arm64-kunit.sh.
"""
import struct
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = bytearray(open(sys.argv[1], 'rb').read())
    if data[:6] != b'\x7fELF\x02\x01':
        sys.exit('%s: not a 64-bit little-endian ELF file' % sys.argv[1])
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
            return 0
    sys.exit('no .kunwind section in ' + sys.argv[1])


if __name__ == '__main__':
    sys.exit(main())
