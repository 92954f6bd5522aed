# SPDX-License-Identifier: GPL-2.0
"""kunwind-tables and kunwind-lookup: what the walker has to walk with."""
import gdb

from . import lib, registry, target
from .utils import guarded, symbolize


class KunwindTables(gdb.Command):
    """List the kunwind tables found in the target and where they run.

Usage: kunwind-tables

One line per segment: run-time start and end, the table's owner (vmlinux
or a module) and the section.  Then how the tables were found: the
kernel's own (its .kunwind_table and each module's mod->arch.kunwind_table,
where the kernel's unwinder is kunwind), kunwind.ko's registry, or
vmlinux's table built on the fly from the vmlinux gdb loaded when the
target has none (kunwind.ko not loaded, or built without it), and the
KASLR slide."""

    def __init__(self):
        super().__init__('kunwind-tables', gdb.COMMAND_STATUS)

    @guarded
    def invoke(self, arg, from_tty):
        if arg.strip():
            raise gdb.GdbError('usage: kunwind-tables')
        reg = registry.registry()
        for start, end, name, sec in sorted(reg.segs):
            print('%#018x-%#018x %-24s %s' % (start, end, name, sec))
        for note in reg.notes:
            print('kunwind: ' + note)
        print('kunwind: KASLR slide %#x' % target.slide())


class KunwindLookup(gdb.Command):
    """Show the unwind rule kunwind has for an address.

Usage: kunwind-lookup ADDRESS

ADDRESS is a run-time address (an expression gdb evaluates).  Prints its
symbol, the segment holding it and the rule, in kunwind-gen dump's
notation (Documentation/gen.rst): the CFA, where the caller's rbp is and
where the return address is.  Exactly ADDRESS is looked up: for a return
address, ask for ADDRESS - 1, as a walk does."""

    def __init__(self):
        super().__init__('kunwind-lookup', gdb.COMMAND_DATA)

    @guarded
    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError('usage: kunwind-lookup ADDRESS')
        try:
            addr = int(gdb.parse_and_eval(arg)) & (1 << 64) - 1
        except gdb.error as e:
            raise gdb.GdbError('kunwind-lookup: %s' % e)
        reg = registry.registry()
        r = reg.walker.find_rule(addr)
        f = lib.Frame(addr, 0, True)
        if r is None:
            print('%#x %s: no kunwind table covers it' % (addr,
                                                          symbolize(f)))
            return
        owner = reg.walker.tables[r[5]][0] if r[5] >= 0 else '?'
        print('%#x %s: %s, segment at %#x: %s' % (
            addr, symbolize(f), owner, r[4], lib.rule_str(r)))


KunwindTables()
KunwindLookup()
