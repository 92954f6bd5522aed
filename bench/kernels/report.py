#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/kernels-bench.sh's report, from the three consoles.

    report.py FP.log ORC.log KUNWIND.log

Reads what kunwind_kernels_bench.ko and bench/kernels/guest.sh printed
(their formats are in their headers), checks it and prints the figures,
each the median of the boot's three repeats (their range beside it when
they differ).  Definitions (bench/README.md):

  trace       kunwind/orc: instructions per stack trace, summed over the
              four sites (the same frames); kunwind/fp: per frame (the
              frame-pointer kernel keeps its tail calls' frames)
  perf share  of the workload's CPU time under perf record -F F (its
              instructions and its interrupts', perf's sampling among
              them; not perf's own process: kkb-workload), those perf's
              sampling took: (C - C_off) / C; perf-g share: those -g's
              callchains added, (C_g - C_nog) / C_g.  The same from all
              instructions executed meanwhile (T, perf's process
              included) is printed beside it, "wall"
  fp-tax      the workload's instructions on the frame-pointer kernel over
              those on the kunwind (and ORC) kernel, minus 1
  profiler    kunwind.ko's profiler on the ORC kernel: (T_prof - T_off) /
              T_prof at the rate, beside perf record -g's (T_g - T_off) / T_g
"""
import re
import statistics
import sys

KERNELS = ('fp', 'orc', 'kunwind')
SITES = ('depth4', 'depth16', 'depth32', 'irq16')
RATES = (100, 1000, 10000)
PROF_RATES = (100, 1000)
REPS = 3
# Expected samples within this factor of rate x virtual seconds.
RATE_SLACK = 0.5
# The runs' noise, % of their instructions: shares under it are not judged.
NOISE = 0.3
MODULE = '[kunwind_kernels_bench]'


def die(msg):
    sys.exit('bench: error: kernels: %s' % msg)


def parse(path):
    k = {'frames': {}, 'sites': {}, 'runs': {}, 'samples': {},
         'stats': {}, 'failed': [], 'steps': [], 'icount': None, 'cpu': {}}
    in_steps = False
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        m = re.search(r'kkb: (.*)$', line)
        if in_steps:
            if m and m.group(1) == 'end steps':
                in_steps = False
            else:
                k['steps'].append(line)
            continue
        if not m:
            continue
        body = m.group(1)
        if body == 'begin steps':
            in_steps = True
        elif (m := re.match(r'icount loop=(\d+) counted=(\d+)', body)):
            k['icount'] = (int(m.group(1)), int(m.group(2)))
        elif (m := re.match(r'frame (\S+) (\d+) (.+)$', body)):
            k['frames'].setdefault(m.group(1), []).append(m.group(3))
        elif (m := re.match(r'site (\S+) frames=(\d+) insns=(\d+) min=(\d+) max=(\d+)', body)):
            k['sites'][m.group(1)] = tuple(int(x) for x in m.groups()[1:])
        elif (m := re.match(r'run (\S+) (\d+) loops=(\d+) ns=(\d+) cpu=(\d+)', body)):
            k['runs'].setdefault(m.group(1), []).append(int(m.group(4)))
            k['cpu'].setdefault(m.group(1), []).append(int(m.group(5)))
        elif (m := re.match(r'samples (\S+) (\d+) (\d+)', body)):
            k['samples'].setdefault(m.group(1), []).append(int(m.group(3)))
        elif (m := re.match(r'stat (\S+) (\d+) (\w+): (\d+)', body)):
            k['stats'].setdefault(m.group(1), {}).setdefault(
                m.group(3), []).append(int(m.group(4)))
        elif body.startswith('failed'):
            k['failed'].append(body)
    return k


def func(frame):
    """'kkb_recurse+0x1a/0x30' -> 'kkb_recurse' (offsets differ by kernel)."""
    return frame.split('+')[0]


def med(v):
    return statistics.median(v)


def spread(v, fmt='%.4g'):
    return '' if min(v) == max(v) else (' [' + fmt + '-' + fmt + ']') % (min(v), max(v))


def check_cpu(k, who):
    """One vCPU: a run's CPU time is part of the instructions executed
    while it ran, and most of them."""
    for name, v in k['cpu'].items():
        for c, t in zip(v, k['runs'][name]):
            if not 0.5 * t < c <= t * 1.001:
                die('%s: %s: a CPU time of %d against %d instructions elapsed: '
                    'not the workload\'s' % (who, name, c, t))


def runs(k, name, who, what='runs'):
    v = k[what].get(name, [])
    if len(v) != REPS:
        die('%s: %d runs of %s, not %d' % (who, len(v), name, REPS))
    if min(v) <= 0:
        die('%s: a run of %s counted no instructions' % (who, name))
    return v


def main():
    ks = dict(zip(KERNELS, (parse(p) for p in sys.argv[1:4])))
    for name, k in ks.items():
        if k['failed']:
            die('%s: %s' % (name, '; '.join(k['failed'])))
        if not k['icount']:
            die('%s: no icount check in the console' % name)
        want, got = k['icount']
        # rdtsc_ordered() and the loop's set-up: a few instructions
        if abs(got - want) > 64:
            die('%s: a loop of %d instructions counted %d: the guest clock '
                'does not count instructions (no -icount?)' % (name, want, got))
    print('bench: kernels: icount check: a loop of %d instructions counted %s'
          % (ks['fp']['icount'][0],
             ', '.join('%d (%s)' % (ks[n]['icount'][1], n) for n in KERNELS)))

    # ---- traces ----
    # ORC and kunwind run the same code: their traces must be equal.  The
    # frame-pointer kernel is compiled otherwise (-fno-optimize-sibling-
    # calls: its tail calls keep their frames, x64_sys_call() and
    # load_module() among them), so only the module's own frames must
    # match there, and its cost is compared per frame.
    insns = {n: 0 for n in KERNELS}
    frames = {n: 0 for n in KERNELS}
    for s in SITES:
        names = {}
        for n, k in ks.items():
            if s not in k['sites'] or s not in k['frames']:
                die('%s: no site %s' % (n, s))
            names[n] = [func(f) for f in k['frames'][s]]
        own = {n: [f for f, raw in zip(v, ks[n]['frames'][s]) if MODULE in raw]
               for n, v in names.items()}
        if names['orc'] != names['kunwind'] or \
                len(set(map(tuple, own.values()))) != 1 or not own['fp']:
            print('bench: kernels: site %s: the traces differ:' % s)
            for i in range(max(len(v) for v in names.values())):
                print('  #%-2d %s' % (i, ' | '.join(
                    '%-28s' % (v[i] if i < len(v) else '-')
                    for v in names.values())))
            die('site %s: the kernels\' traces differ (fp | orc | kunwind; '
                'orc and kunwind must be equal, fp in the module\'s frames)' % s)
        line = []
        for n, k in ks.items():
            nf, ins, lo, hi = k['sites'][s]
            if not nf or not ins:
                die('%s: site %s counted %d frames, %d instructions' % (n, s, nf, ins))
            insns[n] += ins
            frames[n] += nf
            line.append('%s %d%s (%d frames, %.0f/frame)'
                        % (n, ins, '' if lo == hi else ' [%d-%d]' % (lo, hi),
                           nf, ins / nf))
        print('bench: kernels: site %s insns/trace %s' % (s, ', '.join(line)))
    per_frame = {n: insns[n] / frames[n] for n in KERNELS}
    r_fp = per_frame['kunwind'] / per_frame['fp']
    r_orc = insns['kunwind'] / insns['orc']
    print('bench: kernels: all sites: instructions per frame fp %.1f orc %.1f '
          'kunwind %.1f; per trace (the same frames) kunwind/orc %.3f'
          % (per_frame['fp'], per_frame['orc'], per_frame['kunwind'], r_orc))

    # ---- the workload ----
    for n, k in ks.items():
        check_cpu(k, n)
    off = {n: runs(k, 'off', n) for n, k in ks.items()}
    cpu_off = {n: runs(k, 'off', n, 'cpu') for n, k in ks.items()}
    for n in KERNELS:
        print('bench: kernels: workload %s %d instructions%s, its CPU time %d%s'
              % (n, med(off[n]), spread(off[n], '%d'),
                 med(cpu_off[n]), spread(cpu_off[n], '%d')))
    # The runs' own noise, from the CPU time of the workload alone.
    noise = max(100.0 * (max(v) - min(v)) / med(v) for v in cpu_off.values())
    print('bench: kernels: the workload alone moves by %.3f %% of its CPU time '
          'between runs (at most, over the kernels)' % noise)
    share, gshare, gshare_wall = {}, {}, {}
    for f in RATES:
        for n, k in ks.items():
            c0 = med(cpu_off[n])
            nog = runs(k, 'perf%d' % f, n)
            g = runs(k, 'perfg%d' % f, n)
            cnog = runs(k, 'perf%d' % f, n, 'cpu')
            cg = runs(k, 'perfg%d' % f, n, 'cpu')
            for name, v in (('perf%d' % f, nog), ('perfg%d' % f, g)):
                smp = k['samples'].get(name, [])
                want = f * med(v) / 1e9
                if len(smp) != REPS or med(smp) < RATE_SLACK * want:
                    die('%s: %s took %s samples, expected about %.0f'
                        % (n, name, smp, want))
            share[f, n] = [100.0 * (x - c0) / x for x in cg]
            gshare[f, n] = [100.0 * (x - y) / x for x, y in zip(cg, cnog)]
            gshare_wall[f, n] = [100.0 * (x - y) / x for x, y in zip(g, nog)]
            print('bench: kernels: %s %dHz perf %.3f%% of the workload\'s CPU time, '
                  'perf -g %.3f%%%s, of it -g\'s callchains %.3f%%%s (wall %.3f%%%s); '
                  'samples %d'
                  % (n, f, med([100.0 * (x - c0) / x for x in cnog]),
                     med(share[f, n]), spread(share[f, n], '%.3f'),
                     med(gshare[f, n]), spread(gshare[f, n], '%.3f'),
                     med(gshare_wall[f, n]), spread(gshare_wall[f, n], '%.3f'),
                     med(k['samples']['perfg%d' % f])))
    tax_k = 100.0 * (med(off['fp']) / med(off['kunwind']) - 1)
    tax_o = 100.0 * (med(off['fp']) / med(off['orc']) - 1)

    # ---- kunwind.ko's profiler, on the ORC kernel ----
    orc = ks['orc']
    prof, prof_noop, perfg = {}, {}, {}
    for f in PROF_RATES:
        t0 = med(off['orc'])
        kv = runs(orc, 'prof-kunwind-%d' % f, 'orc')
        nv = runs(orc, 'prof-noop-%d' % f, 'orc')
        st = orc['stats'].get('prof-kunwind-%d' % f, {})
        smp = st.get('samples', [])
        if len(smp) != REPS or med(smp) < RATE_SLACK * f * med(kv) / 1e9:
            die('orc: kunwind.ko\'s profiler (kunwind handler) at %d Hz took %s samples'
                % (f, smp))
        # the no-op handler counts no samples: that it ran, by its time
        ran = orc['stats'].get('prof-noop-%d' % f, {}).get('handler_ns', [])
        if len(ran) != REPS or min(ran) <= 0:
            die('orc: kunwind.ko\'s profiler (noop handler) at %d Hz never ran: '
                'handler_ns %s' % (f, ran))
        prof[f] = [100.0 * (x - t0) / x for x in kv]
        prof_noop[f] = [100.0 * (x - t0) / x for x in nv]
        t0g = med(off['orc'])	# perf -g's, as the profiler's: all instructions
        perfg[f] = [100.0 * (x - t0g) / x for x in runs(orc, 'perfg%d' % f, 'orc')]
        # the handler's own count: its ns under icount are instructions
        ppm = st.get('handler_ppm')
        print('bench: kernels: kunwind.ko profiler %dHz %.4f%%%s of instructions '
              '(the handler by its own count %s; no-op handler %.4f%%; samples %d, '
              'steps by tables %d, by the fallback %d, stopped %d)'
              % (f, med(prof[f]), spread(prof[f], '%.4f'),
                 '%.4f%%' % (med(ppm) / 1e4) if ppm else 'n/a', med(prof_noop[f]),
                 med(smp), med(st.get('steps_tables', [0])),
                 med(st.get('steps_fallback', [0])), med(st.get('stopped', [0]))))

    steps = ks['kunwind']['steps']
    if not steps:
        die('kunwind: no count of who walked (/sys/kernel/debug/unwind_kunwind)')
    print('bench: kernels: who walked on the kunwind kernel, since boot: %s'
          % '; '.join(re.sub(r'^.*\]\s*', '', s).strip() for s in steps))

    def goal(what, ok):
        print('  %-60s %s' % (what, 'met' if ok else 'NOT met'))
    print('bench: kernels: goals')
    goal('trace kunwind/fp <= 1.2 (%.3f)' % r_fp, r_fp <= 1.2)
    goal('trace kunwind/orc <= 0.3 (%.3f)' % r_orc, r_orc <= 0.3)
    for f in RATES:
        k, o, p = (med(gshare[f, n]) for n in ('kunwind', 'orc', 'fp'))
        # A share under the runs' noise (the larger of NOISE and what the
        # workload alone moved, above) is not judged.
        if max(k, o, p) < max(NOISE, noise):
            print('  %-60s not judged: under the runs\' noise (%.2f %%)'
                  % ('perf-g %dHz (%.3f, %.3f, %.3f)' % (f, k, o, p),
                     max(NOISE, noise)))
            continue
        goal('perf-g %dHz kunwind < orc (%.3f < %.3f)' % (f, k, o), k < o)
        goal('perf-g %dHz kunwind <= 1.2 x fp (%.3f <= %.3f)' % (f, k, 1.2 * p),
             k <= 1.2 * p)
    goal('profiler 100Hz < 0.1 %% (%.4f)' % med(prof[100]), med(prof[100]) < 0.1)
    goal('profiler 1kHz < 1 %% (%.4f)' % med(prof[1000]), med(prof[1000]) < 1)

    print('bench: kernels trace kunwind/fp=%.3f kunwind/orc=%.3f (instructions, icount; fp per frame)'
          % (r_fp, r_orc))
    print('bench: kernels perf-g share ' + ' '.join(
        '%s fp=%.3f orc=%.3f kunwind=%.3f' % (
            {100: '100Hz', 1000: '1kHz', 10000: '10kHz'}[f],
            med(gshare[f, 'fp']), med(gshare[f, 'orc']), med(gshare[f, 'kunwind']))
        for f in RATES) + ' (% of the workload\'s CPU time, callchains)')
    print('bench: kernels fp-tax=%.3f (workload instructions, fp vs kunwind; vs orc %.3f)'
          % (tax_k, tax_o))
    print('bench: profiler overhead (instructions) 100Hz=%.4f 1kHz=%.4f perf-g 100Hz=%.4f 1kHz=%.4f'
          % (med(prof[100]), med(prof[1000]), med(perfg[100]), med(perfg[1000])))


if __name__ == '__main__':
    main()
