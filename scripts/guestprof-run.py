#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Profile a QEMU guest's kernel from the host with kunwind-guestprof,
beside kunwind.ko's own profiler in the guest, or measure what it costs
the guest:

    scripts/guestprof-run.py compare [--seconds S] [--hz HZ] [--guest-hz HZ]
                                     [--mem SIZE] [--append ARGS] KERNEL OUTDIR
    scripts/guestprof-run.py bench [--seconds S] [--cycles N] [--mem SIZE]
                                   [--append ARGS] KERNEL OUTDIR

KERNEL as tests/harness/gdb-boot.sh takes it (test, debug, 6.1, 6.12);
--append ARGS are its kernel arguments, by default "tsc=reliable": under
TCG, Debian 6.1 otherwise takes the HPET as its clocksource, an MMIO read
that the host's stops land on (QEMU stops a vCPU at its MMIO access)
while the guest's timer never can (it fires after the instruction), 5 %
of the host's samples and none of the guest's.  The
guest (tests/harness/gdb-boot.sh live --ram: gdbstub on a unix socket, RAM in a
shared file) runs the sample module's work kthread (work=1: nested module
functions and sort(), counting its rounds in work_loops) and a busybox
loop of syscalls, in rounds of S guest seconds marked on its console:
    guestprof-run: round N start loops L
    guestprof-run: round N stop loops L
The host side enables kunwind-guestprof (--control FIFO) at a round's
start line and disables it at its stop line.

compare: one round (default S 15) profiled twice: in the guest by
kunwind.ko's profiler at --guest-hz per CPU, from the host at --hz (both
199 by default: the guest's profiler, which the host sees as the guest's
timer interrupt and its reprogramming, costs the guest 5-10 % of its time
under TCG at 997 Hz and takes that share off everything else in the
host's view).  OUTDIR gets guest.folded (the guest's folded
file, printed on its console after the round), host.folded,
host.folded.walks
(a line per walk, its steps by who made them: kunwind-guestprof --walks)
and
host.html (the flame graph), guestprof.log, console.log.  Prints, last:
    guestprof-run: leaf NAME guest=P% host=Q% diff=D
        (the union of both top-5 leaf functions, shares of all samples)
    guestprof-run: guest samples=N host samples=N per-sample=Xus
    guestprof-run: ticks=N samples=N incomplete=N ...
    guestprof-run: host steps: N by the guest's tables; by a fallback: ...
    guestprof-run: guest steps: walks=N table_steps=N orc_fallback_steps=N
        orc_fallback_failed=N (orc_fallback_REASON=N ...)
        (kunwind/stats in the guest before the round's start and after
        its stop: every walk of kunwind's over the round)
    guestprof-run: folded OUTDIR/host.folded html OUTDIR/host.html

bench: rounds of S guest seconds (default 5), for each of 10 Hz and 100
Hz: one to settle, then N cycles (default 6) of (baseline, profiled) and
a last baseline; no syscall loop (it forks, and its noise would be
larger than the loss measured), only the work kthread.  A round's throughput is the work kthread's rounds per host second
between its start and stop lines (timestamped as they reach the host); a
profiled round's loss is 1 - its throughput over the mean of the
baseline rounds beside it.  Prints
    bench: guestprof per-sample=<us> overhead 10Hz=<pct> 100Hz=<pct>
    bench: guestprof overhead spread 10Hz=<min>..<max> 100Hz=<min>..<max>
    bench: guestprof stopped 10Hz=<pct> 100Hz=<pct>
(pct: the median loss in percent; per-sample: the mean time the guest
was stopped per sample, over all profiled rounds; stopped: that time's
share of the profiled rounds, the loss without the noise).

Exit status: 0 when everything ran (compare: whatever the shares; the
test judges them); 1 on any failure.
"""
import argparse
import atexit
import collections
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OBJ = os.environ.get('O', 'build')
if not os.path.isabs(OBJ):
    OBJ = os.path.join(TOP, OBJ)


def say(msg):
    print('guestprof-run: ' + msg, file=sys.stderr, flush=True)


def die(msg):
    say('error: ' + msg)
    sys.exit(1)


WORKLOAD = r'''#!/bin/sh
# scripts/guestprof-run.py's guest: rounds of S guest seconds of work
# (the sample's work kthread runs all along), marked on the console.
S=%(seconds)d PROF=%(prof)d HZ=%(guest_hz)d LOOP=%(loop)d
P=/sys/kernel/debug/kunwind/profile
K=/sys/kernel/debug/kunwind/stats
L=/sys/module/kunwind_sample/parameters/work_loops
cs() { cut -d' ' -f1 /proc/uptime | tr -d .; }
[ $PROF = 1 ] && { echo $HZ >$P/frequency || exit 1; }
n=0
while :; do
	n=$((n + 1))
	[ $PROF = 1 ] && s0=$(cat $K)
	[ $PROF = 1 ] && { echo start >$P/control || exit 1; }
	echo "guestprof-run: round $n start loops $(cat $L)"
	[ $PROF = 1 ] && echo "$s0" | sed "s/^/guestprof-run: round $n stats0: /"
	end=$(($(cs) + S * 100))
	while [ "$(cs)" -lt $end ]; do
		if [ $LOOP = 1 ]; then
			cat /proc/self/stat >/dev/null
			ls /sys/kernel >/dev/null
		else
			sleep 1
		fi
	done
	echo "guestprof-run: round $n stop loops $(cat $L)"
	if [ $PROF = 1 ]; then
		echo stop >$P/control
		sed "s/^/guestprof-run: round $n stats1: /" $K
		awk '/fallback steps out of its text/ { print p ":" $0 } { p = $1 }' \
			/sys/kernel/debug/kunwind/tables |
			sed "s/^/guestprof-run: round $n tables: /"
		sed "s/^/guestprof-run: round $n folded: /" $P/folded
		echo reset >$P/control
	fi
	echo "guestprof-run: round $n end"
done
'''

ROUND = re.compile(r'guestprof-run: round (\d+) (start|stop|end)(?: loops (\d+))?')


class Console:
    """The guest's console log, read as it grows; each line with the host
    time it was seen (polled every 5 ms).  Lines read but not yet asked
    for wait in a queue: a round's stop, end and the next start often
    come in one read."""

    def __init__(self, path):
        self.f = open(path, errors='replace')
        self.part = ''
        self.queue = collections.deque()

    def _read(self):
        d = self.f.read()
        if d:
            t = time.monotonic()
            lines = (self.part + d).split('\n')
            self.part = lines.pop()
            self.queue.extend((t, line) for line in lines)

    def lines(self):
        """Every line not yet taken."""
        self._read()
        out = list(self.queue)
        self.queue.clear()
        return out

    def wait(self, pred, timeout, proc=None):
        """The first (time, line, match) with pred(line) true; the lines
        before it are dropped, those after it stay."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self._read()
            while self.queue:
                t, line = self.queue.popleft()
                m = pred(line)
                if m:
                    return t, line, m
            if proc is not None and proc.poll() is not None:
                die('kunwind-guestprof ended early (status %d)' %
                    proc.returncode)
            time.sleep(0.005)
        die('the guest did not print what was awaited in %d s' % timeout)


def round_line(n, what):
    def pred(line):
        m = ROUND.search(line)
        if m and m.group(2) == what and (n is None or int(m.group(1)) == n):
            return m
        return None
    return pred


class Guest:
    def __init__(self, kernel, out, seconds, prof, guest_hz, mem, append):
        self.out = out
        wl = os.path.join(out, 'workload.sh')
        with open(wl, 'w') as f:
            f.write(WORKLOAD % dict(seconds=seconds, prof=prof,
                                    guest_hz=guest_hz, loop=prof))
        self.dir = os.path.join(out, 'guest')
        r = subprocess.run([os.path.join(TOP, 'tests', 'harness', 'gdb-boot.sh'),
                            '--ram', '--mem', mem, '--workload', wl,
                            '--append', append, '--out', self.dir, 'live',
                            kernel],
                           stdout=subprocess.PIPE, text=True)
        if r.returncode:
            die('tests/harness/gdb-boot.sh live %s failed (%d)' % (kernel,
                                                            r.returncode))
        self.info = dict(line.split(' ', 1) for line in
                         r.stdout.strip().splitlines() if ' ' in line)
        if self.info.get('vmlinux', 'none') == 'none':
            self.stop()
            die('%s: no vmlinux with debug info for gdb' % kernel)
        self.console = Console(self.info['console'])

    def stop(self):
        subprocess.run([os.path.join(TOP, 'tests', 'harness', 'gdb-boot.sh'),
                        '--stop', self.dir], stdout=subprocess.DEVNULL)


_children = []


@atexit.register
def _kill_children():
    """A failure (die()) leaves no kunwind-guestprof behind."""
    for p in _children:
        if p.poll() is None:
            p.kill()


class Guestprof:
    """kunwind-guestprof in the background, driven through its FIFO."""

    def __init__(self, guest, hz, folded, html=None, log=None):
        self.fifo = os.path.join(tempfile.mkdtemp(prefix='guestprof-'),
                                 'control')
        os.mkfifo(self.fifo)
        self.log = log or folded + '.log'
        self.stats = folded + '.stats'
        self.walks = folded + '.walks'
        args = [os.path.join(TOP, 'scripts', 'kunwind-guestprof'),
                guest.info['vmlinux'], '--gdbstub', guest.info['gdb'],
                '--ram', guest.info['ram'], '-F', str(hz), '-o', folded,
                '--control', self.fifo, '--stats', self.stats, '--walks',
                self.walks, '-r', '1']
        if html:
            args += ['--html', html]
        self.proc = subprocess.Popen(args, stdout=open(self.log, 'w'),
                                     stderr=subprocess.STDOUT)
        _children.append(self.proc)
        # Opening for writing blocks until it opened its end: it is up.
        self.ctl = None
        end = time.monotonic() + 300
        while self.ctl is None:
            try:
                self.ctl = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > end:
                    die('kunwind-guestprof did not start: %s' %
                        open(self.log).read()[-2000:])
                time.sleep(0.05)
        # Ready when it says it waits for "enable".
        while 'waiting for "enable"' not in open(self.log).read():
            if self.proc.poll() is not None or time.monotonic() > end:
                die('kunwind-guestprof did not get ready: %s' %
                    open(self.log).read()[-2000:])
            time.sleep(0.05)

    def send(self, cmd):
        os.write(self.ctl, (cmd + '\n').encode())

    def finish(self):
        self.send('stop')
        try:
            rc = self.proc.wait(120)
        except subprocess.TimeoutExpired:
            self.proc.send_signal(signal.SIGKILL)
            rc = -9
        os.close(self.ctl)
        os.unlink(self.fifo)
        os.rmdir(os.path.dirname(self.fifo))
        if rc:
            die('kunwind-guestprof failed (%d): %s' % (
                rc, open(self.log).read()[-3000:]))
        st = open(self.stats).read().split('\n')
        costs = [int(v) for v in st[1].split()[1:]] if len(st) > 1 else []
        steps = st[2] if len(st) > 2 else 'kunwind-guestprof: no steps line'
        return st[0], costs, steps


def leaves(path):
    """{leaf frame: samples} of a folded file."""
    c = collections.Counter()
    for line in open(path):
        line = line.rstrip('\n')
        if not line or line.startswith('#'):
            continue
        stack, _, n = line.rpartition(' ')
        c[stack.split(';')[-1]] += int(n)
    return c


def compare(opt):
    out = os.path.abspath(opt.outdir)
    os.makedirs(out, exist_ok=True)
    guest = Guest(opt.kernel, out, opt.seconds, 1, opt.guest_hz, opt.mem,
                  opt.append)
    try:
        gp = Guestprof(guest, opt.hz, os.path.join(out, 'host.folded'),
                       os.path.join(out, 'host.html'),
                       os.path.join(out, 'guestprof.log'))
        # The next round that starts after kunwind-guestprof is ready:
        # the console's lines until now are old (a slow start, gdb
        # reading a large vmlinux on a loaded host, would otherwise take
        # a round already under way, and profile its end only).
        guest.console.lines()
        _, _, m = guest.console.wait(round_line(None, 'start'),
                                     120 + 4 * opt.seconds, gp.proc)
        n = int(m.group(1))
        gp.send('enable')
        say('round %d: profiling %d s from the host at %d Hz' % (
            n, opt.seconds, opt.hz))
        stats = ({}, {})
        sprefix = ['guestprof-run: round %d stats%d: ' % (n, k)
                   for k in (0, 1)]

        tables = []		# per table: its fallback steps since boot
        tprefix = 'guestprof-run: round %d tables: ' % n

        def stat_line(line):
            if line.startswith(tprefix):
                tables.append(line[len(tprefix):])
            for k in (0, 1):
                if line.startswith(sprefix[k]):
                    kv = line[len(sprefix[k]):].rsplit(None, 1)
                    if len(kv) == 2 and kv[1].isdigit():
                        stats[k][kv[0]] = int(kv[1])

        def stop_line(line):
            stat_line(line)		# kunwind/stats at the round's start
            return round_line(n, 'stop')(line)
        guest.console.wait(stop_line, 60 + 4 * opt.seconds, gp.proc)
        gp.send('disable')
        folded = []
        prefix = 'guestprof-run: round %d folded: ' % n
        end = time.monotonic() + 60
        while time.monotonic() < end:
            done = False
            for _, line in guest.console.lines():
                if line.startswith(prefix):
                    folded.append(line[len(prefix):])
                elif round_line(n, 'end')(line):
                    done = True
                stat_line(line)
            if done:
                break
            time.sleep(0.05)
        else:
            die('no end of round %d on the console' % n)
        summary, costs, steps = gp.finish()
    finally:
        guest.stop()
    with open(os.path.join(out, 'guest.folded'), 'w') as f:
        f.write('\n'.join(folded) + '\n')
    subprocess.run(['cp', guest.info['console'],
                    os.path.join(out, 'console.log')])
    g, h = leaves(os.path.join(out, 'guest.folded')), \
        leaves(os.path.join(out, 'host.folded'))
    gn, hn = sum(g.values()), sum(h.values())
    if not gn or not hn:
        die('no samples: guest %d host %d' % (gn, hn))
    top = [k for k, _ in g.most_common(5)] + \
        [k for k, _ in h.most_common(5)]
    for k in dict.fromkeys(top):
        gp_, hp = 100.0 * g[k] / gn, 100.0 * h[k] / hn
        print('guestprof-run: leaf %s guest=%.2f%% host=%.2f%% diff=%.2f' % (
            k.replace(' ', '_'), gp_, hp, abs(gp_ - hp)))
    print('guestprof-run: guest samples=%d host samples=%d per-sample=%.0fus'
          % (gn, hn, statistics.mean(costs) if costs else 0))
    print('guestprof-run: %s' % summary.replace('kunwind-guestprof: ', ''))
    print('guestprof-run: host %s' % steps.replace('kunwind-guestprof: ', ''))
    # The guest's walks over the round (kunwind/stats before its start
    # and after its stop: the profiler's and any other walk of kunwind's).
    if stats[0] and stats[1]:
        d = {k: stats[1][k] - stats[0].get(k, 0) for k in stats[1]}
        why = ' '.join('%s=%d' % (k, v) for k, v in sorted(d.items())
                       if k.startswith('orc_fallback_') and
                       k != 'orc_fallback_steps' and
                       k != 'orc_fallback_failed')
        print('guestprof-run: guest steps: walks=%d table_steps=%d '
              'orc_fallback_steps=%d orc_fallback_failed=%d%s' % (
                  d.get('walks', 0), d.get('table_steps', 0),
                  d.get('orc_fallback_steps', 0),
                  d.get('orc_fallback_failed', 0),
                  ' (%s)' % why if why else ''))
    else:
        print('guestprof-run: guest steps: no kunwind/stats on the console')
    for t in tables:
        if re.search(r'[1-9]', t.split(':', 1)[-1]):
            print('guestprof-run: guest table %s (since boot)' % re.sub(
                r'\s+', ' ', t))
    print('guestprof-run: folded %s html %s' % (
        os.path.join(out, 'host.folded'), os.path.join(out, 'host.html')))


def bench(opt):
    out = os.path.abspath(opt.outdir)
    os.makedirs(out, exist_ok=True)
    guest = Guest(opt.kernel, out, opt.seconds, 0, 0, opt.mem, opt.append)
    loss, costs, span, stopped = {}, [], {}, {}
    try:
        for hz in (10, 100):
            gp = Guestprof(guest, hz, os.path.join(out, 'bench-%d.folded'
                                                   % hz))
            tps = []		# (profiled?, throughput)
            # A round to settle (the first after boot, or after the
            # other frequency's) is not counted.
            _, _, m = guest.console.wait(round_line(None, 'start'), 120,
                                         gp.proc)
            n = int(m.group(1)) + 1
            _, _, m = guest.console.wait(round_line(n, 'start'),
                                         60 + 4 * opt.seconds, gp.proc)
            start = (time.monotonic(), int(m.group(3)))
            for k in range(2 * opt.cycles + 1):
                prof = k % 2 == 1
                if prof:
                    gp.send('enable')
                t, _, m = guest.console.wait(round_line(n, 'stop'),
                                             60 + 4 * opt.seconds, gp.proc)
                if prof:
                    gp.send('disable')
                tps.append((prof, (int(m.group(3)) - start[1]) /
                            (t - start[0])))
                if prof:
                    span[hz] = span.get(hz, 0) + t - start[0]
                _, _, m = guest.console.wait(round_line(n + 1, 'start'),
                                             60, gp.proc)
                n += 1
                start = (time.monotonic(), int(m.group(3)))
            _, c, _ = gp.finish()
            costs += c
            stopped[hz] = 100.0 * sum(c) / 1e6 / span[hz]
            loss[hz] = [100.0 * (1 - tps[i][1] / statistics.mean(
                [tps[i - 1][1], tps[i + 1][1]]))
                for i in range(1, len(tps) - 1, 2)]
            say('%d Hz: throughput per round %s; loss %s %%' % (
                hz, ' '.join('%s%.0f' % ('*' if p else '', v)
                             for p, v in tps),
                ' '.join('%.2f' % v for v in loss[hz])))
    finally:
        guest.stop()
    print('bench: guestprof per-sample=%.0f overhead 10Hz=%.2f 100Hz=%.2f' % (
        statistics.mean(costs) if costs else 0,
        statistics.median(loss[10]), statistics.median(loss[100])))
    print('bench: guestprof overhead spread 10Hz=%.2f..%.2f '
          '100Hz=%.2f..%.2f' % (min(loss[10]), max(loss[10]),
                                min(loss[100]), max(loss[100])))
    print('bench: guestprof stopped 10Hz=%.2f 100Hz=%.2f' % (stopped[10],
                                                           stopped[100]))


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = p.add_subparsers(dest='mode', required=True)
    c = sub.add_parser('compare')
    c.add_argument('--seconds', type=int, default=15)
    c.add_argument('--hz', type=int, default=199)
    c.add_argument('--guest-hz', type=int, default=199)
    b = sub.add_parser('bench')
    b.add_argument('--seconds', type=int, default=5)
    b.add_argument('--cycles', type=int, default=6)
    for s in (c, b):
        s.add_argument('--mem', default='512M')
        s.add_argument('--append', default='tsc=reliable')
        s.add_argument('kernel')
        s.add_argument('outdir')
    opt = p.parse_args()
    if opt.mode == 'compare':
        compare(opt)
    else:
        bench(opt)


if __name__ == '__main__':
    main()
