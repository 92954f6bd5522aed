# SPDX-License-Identifier: GPL-2.0
"""Tasks and CPUs of the target: where a walk starts and which stacks it
may read.

A CPU's registers are the target source's (target.py: gdb's thread CPU +
1 of QEMU's gdbstub and its ELF dumps, one thread, one NT_PRSTATUS note,
per vCPU).  A task that sleeps
left a struct inactive_task_frame at thread.sp, as the kernel's
__switch_to_asm() wrote it.  The stacks are the kernel's
(get_stack_info()): the task's own, and for a task running on a CPU, that
CPU's IRQ stack (its top word holds the sp it was entered from), its
exception stacks and its entry stack (cpu_entry_area), found in the
target's per-CPU data.
"""
import gdb

from . import lib, target


def thread_size():
    return target.cached('thread_size', lambda: int(
        gdb.parse_and_eval('sizeof(init_stack)')))


def _task_field(task, name, size=8):
    a = task + target.field_offset('struct task_struct', name)
    return target.u64(a) if size == 8 else target.u32(a)


class Task:
    def __init__(self, addr):
        self.addr = addr
        self.pid = _task_field(addr, 'pid', 4)
        self.comm = target.cstr(addr + target.field_offset(
            'struct task_struct', 'comm'), 16)
        self.stack = _task_field(addr, 'stack')

    def cpu(self):
        """The CPU the task runs on, or None if it does not run."""
        for c in range(target.nr_cpus()):
            if current(c) == self.addr:
                return c
        return None

    def stack_range(self):
        return self.stack, self.stack + thread_size()


def current(cpu):
    """The task running on cpu."""
    return target.u64(current_ptr(cpu))


def current_ptr(cpu):
    """Where cpu's current task pointer is (per-CPU data)."""
    def find():
        if _has_type('struct pcpu_hot') and \
                target.has_field('struct pcpu_hot', 'current_task'):
            return target.percpu_addr('pcpu_hot', cpu) + target.field_offset(
                'struct pcpu_hot', 'current_task')
        return target.percpu_addr('current_task', cpu)
    return target.cached('current:%d' % cpu, find)


def _has_type(name):
    def look():
        try:
            target.type_(name)
            return True
        except gdb.GdbError:
            return False
    return target.cached('has:' + name, look)


def tasks():
    """Every task (thread) of the target, init_task first."""
    def walk():
        init = target.sym('init_task')
        t_off = target.field_offset('struct task_struct', 'tasks')
        sig_off = target.field_offset('struct task_struct', 'signal')
        head_off = target.field_offset('struct signal_struct', 'thread_head')
        node_off = target.field_offset('struct task_struct', 'thread_node')
        out, seen, visited = [], set(), set()
        p = init
        while p not in visited and len(visited) < 100000:
            visited.add(p)		# a corrupt list may cycle anywhere
            sig = target.u64(p + sig_off)
            head = sig + head_off
            q = target.u64(head)
            n = 0
            while q and q != head and n < 10000:
                t = q - node_off
                if t not in seen:
                    seen.add(t)
                    out.append(Task(t))
                q = target.u64(q)
                n += 1
            if p not in seen:		# init_task: no signal threads list
                seen.add(p)
                out.insert(0, Task(p))
            p = target.u64(p + t_off) - t_off
        return out
    return target.cached('tasks', walk)


def find_task(pid):
    for t in tasks():
        if t.pid == pid:
            return t
    return None


def cpu_regs(cpu):
    """(rip, rsp, rbp) of cpu."""
    src = target.source()
    return tuple(src.reg(cpu, r) for r in ('rip', 'rsp', 'rbp'))


def cpu_user_mode(cpu):
    """Is cpu in user mode (CS's privilege level, as user_mode())?"""
    return target.source().reg(cpu, 'cs') & 3 != 0


def irq_stack(cpu):
    """[lo, hi) of cpu's IRQ stack, or None."""
    if _has_type('struct pcpu_hot') and \
            target.has_field('struct pcpu_hot', 'hardirq_stack_ptr'):
        a = target.percpu_addr('pcpu_hot', cpu) + target.field_offset(
            'struct pcpu_hot', 'hardirq_stack_ptr')
    else:
        a = target.percpu_addr('hardirq_stack_ptr', cpu)
    top = target.try_u64(a)
    if not top:
        return None
    size = target.type_('struct irq_stack').sizeof
    # It points at the top word (dumpstack_64.c's in_irq_stack()).
    return top + 8 - size, top + 8


def exception_stacks(cpu):
    """[(lo, hi)] of cpu's exception stacks (#DF, NMI, #DB, #MC...)."""
    base = target.try_u64(target.percpu_addr('cea_exception_stacks', cpu))
    if not base:
        return []
    t = target.type_('struct cea_exception_stacks')
    out = []
    for f in t.fields():
        if f.name and f.name.endswith('_stack') and 'guard' not in f.name:
            lo = base + f.bitpos // 8
            out.append((lo, lo + f.type.sizeof))
    return out


def entry_stack(cpu):
    """[lo, hi) of cpu's entry stack (the trampoline stack an exception or
    interrupt from user mode lands on before sync_regs() moves it to the
    task's: the TSS's sp0 is its top, dumpstack.c's in_entry_stack()),
    or None."""
    top = target.try_u64(target.percpu_addr('cpu_tss_rw', cpu) +
                         target.field_offset('struct tss_struct', 'x86_tss',
                                             'sp0'))
    size = target.type_('struct entry_stack').sizeof
    return (top - size, top) if top else None


def cpu_stacks(cpu):
    """[(lo, hi, kind)] of cpu's own stacks: IRQ, exception, entry."""
    f = lib.constants()
    out = []
    irq = irq_stack(cpu)
    if irq:
        out.append(irq + (f.KUNWIND_TARGET_STACK_IRQ,))
    out += [r + (f.KUNWIND_TARGET_STACK_OTHER,) for r in exception_stacks(cpu)]
    entry = entry_stack(cpu)
    if entry:
        out.append(entry + (f.KUNWIND_TARGET_STACK_OTHER,))
    return out


def stacks_of(task, cpu):
    """[(lo, hi, kind)]: the stacks a walk of task (running on cpu, or
    None) may read, for Walker.set_stacks()."""
    task_kind = lib.constants().KUNWIND_TARGET_STACK_TASK
    regions = [task.stack_range() + (task_kind,)]
    if cpu is not None:
        regions += cpu_stacks(cpu)
    return regions


def sleeping_start(task):
    """(ip, sp, bp, first_called) where task sleeps: its
    inactive_task_frame at thread.sp (ORC's __unwind_start())."""
    thread_sp = target.u64(task.addr + target.field_offset(
        'struct task_struct', 'thread', 'sp'))
    lo, hi = task.stack_range()
    frame = target.type_('struct inactive_task_frame')
    if not lo <= thread_sp <= hi - frame.sizeof:
        raise gdb.GdbError('kunwind: task %d (%s): saved sp %#x is not on '
                           'its stack [%#x, %#x)' % (task.pid, task.comm,
                                                     thread_sp, lo, hi))
    ret = target.u64(thread_sp + target.field_offset(
        'struct inactive_task_frame', 'ret_addr'))
    bp = target.u64(thread_sp + target.field_offset(
        'struct inactive_task_frame', 'bp'))
    # A new task: its first instruction, exact (ORC's state->signal).
    first = ret != fork_return()
    return ret, thread_sp + frame.sizeof, bp, first


def fork_return():
    """Run-time address where a task forked but not yet scheduled returns
    to from its inactive_task_frame, as ORC's __unwind_start() compares it:
    ret_from_fork_asm where vmlinux has it (6.12), else ret_from_fork
    (6.1: an assembly label, in the ELF symbol table only).  gdb.GdbError if
    vmlinux has neither."""
    def find():
        for name in ('ret_from_fork_asm', 'ret_from_fork'):
            if target.has_symbol(name):
                return target.sym(name)
        raise gdb.GdbError('kunwind: vmlinux has neither ret_from_fork_asm '
                           'nor ret_from_fork: a task forked but not yet '
                           'run cannot be told from a sleeping one')
    return target.cached('fork_return', find)
