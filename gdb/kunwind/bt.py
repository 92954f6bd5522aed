# SPDX-License-Identifier: GPL-2.0
"""kunwind-bt: kernel stacks walked by kunwind's walker."""
import gdb

from . import lib, registry, target, tasks
from .utils import guarded, symbolize


# Why a step was not taken by a table of the target's (kunwind.ko's
# registry, or the kernel's own where its unwinder is kunwind): the
# walker (libkunwind.so) has no fallback of its own (no ORC, no frame
# pointers: a step no row describes stops the walk), so these are the
# only other ways.
FALLBACK_FLY = 'vmlinux table built on the fly'	# the target has none
FALLBACK_NO_TABLE = 'no table'		# no table covers the frame: never


def steps(frames):
    """(steps by the target's tables, {reason: steps by a fallback}) of a
    walk: each frame but the last was left by the row of the table
    holding its lookup address (lib.Frame.table)."""
    reg = registry.registry()
    by, fb = 0, {FALLBACK_FLY: 0, FALLBACK_NO_TABLE: 0}
    for f in frames[:-1]:
        if f.table < 0:
            fb[FALLBACK_NO_TABLE] += 1
        elif f.table in reg.fly:
            fb[FALLBACK_FLY] += 1
        else:
            by += 1
    return by, fb


def steps_line(frames):
    """Who walked, the walk's last line: "kunwind: steps: N by tables, N by
    a fallback (REASON N, ...)"."""
    by, fb = steps(frames)
    return 'kunwind: steps: %d by tables, %d by a fallback (%s)' % (
        by, sum(fb.values()), ', '.join('%s %d' % (why, n) for why, n in
                                        fb.items()))


def walk_task(task):
    """(frames, stop reason, complete) of task: from its CPU's registers if
    it runs, else from where it sleeps."""
    cpu = task.cpu()
    if cpu is not None:
        return walk_cpu(cpu, task)
    reg = registry.registry()
    reg.walker.set_stacks(tasks.stacks_of(task, None))
    ip, sp, bp, first = tasks.sleeping_start(task)
    return reg.walker.walk(ip, sp, bp, first_called=first)


def walk_cpu(cpu, task=None):
    if not 0 <= cpu < target.nr_cpus():
        raise gdb.GdbError('kunwind: no CPU %d (the target has %d)' %
                           (cpu, target.nr_cpus()))
    ip, sp, bp = tasks.cpu_regs(cpu)
    if tasks.cpu_user_mode(cpu):	# as the kernel's user_mode(regs)
        return [lib.Frame(ip, sp, True)], 'in user mode', True
    task = task or tasks.Task(tasks.current(cpu))
    reg = registry.registry()
    reg.walker.set_stacks(tasks.stacks_of(task, cpu))
    return reg.walker.walk(ip, sp, bp)


def walk_end(frames, why, complete):
    """The lines after a walk's frames: how it ended, who walked."""
    if why == 'in user mode':
        end = 'kunwind: walk complete (the CPU is in user mode: no kernel ' \
            'frames)'
    elif complete:
        end = 'kunwind: walk complete'
    else:
        end = 'kunwind: walk stopped: %s' % why
    return end, steps_line(frames)


def format_walk(frames, why, complete):
    lines = []
    if why == 'in user mode':
        lines.append('#0  0x%016x (user mode)' % frames[0].ip)
    else:
        for n, f in enumerate(frames):
            lines.append('#%-2d 0x%016x %s%s' % (
                n, f.ip, symbolize(f), ' (exact)' if f.exact and n else ''))
    lines += walk_end(frames, why, complete)
    return '\n'.join(lines)


class KunwindBt(gdb.Command):
    """Walk kernel stacks with kunwind's tables from the target's memory.

Usage: kunwind-bt [PID | TASK-ADDRESS]   a task (running: from its CPU's
                                        registers; sleeping: where it sleeps)
       kunwind-bt -c N                  CPU N, from its registers (gdb thread
                                        N+1: QEMU's gdbstub, QEMU's dumps)
       kunwind-bt -a                    every task, grouped by identical stacks
With no argument: the CPU of gdb's selected thread.

Frames are "func+off/size [module]" as the kernel prints them: vmlinux's
symbols from the vmlinux gdb loaded (placed at the KASLR slide measured on
the target), modules' from the target's own kallsyms.  The walk is
kunwind's C walker (libkunwind.so), with the kernel's rules; then a line
says whether it reached the end of the stack or why it stopped, and the
last who walked: "kunwind: steps: N by tables, N by a fallback (vmlinux
table built on the fly N, no table N)", the target's own tables, or
vmlinux's built from the host's vmlinux when the target has none
(kunwind-tables says), or none (the walker has no fallback: never)."""

    def __init__(self):
        super().__init__('kunwind-bt', gdb.COMMAND_STACK)

    @guarded
    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        if argv[:1] == ['-a']:
            if len(argv) != 1:
                raise gdb.GdbError('usage: kunwind-bt -a')
            return self.all_tasks()
        if argv[:1] == ['-c']:
            if len(argv) != 2 or not argv[1].isdigit():
                raise gdb.GdbError('usage: kunwind-bt -c CPU')
            cpu = int(argv[1])
            out = format_walk(*walk_cpu(cpu))
            print('CPU %d:\n%s' % (cpu, out))
            return
        if not argv:
            t = gdb.selected_thread()
            if t is None:
                raise gdb.GdbError('kunwind: no thread selected (no target?)')
            cpu = t.num - 1
            out = format_walk(*walk_cpu(cpu))
            print('CPU %d:\n%s' % (cpu, out))
            return
        if len(argv) != 1:
            raise gdb.GdbError('usage: kunwind-bt [PID | TASK-ADDRESS | -c CPU | -a]')
        task = self.task(argv[0])
        cpu = task.cpu()
        out = format_walk(*walk_task(task))
        print('PID %d (%s)%s:\n%s' % (task.pid, task.comm,
                                      ' on CPU %d' % cpu if cpu is not None
                                      else '', out))

    def task(self, s):
        try:
            v = int(s, 0)
        except ValueError:
            raise gdb.GdbError('kunwind-bt: %r is not a PID or a task address'
                               % s)
        if v >= 1 << 47:
            return tasks.Task(v)
        t = tasks.find_task(v)
        if t is None:
            raise gdb.GdbError('kunwind-bt: no task with PID %d' % v)
        return t

    def all_tasks(self):
        groups = {}
        for t in tasks.tasks():
            try:
                frames, why, complete = walk_task(t)
                key = tuple(symbolize(f) for f in frames), walk_end(
                    frames, why, complete)
            except gdb.GdbError as e:
                key = (), (str(e),)
            except gdb.error as e:	# gdb.MemoryError too: a task exiting
                key = (), ('kunwind: cannot read the target: %s' % e,)
            groups.setdefault(key, []).append(t)
        for key, ts in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            names = ', '.join('%d (%s)' % (t.pid, t.comm) for t in ts[:8])
            more = ' and %d more' % (len(ts) - 8) if len(ts) > 8 else ''
            print('%d task%s: %s%s' % (len(ts), 's' if len(ts) > 1 else '',
                                       names, more))
            for n, line in enumerate(key[0]):
                print('  #%-2d %s' % (n, line))
            for line in key[1]:
                print('  ' + line)
            print()


KunwindBt()
