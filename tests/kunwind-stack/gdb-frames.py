# SPDX-License-Identifier: GPL-2.0
# Print every thread of a core file in kunwind-stack's format:
#   TID n
#   #i 0xPC symbol+0xoff
#   # stop: why
# Run: gdb -batch -nx -ex 'file EXE' -ex 'core CORE' -x gdb-frames.py
#
# Only real frames are printed: gdb's inline frames share their pc with
# the frame that holds them, and its tail-call frames are synthesized from
# DWARF call-site information, not found on the stack; neither exists for
# eu-stack or kunwind.  frame.pc() is the raw return address; the symbol is
# looked up at pc - 1 for frames that were called (so that a call ending a
# function names that function), at pc for the first frame, the signal
# trampoline and the frame a signal interrupted, as eu-stack does.  The
# symbol comes from "info symbol" (ELF symbols, as eu-stack and
# kunwind-stack use), not from DWARF names.
import re
import gdb

gdb.execute("set backtrace past-main on")
gdb.execute("set backtrace past-entry on")
gdb.execute("set backtrace limit 0")

SKIP = (gdb.INLINE_FRAME, gdb.TAILCALL_FRAME)


def symbol(pc, addr):
    """The ELF symbol holding addr, with the offset of pc from it."""
    out = gdb.execute("info symbol 0x%x" % addr, to_string=True)
    m = re.match(r"(\S+)(?: \+ (\d+))? in section", out)
    if not m:
        return "??"
    off = int(m.group(2) or 0) + pc - addr
    return "%s+0x%x" % (m.group(1), off)


def dump_thread(th):
    th.switch()
    print("TID %d" % th.ptid[1])
    f = gdb.newest_frame()
    i = 0
    exact = True
    while True:
        if f.type() not in SKIP:
            sig = f.type() == gdb.SIGTRAMP_FRAME
            pc = f.pc()
            addr = pc if exact or sig else pc - 1
            print("#%d 0x%x %s" % (i, pc, symbol(pc, addr)))
            i += 1
            exact = sig
        try:
            older = f.older()
        except gdb.error as e:
            print("# stop: %s" % e)
            return
        if older is None:
            why = gdb.frame_stop_reason_string(f.unwind_stop_reason())
            print("# stop: %s" % why)
            return
        f = older


for inf in gdb.inferiors():
    for th in sorted(inf.threads(), key=lambda t: t.ptid[1]):
        dump_thread(th)
