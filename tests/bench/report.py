#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""
report.py - turn the OSN-BENCH lines of a bench run into a table.

  report.py --kernel K [--md FILE] [--json FILE] [run metadata] LOG...
  report.py --update-doc Documentation/performance.md --kernel K --md FILE
  report.py --scale --kernel K [--md FILE] LOG...   (run.sh --scale: one
            LOG per vCPU count, every CPU but 0 measured)

The guest scripts (tests/bench/guest/NN-*.sh) print one line per
measurement:  OSN-BENCH fig=<figure> tracer=<t> rep=<n> key=value...
Every figure is shown as osn's value, the other tool's value (upstream
osnoise or rtla) and their ratio, each as "median (min-max)" over the
repeats.  The ratio is taken per repeat (osn and upstream ran back to back
in the same repeat) and then summarised, so a slow phase of the emulator
hits both sides of one ratio.
"""
import argparse
import json
import math
import re
import statistics
import sys
import time

LINE = re.compile(r'OSN-BENCH (.*)$')


def parse(paths):
    """-> {fig: {tracer: {rep: {key: value}}}}, guest info"""
    data = {}
    info = {}
    for p in paths:
        with open(p, errors='replace') as f:
            for line in f:
                line = line.rstrip('\r\n')
                m = re.search(r'OSN-GUEST: (.*)', line)
                if m:
                    for kv in m.group(1).split():
                        if '=' in kv:
                            k, v = kv.split('=', 1)
                            info[k] = v
                    continue
                m = LINE.search(line)
                if not m:
                    continue
                kv = {}
                for tok in m.group(1).split():
                    if '=' in tok:
                        k, v = tok.split('=', 1)
                        kv[k] = v
                fig, tr, rep = kv.pop('fig', None), kv.pop('tracer', None), kv.pop('rep', '1')
                if not fig or not tr:
                    continue
                rec = data.setdefault(fig, {}).setdefault(tr, {}).setdefault(int(rep), {})
                for k, v in kv.items():
                    try:
                        rec[k] = float(v)
                    except ValueError:
                        rec[k] = v
    return data, info


def num(x):
    return isinstance(x, float) and not math.isnan(x)


def summary(vals):
    vals = [v for v in vals if num(v)]
    if not vals:
        return None
    return {'min': min(vals), 'median': statistics.median(vals), 'max': max(vals),
            'n': len(vals), 'values': vals}


def fmt_num(v, digits):
    if v is None:
        return '-'
    if digits == 0:
        return f'{v:,.0f}'
    return f'{v:,.{digits}f}'


def cell(s, digits, unit=''):
    if s is None:
        return 'n/a'
    if s['n'] == 1 or s['min'] == s['max']:
        return f"{fmt_num(s['median'], digits)}{unit}"
    return f"{fmt_num(s['median'], digits)}{unit} ({fmt_num(s['min'], digits)}–{fmt_num(s['max'], digits)})"


class Row:
    """One line of the table.

    metric(rec, reps_of_fig) -> value; reps_of_fig maps tracer -> rec of the
    same repeat (for figures relative to another condition)."""

    def __init__(self, label, fig, metric, digits=0, unit='', better=None,
                 a='osn', b='up', ref=None, ref_metric=None, ref_label=None,
                 ratio='ratio', note='', refs=None, fig_b=None, ref_fig=None):
        self.label, self.fig, self.metric = label, fig, metric
        self.fig_b = fig_b or fig   # figure of the b side
        self.digits, self.unit, self.better = digits, unit, better
        self.a, self.b = a, b
        # reference cells: (label, tracer, metric)
        self.refs = list(refs or [])
        if ref:
            self.refs.insert(0, (ref_label or ref, ref, ref_metric or metric, digits,
                                 ref_fig or fig))
        self.ratio = ratio          # 'ratio', 'absratio' or None
        self.note = note


def key(k, scale=1.0):
    def f(rec, _same):
        v = rec.get(k)
        return v * scale if num(v) else None
    return f


def first_of(*keys):
    """the first of @keys the record has: one row, a different figure per side"""
    def f(rec, _same):
        for k in keys:
            if num(rec.get(k)):
                return rec[k]
        return None
    return f


def located(rec):
    """injections located in time: the injector's count, or fewer when
    several ran back to back under one marker (a thread that did not sleep
    in between); more markers than injections are other IPIs"""
    if not num(rec.get('done')) or not rec['done']:
        return None
    m = rec.get('marks')
    return min(m, rec['done']) if num(m) and m > 0 else rec['done']


def share(rec, _same):
    n = located(rec)
    if not n or not num(rec.get('found')):
        return None
    return min(100.0, 100.0 * rec['found'] / n)


def frac(k):
    def f(rec, _same):
        n = located(rec)
        if not n or not num(rec.get(k)):
            return None
        return 100.0 * rec[k] / n
    return f


def err(rec, _same):
    if not num(rec.get('sum_ns')) or not rec.get('stolen_ns'):
        return None
    return 100.0 * (rec['sum_ns'] - rec['stolen_ns']) / rec['stolen_ns']


def rel_to(cond, k):
    def f(rec, same):
        base = same.get(cond, {}).get(k)
        v = rec.get(k)
        if not num(v) or not num(base) or base == 0:
            return None
        return v / base
    return f


CTX_LABEL = {'irq': 'hard IRQ (local_timer)', 'softirq': 'softirq (HRTIMER; a thread on RT)',
             'thread': 'thread (SCHED_FIFO kthread)', 'ipi': 'IPI (call_function_single)'}


REF_THRESHOLD = 10   # µs: where upstream's own event writes rarely reach the threshold


def derive(data):
    """Figures computed from others, added to @data as their own figures.

    self_ref_T: the noise an injection adds at threshold T (the injected
    phases' noise share minus the quiet phases' of the same session; the
    quiet run's in older logs),
    divided by what upstream adds at REF_THRESHOLD µs in the same repeat.
    Under TCG the injector's busy-wait is not what an injection costs the
    CPU (interrupt entry and exit are emulated too), and both tracers agree
    on that cost where neither measures itself; upstream at 10 µs is then
    the reference a low-threshold figure can be held to.

    self_marg_T: per injection, what the 5 µs payload adds beyond the 1 µs
    payload ("cal": the same interrupt, nearly empty), divided by the time
    the spins under 15-selfnoise.sh's cap differ by on the injector's
    clock. The emulated cost of the interrupt itself is in both and cancels
    out: 1 when the tracer reports an injected µs as one µs of noise.
    marginal_cap holds the noise summed over the samples under the cap
    (which leaves out the emulator's 100 ms gaps), shift_q10 and shift_q50
    the 10th and 50th percentiles of the samples with one interference
    (which leave out the waits that come with the host's load as well).
    """
    def added(tr, t, rep):
        i = data.get(f'self_inj_{t}', {}).get(tr, {}).get(rep, {})
        q = i.get('q_noise_pct',
                  data.get(f'self_quiet_{t}', {}).get(tr, {}).get(rep, {}).get('noise_pct'))
        i = i.get('noise_pct')
        return i - q if num(q) and num(i) else None

    for t in (1, 2, 5, 10):
        for tr in ('osn', 'up'):
            for rep in data.get(f'self_inj_{t}', {}).get(tr, {}):
                a, ref = added(tr, t, rep), added('up', REF_THRESHOLD, rep)
                if a is None or ref is None or ref <= 0:
                    continue
                data.setdefault(f'self_ref_{t}', {}).setdefault(tr, {})[rep] = {
                    'added_vs_ref': a / ref}
            for rep in data.get(f'self_cal_{t}', {}).get(tr, {}):
                c = data[f'self_cal_{t}'][tr][rep]
                i = data.get(f'self_inj_{t}', {}).get(tr, {}).get(rep, {})
                m = {}
                spins = [c.get('stolen_cap_us'), i.get('stolen_cap_us')]
                if not all(num(v) for v in spins) or spins[1] <= spins[0]:
                    continue
                for k, out in (('added_cap_us', 'marginal_cap'), ('q10_us', 'shift_q10'),
                               ('q50_us', 'shift_q50')):
                    if num(c.get(k)) and num(i.get(k)):
                        m[out] = (i[k] - c[k]) / (spins[1] - spins[0])
                if m:
                    data.setdefault(f'self_marg_{t}', {}).setdefault(tr, {})[rep] = m
    return data


def rows_for(data):
    R = []
    sec = lambda title: R.append(title)
    sec('Loop resolution (CPU 1, threshold 1 µs)')
    R.append(Row('ns per loop iteration (window / iterations)', 'loop', key('ns_loop'), 1,
                 better='lower', ref='oslat', ratio=None,
                 note='upstream does not count its iterations; oslat: user-space loop',
                 refs=[('osn with osn:noise_cause on too', 'osncause', key('ns_loop'), 1)]))
    R.append(Row('ns per loop iteration, noise samples excluded', 'loop', key('ns_loop_quiet'), 1,
                 better='lower', ratio=None,
                 note='(runtime − noise) / (loops − samples): the loop\'s own cost',
                 refs=[('osn with osn:noise_cause on too', 'osncause', key('ns_loop_quiet'), 1)]))
    R.append(Row('smallest gap between two clock reads (ns)', 'loop', key('min_gap'), 0,
                 better='lower', ratio=None, note='osn:sample min_gap'))
    R.append(Row('CPU available, per-period summaries only (%)', 'floor', key('avail'), 3,
                 better='higher', note='what the loop reports as noise at 1 µs'))
    R.append(Row('noise samples/s with sample_threshold events', 'res_ev', key('samples_s'), 0,
                 note='hist trigger count; see text'))
    R.append(Row('smallest sample reported (ns, 100 ns bucket)', 'res_ev', key('min_sample'), 0,
                 better='lower', ref='oslat', ref_metric=key('min_us', 1000.0), ref_fig='loop',
                 ref_label='oslat', note='oslat: its minimum (1 µs resolution)'))
    if 'loopcost' in data:
        sec('Loop cost, upstream\'s included (CPU 1; each iteration of either loop calls '
            'kthread_should_stop() once, counted by the function tracer)')
        R.append(Row('ns per iteration without the hook: osn measured, upstream estimated',
                     'loopcost', first_of('unhooked', 'est'), 1, better='lower',
                     note='upstream: osn\'s + (upstream − osn) with the hook, same repeat'))
        R.append(Row('ns per iteration with the hook (window × CPU available / hook hits)',
                     'loopcost', key('hooked_win'), 1, better='lower'))
        R.append(Row('osn with the hook, from its own loop count', 'loopcost', key('hooked'), 1,
                     ratio=None, note='checks the window method of the row above'))
        R.append(Row('the hook\'s cost per iteration (ns)', 'loopcost', key('hook_ns'), 1,
                     ratio=None))
        R.append(Row('hook hits per osn loop iteration', 'loopcost', key('hits_per_loop'), 3,
                     ratio=None, better='1'))
    sec('Self-noise at low thresholds (CPU 1, sample_threshold events on; '
        '"injected": 5 µs hard-IRQ stalls every 150 µs)')
    for t in (1, 2, 5, 10):
        q, i = f'self_quiet_{t}', f'self_inj_{t}'
        if q not in data and i not in data:
            continue
        R.append(Row(f'{t} µs, nothing injected: noise samples/s', q, key('samples_s'), 0,
                     better='lower'))
        R.append(Row(f'{t} µs, nothing injected: window reported as noise (%)', q,
                     key('noise_pct'), 2, better='lower'))
        R.append(Row(f'{t} µs, nothing injected: window reported as hardware noise (%)', q,
                     key('hw_pct'), 2, better='lower'))
        R.append(Row(f'{t} µs, nothing injected: osn\'s own work (osn:sample self, % of the window)',
                     q, key('self_pct'), 3, ratio=None, note='not in the noise'))
        R.append(Row(f'{t} µs, injected: noise samples/s', i, key('samples_s'), 0, better='lower'))
        R.append(Row(f'{t} µs, injected: noise added by the injection / injected truth', i,
                     key('added_vs_truth'), 2, better='1',
                     refs=[('injected truth (% of the window): osn run', 'osn', key('truth_pct'), 2),
                           ('upstream run', 'up', key('truth_pct'), 2)]))
        if f'self_cal_{t}' in data:
            c = f'self_cal_{t}'
            for fig, us in ((c, 1), (i, 5)):
                R.append(Row(f'{t} µs, per injection, {us} µs payload: noise added, samples '
                             'under 100 µs (µs)', fig, key('added_cap_us'), 2, ratio=None,
                             refs=[('its spin under 100 µs, on the injector\'s clock: osn run',
                                    'osn', key('stolen_cap_us'), 2),
                                   ('upstream run', 'up', key('stolen_cap_us'), 2)]))
            R.append(Row(f'{t} µs, the 5 µs payload\'s extra noise / its extra time on the '
                         'injector\'s clock, samples under 100 µs', f'self_marg_{t}',
                         key('marginal_cap'), 2, better='1', ratio=None,
                         note='the interrupt\'s emulated cost cancels out: see text'))
            # above 2 µs the threshold cuts into the 1 µs payload's samples
            # (about 6 µs at the 10th percentile under TCG): no percentiles
            for q in ((10, 50) if t <= 2 else ()):
                R.append(Row(f'{t} µs, 5 µs payload: {q}th percentile of the samples with one '
                             'interference (µs)', i, key(f'q{q}_us'), 2, ratio=None,
                             refs=[('1 µs payload: osn run', 'osn', key(f'q{q}_us'), 2, c),
                                   ('upstream run', 'up', key(f'q{q}_us'), 2, c)]))
                R.append(Row(f'{t} µs, the {q}th percentile\'s shift from the 1 µs payload / '
                             'the spins\' difference', f'self_marg_{t}', key(f'shift_q{q}'), 2, better='1', ratio=None,
                             note='the interrupt\'s emulated cost cancels out; 100 ns buckets'))
        R.append(Row(f'{t} µs, injected: noise added / what upstream adds at {REF_THRESHOLD} µs '
                     '(same repeat)', f'self_ref_{t}', key('added_vs_ref'), 2, better='1', ratio=None,
                     note='the reference where neither tracer measures itself: see text'))
    sec('Attribution of 50 × 200 µs injected stalls on CPU 1')
    for ctx in ('irq', 'softirq', 'thread', 'ipi'):
        fig = 'attr_' + ctx
        if fig not in data:
            continue
        R.append(Row(f'{CTX_LABEL[ctx]}: attributed to the right source, ≥ 200 µs (%)', fig, share, 1,
                     better='100',
                     refs=[('to another source: osn', 'osn', frac('other')),
                           ('upstream', 'up', frac('other'))]))
        R.append(Row(f'{CTX_LABEL[ctx]}: reported duration vs injected (error %)', fig, err, 1,
                     better='0', ratio='absratio'))
    sec('Overhead on CPU 0 (stress-ng --switch, bogo ops/s) while CPU 1 is measured')
    R.append(Row('ops/s', 'overhead', key('ops_s'), 0, better='higher', ref='none',
                 note='reference: CPU 1 idle'))
    R.append(Row('ops/s relative to CPU 1 idle', 'overhead', rel_to('none', 'ops_s'), 3,
                 better='higher', ref='busy', note='reference: untraced busy loop on CPU 1',
                 refs=[('osn with osn:noise_cause on too', 'osncause', rel_to('none', 'ops_s'), 3)]))
    R.append(Row('ops/s relative to an untraced busy loop on CPU 1', 'overhead',
                 rel_to('busy', 'ops_s'), 3, better='higher'))
    sec('Tool cost (osn top|hist vs rtla osnoise top|hist, pinned to CPU 0, measuring CPU 1)')
    for cmd in ('top', 'hist'):
        R.append(Row(f'{cmd}: CPU to start (ms)', f'tool_{cmd}_low', key('startup_ms'), 0,
                     better='lower', b='rtla', note='until its instance and workload run'))
        R.append(Row(f'{cmd}, threshold 50 µs: CPU while collecting (% of a CPU)', f'tool_{cmd}_low',
                     key('run_pct'), 2, better='lower', b='rtla'))
        R.append(Row(f'{cmd}: wake-ups per second while collecting', f'tool_{cmd}_low',
                     key('wakeups_s'), 0, better='lower', b='rtla',
                     note='voluntary context switches'))
        R.append(Row(f'{cmd}, threshold 1 µs + injected 5 µs IRQs: CPU while collecting (% of a CPU)',
                     f'tool_{cmd}_high', key('run_pct'), 2, better='lower', b='rtla',
                     refs=[('injected IRQs/s: osn run', 'osn', key('inj_per_s'), 0),
                           ('rtla run', 'rtla', key('inj_per_s'), 0)]))
        R.append(Row(f'{cmd}: events lost (sum over repeats)', f'tool_{cmd}_high', key('lost'), 0,
                     better='lower', b='rtla', ratio=None))
    if 'monitor_low' in data:
        sec('osn monitor (pinned to CPU 0, probes only on CPU 1, HTTP + textfile, '
            'scraped every 15 s; osn only: upstream has no monitor)')
        R.append(Row('CPU while running, nothing injected (% of a CPU)', 'monitor_low',
                     key('run_pct'), 3, better='lower', ratio=None,
                     note='the issue\'s bound: 0.5 %',
                     refs=[('osn top -q, threshold 50 µs', 'osn', key('run_pct'), 2,
                            'tool_top_low')]))
        R.append(Row('CPU while running, injected 5 µs IRQs (% of a CPU)', 'monitor_high',
                     key('run_pct'), 3, better='lower', ratio=None,
                     note='each IRQ a noise it counts'))
        R.append(Row('wake-ups per second', 'monitor_low', key('wakeups_s'), 2,
                     better='lower', ratio=None, note='voluntary context switches'))
        R.append(Row('scrapes that failed', 'monitor_high', key('failed'), 0, better='lower',
                     ratio=None))
        R.append(Row('RSS (kB)', 'monitor_low', key('rss_kb'), 0, better='lower', ratio=None))
        R.append(Row('user-space speed: stress-ng --cpu int64 on the guest\'s CPU 0 (bogo ops/s)',
                     'speed', key('ops_s'), 0, a='guest', ratio=None,
                     note='the same binary on the host, after the boot (idle or not): how much '
                          'slower TCG runs user-space code',
                     refs=[('host', 'host', key('ops_s'), 0),
                           ('guest / host', 'guest', rel_to('host', 'ops_s'), 3)]))
    sec('Footprint')
    R.append(Row('osn.ko text / data / bss (bytes, host `size`)', 'size', None, note='built-in upstream'))
    R.append(Row('module size in /proc/modules (bytes)', 'footprint', key('module_bytes'), 0,
                 ratio=None, note='upstream is built in'))
    R.append(Row('memory used by insmod (MemFree drop, kB)', 'footprint', key('load_used_kb'), 0, ratio=None))
    R.append(Row('tracer running: memory used (MemFree drop, kB)', 'mem_tracer', key('used_kb'), 0,
                 better='lower', note='instance with the default buffer size'))
    R.append(Row('tracer running: Slab growth (kB)', 'mem_tracer', key('slab_kb'), 0, better='lower'))
    for cmd in ('top', 'hist'):
        fig = 'mem_tool_' + cmd
        R.append(Row(f'{cmd} running: memory used (MemFree drop, kB)', fig, key('used_kb'), 0,
                     better='lower', b='rtla', note='tool + its tracefs instance'))
        R.append(Row(f'{cmd} running: RSS of the tool (kB)', fig, key('rss_kb'), 0,
                     better='lower', b='rtla'))
        R.append(Row(f'{cmd} running: anonymous RSS (kB)', fig, key('anon_kb'), 0,
                     better='lower', b='rtla', note='heap, stacks'))
    return R


TL_CTX = (('irq', 'IRQ'), ('thr', 'thread'))
TL_STATS = (('min', 'min'), ('avg', 'average'), ('p99', '99th percentile'), ('max', 'max'))


def tl_lost(rec, same):
    """the throughput a tracer takes, % of the run without one"""
    r = rel_to('none', 'ops_s')(rec, same)
    return None if r is None else 100.0 * (1.0 - r)


def rows_timerlat(data):
    """The timerlat table (tests/bench/guest/60-timerlat.sh): osn timerlat
    against upstream's timerlat tracer, cyclictest as the reference
    (thread latency only: it has no IRQ side)."""
    R = []
    sec = lambda title: R.append(title)

    def ct(k, digits=2, fig=None):
        return [('cyclictest', 'cyclictest', key(k), digits) + ((fig,) if fig else ())]

    sec('Timer latency, nothing else running (CPU 1, period 1000 µs)')
    for c, lab in TL_CTX:
        for st, name in TL_STATS:
            R.append(Row(f'{lab} latency, {name} (µs)', 'tl_idle', key(f'{c}_{st}'), 2,
                         better='lower', refs=ct(f'thr_{st}') if c == 'thr' else []))
        R.append(Row(f'{lab} samples per second', 'tl_idle', key(f'{c}_n_s'), 0,
                     better='1000', refs=ct('thr_n_s', 0) if c == 'thr' else []))
    sec('Timer latency under 5 injected 10 ms hard-IRQ stalls on CPU 1 (period 1000 µs); '
        'the two tracers should agree: ratio ≈ 1')
    for c, lab in TL_CTX:
        R.append(Row(f'{lab} latency, max (µs)', 'tl_inj', key(f'{c}_max'), 0,
                     refs=(ct('thr_max', 0) if c == 'thr' else []) +
                     [('longest stall, on the injector\'s clock', 'osn', key('stall_us'), 0)]))
        R.append(Row(f'{lab} latency, median of the 5 largest (µs)', 'tl_inj', key(f'{c}_top'), 0,
                     refs=ct('thr_top', 0) if c == 'thr' else [],
                     note='one per stall; an emulator gap moves the max, not this'))
        R.append(Row(f'{lab} latency, average (µs)', 'tl_inj', key(f'{c}_avg'), 2,
                     refs=ct('thr_avg') if c == 'thr' else []))
    def cost_rows(fig, title):
        sec(title)
        R.append(Row('ops/s', fig, key('ops_s'), 0, better='higher', ref='none',
                     ref_label='no tracer', refs=ct('ops_s', 0)))
        R.append(Row('ops/s relative to no tracer', fig, rel_to('none', 'ops_s'), 3,
                     better='higher',
                     refs=[('cyclictest', 'cyclictest', rel_to('none', 'ops_s'), 3)]))

    cost_rows('tl_cost', 'What timerlat costs the measured CPU: stress-ng --cpu on CPU 1 '
              '(bogo ops/s) while it is measured')
    R.append(Row('throughput the tracer takes from stress-ng (%)', 'tl_cost', tl_lost, 2, better='lower',
                 refs=[('cyclictest', 'cyclictest', tl_lost, 2)]))
    cost_rows('tl_rest', 'What timerlat costs the rest of the system: stress-ng --switch on '
              'CPU 0 (context switches, bogo ops/s) while CPU 1 is measured')
    return R


TLU_CTX = (('irq', 'IRQ'), ('thr', 'thread'), ('usr', 'return from user'))
TLU_STATS = (('min', 'min'), ('med', 'median'), ('p99', '99th percentile'), ('max', 'max'))


def rows_tluser(data):
    """The timerlat user-space and tool-cost table
    (tests/bench/guest/62-timerlat-user.sh, 63-timerlat-toolcost.sh): osn
    timerlat against rtla timerlat, each with its user threads (-u), then
    the tools' own CPU time and peak RSS."""
    R = []
    sec = lambda title: R.append(title)
    na = data.get('tlu_na', {}).get('rtla', {})
    why = next(iter(na.values()), {}).get('why') if na else None
    why = {'no_rtla': 'no rtla in the guest',
           'no_timerlat_fd_in_this_kernel': 'the kernel has no timerlat_fd, upstream added it in 6.5',
           'rtla_without_-u': 'its rtla has no -u'}.get(why, why)
    nat = f' — rtla -u: n/a on this kernel ({why})' if why else ''
    for fig, title in (('tlu_idle', 'nothing else running'),
                       ('tlu_inj', 'under 5 injected 10 ms hard-IRQ stalls on CPU 1')):
        sec(f'User-space threads (`timerlat hist -u`, CPU 1, period 1000 µs), {title}{nat}')
        for c, lab in TLU_CTX:
            stats = TLU_STATS + ((('top', 'median of the 5 largest'),) if fig == 'tlu_inj' else ())
            for st, name in stats:
                R.append(Row(f'{lab} latency, {name} (µs)', fig, key(f'{c}_{st}'), 0,
                             better='lower', b='rtla',
                             refs=[('longest stall', 'osn', key('stall_us'), 0)]
                             if fig == 'tlu_inj' and st == 'max' else []))
            R.append(Row(f'{lab} samples', fig, key(f'{c}_n'), 0, b='rtla'))
    sec('Tool cost: `timerlat top -q -c 1 -d 5s` (kernel threads), pinned to CPU 0')
    R.append(Row('CPU time, user + sys, start to exit (ms)', 'tlt_cost', key('cpu_ms'), 0,
                 better='lower', b='rtla'))
    R.append(Row('wall time, start to exit (ms)', 'tlt_cost', key('wall_ms'), 0,
                 better='lower', b='rtla'))
    R.append(Row('peak RSS, VmHWM (kB)', 'tlt_cost', key('hwm_kb'), 0, better='lower', b='rtla'))
    return R


def evaluate(row, data):
    out = {}
    per = {}

    def values(tr, m, fig=row.fig):
        figd = data.get(fig, {})
        vals = {}
        for r in sorted(figd.get(tr, {})):
            rec = figd[tr][r]
            same = {t: figd[t][r] for t in figd if r in figd[t]}
            v = m(rec, same)
            if v is not None:
                vals[r] = v
        return vals

    for tr, fig in ((row.a, row.fig), (row.b, row.fig_b)):
        per[tr] = values(tr, row.metric, fig)
        out[tr] = summary(list(per[tr].values()))
    out['refs'] = [(r[0], summary(list(values(r[1], r[2], r[4] if len(r) > 4 else row.fig).values())),
                    r[3] if len(r) > 3 else row.digits) for r in row.refs]
    # paired ratio a/b per repeat
    ratios = []
    if row.ratio:
        for r, va in per.get(row.a, {}).items():
            vb = per.get(row.b, {}).get(r)
            if vb is None:
                continue
            if row.ratio == 'absratio':
                va, vb = abs(va), abs(vb)
            if vb == 0:
                continue
            ratios.append(va / vb)
    out['ratio'] = summary(ratios)
    if row.label.startswith('events lost'):
        pass
    return out


def build(data, info, args, rows, upname='osnoise'):
    """-> markdown, json of @rows (rows_for or rows_timerlat)"""
    js = {'kernel': args.kernel, 'date': time.strftime('%Y-%m-%d %H:%M:%S %Z'),
          'guest': info, 'repeats': args.repeats, 'quick': bool(int(args.quick or 0)),
          'vm_status': args.vm_status, 'seconds': args.seconds, 'host_load': args.host_load,
          'host_cpus': args.host_cpus, 'commit': args.commit, 'qemu': args.qemu,
          'tcg_thread': args.tcg,
          'figures': []}
    figs = {r.fig for r in rows if not isinstance(r, str)} | \
        {r.fig_b for r in rows if not isinstance(r, str)}
    has_up = any('up' in d or 'rtla' in d for f, d in data.items() if f in figs)
    bname = 'upstream' if has_up else 'upstream (not on this kernel)'
    md = []
    md.append(f"Kernel **{args.kernel}** ({info.get('kernel', '?')}), QEMU TCG "
              f"({args.tcg}-threaded), "
              f"{info.get('cpus', '?')} vCPUs, clocksource {info.get('clocksource', '?')}; "
              f"{args.repeats} repeat(s){', quick' if args.quick == '1' else ''}; "
              f"osn {args.commit}; {js['date']}; host: {args.host_cpus} CPUs, "
              f"load {args.host_load}; bench {args.seconds}s"
              f"{'' if str(args.vm_status) == '0' else ', guest run status ' + str(args.vm_status)}.")
    md.append('')
    if has_up:
        md.append('Cells: median (min–max) over the repeats; ratio = osn / upstream per repeat. '
                  '"better" says which way is good.')
    else:
        md.append(f'This kernel has no upstream {upname}: osn alone. Cells: median (min–max) over '
                  'the repeats. "better" says which way is good.')
    md.append('')
    if has_up:
        hdr = f'| figure | osn | {bname} | osn / upstream | reference | better |'
        sep = '| --- | --- | --- | --- | --- | --- |'
    else:
        hdr = '| figure | osn | reference | better |'
        sep = '| --- | --- | --- | --- |'
    pending = None     # a section's title, printed with its first row
    for row in rows:
        if isinstance(row, str):
            pending = row
            continue
        if pending is not None and row.fig != 'size' and \
                row.fig not in data and row.fig_b not in data:
            continue
        if pending is not None and row.fig == 'size' and 'size' not in data:
            continue
        if pending is not None:
            md.append('')
            md.append(f'**{pending}**')
            md.append('')
            md.append(hdr)
            md.append(sep)
            pending = None
        if row.fig == 'size':
            s = data.get('size', {}).get('osn', {}).get(1, {})
            if not s:
                continue
            txt = (f"{fmt_num(s.get('text'), 0)} / {fmt_num(s.get('data'), 0)} / "
                   f"{fmt_num(s.get('bss'), 0)} (file {fmt_num(s.get('file_bytes'), 0)})")
            md.append(f'| {row.label} | {txt} | built in | | | |' if has_up else
                      f'| {row.label} | {txt} | | |')
            js['figures'].append({'label': row.label, 'fig': 'size', 'osn': s})
            continue
        if row.fig not in data and row.fig_b not in data:
            continue
        ev = evaluate(row, data)
        if not ev.get(row.a) and not ev.get(row.b):
            continue
        if 'lost' in row.label:
            # a total, not a spread
            def tot(s):
                return 'n/a' if s is None else fmt_num(sum(s['values']), 0)
            ca, cb = tot(ev.get(row.a)), tot(ev.get(row.b))
        else:
            ca, cb = cell(ev.get(row.a), row.digits), cell(ev.get(row.b), row.digits)
        cr = cell(ev.get('ratio'), 3) if row.ratio else ''
        if row.ratio == 'absratio' and ev.get('ratio'):
            cr += ' (of \\|error\\|)'
        cref = '; '.join(f'{lab}: {cell(sm, d)}' for lab, sm, d in ev['refs'] if sm)
        if row.note:
            cref = f'{cref}; {row.note}' if cref else row.note
        b = {'lower': 'lower', 'higher': 'higher', '100': 'closer to 100', '0': 'closer to 0',
             '1': 'closer to 1', '1000': 'closer to 1000'}.get(row.better, '')
        if has_up:
            md.append(f'| {row.label} | {ca} | {cb} | {cr} | {cref} | {b} |')
        else:
            md.append(f'| {row.label} | {ca} | {cref} | {b} |')
        js['figures'].append({'label': row.label, 'fig': row.fig, 'better': row.better,
                              'osn': ev.get(row.a), 'other_tool': row.b,
                              'other': ev.get(row.b), 'ratio': ev.get('ratio'),
                              'references': [{'label': lab, 'value': sm} for lab, sm, _ in ev['refs']],
                              'note': row.note})
    js['raw'] = {f: {t: {str(r): v for r, v in reps.items()} for t, reps in trs.items()}
                 for f, trs in data.items()}
    return '\n'.join(md) + '\n', js


SCALE_ROWS = [
    # (label, fig, metric, digits, tools)
    ('top: CPU to start (ms)', 'tool_top_low', key('startup_ms'), 0, ('osn', 'rtla')),
    ('top, threshold 50 µs: CPU while collecting (% of a CPU)', 'tool_top_low', key('run_pct'), 2,
     ('osn', 'rtla')),
    ('top running: RSS of the tool (kB)', 'mem_tool_top', key('rss_kb'), 0, ('osn', 'rtla')),
    ('top running: memory used, tool + instance (MemFree drop, kB)', 'mem_tool_top',
     key('used_kb'), 0, ('osn', 'rtla')),
    ('top: CPU from the end of collection to exit (ms)', 'tool_top_high', key('stop_ms'), 0,
     ('osn', 'rtla')),
    ('top: CPU time of the whole run (ms)', 'tool_top_low', key('cpu_ms'), 0, ('osn', 'rtla')),
    ('top: wake-ups per second while collecting', 'tool_top_low', key('wakeups_s'), 0,
     ('osn', 'rtla')),
    ('top, injected IRQs at a 1 µs threshold: events lost', 'tool_top_high', key('lost'), 0,
     ('osn', 'rtla')),
    ('hist: CPU to start (ms)', 'tool_hist_low', key('startup_ms'), 0, ('osn', 'rtla')),
    ('hist, threshold 50 µs: CPU while collecting (% of a CPU)', 'tool_hist_low', key('run_pct'),
     2, ('osn', 'rtla')),
    ('hist: CPU from the end of collection to exit (ms)', 'tool_hist_high', key('stop_ms'), 0,
     ('osn', 'rtla')),
    ('hist: CPU time of the whole run (ms)', 'tool_hist_low', key('cpu_ms'), 0, ('osn', 'rtla')),
    ('hist, injected IRQs at a 1 µs threshold: events lost', 'tool_hist_high', key('lost'), 0,
     ('osn', 'rtla')),
    ('hist running: RSS of the tool (kB)', 'mem_tool_hist', key('rss_kb'), 0, ('osn', 'rtla')),
    ('hist running: memory used, tool + instance (MemFree drop, kB)', 'mem_tool_hist',
     key('used_kb'), 0, ('osn', 'rtla')),
    ('monitor, nothing injected: CPU while running (% of a CPU)', 'monitor_low', key('run_pct'),
     2, ('osn',)),
    ('monitor, injected IRQs: CPU while running (% of a CPU)', 'monitor_high', key('run_pct'), 2,
     ('osn',)),
    ('timerlat top -d 5s: CPU time, start to exit (ms)', 'tlt_cost', key('cpu_ms'), 0,
     ('osn', 'rtla')),
    ('timerlat top: peak RSS (kB)', 'tlt_cost', key('hwm_kb'), 0, ('osn', 'rtla')),
    ('memory used by insmod (MemFree drop, kB)', 'footprint', key('load_used_kb'), 0, ('osn',)),
    ('tracer running: memory used (MemFree drop, kB)', 'mem_tracer', key('used_kb'), 0,
     ('osn', 'up')),
    ('tracer running: Slab growth (kB)', 'mem_tracer', key('slab_kb'), 0, ('osn', 'up')),
    ('stress-ng ops/s on CPU 0 relative to the other CPUs idle', 'overhead',
     rel_to('none', 'ops_s'), 3, ('osn', 'up', 'busy')),
]


def scale_table(runs):
    """runs: [(vcpus, data)] -> markdown: each figure by vCPU count (all
    CPUs but 0 measured), and its growth per added measured CPU"""
    runs = sorted(runs, key=lambda r: r[0])
    ns = [n for n, _ in runs]
    md = ['| figure | tool | ' + ' | '.join(f'{n} vCPUs ({n - 1} measured)' for n in ns) +
          f' | per added measured CPU ({ns[0]}→{ns[-1]} vCPUs) |',
          '| --- | --- | ' + ' | '.join('---' for _ in ns) + ' | --- |']
    for label, fig, metric, digits, tools in SCALE_ROWS:
        per_tool = {}
        for tool in tools:
            meds = []
            cells = []
            for _n, data in runs:
                row = Row(label, fig, metric, digits, a=tool, b=tool, ratio=None)
                sm = evaluate(row, data).get(tool)
                meds.append(sm['median'] if sm else None)
                cells.append(cell(sm, digits))
            if all(m is None for m in meds):
                continue
            slope = '-'
            if meds[0] is not None and meds[-1] is not None and ns[-1] > ns[0]:
                slope = fmt_num((meds[-1] - meds[0]) / (ns[-1] - ns[0]), max(digits, 1))
            md.append(f'| {label} | {tool} | ' + ' | '.join(cells) + f' | {slope} |')
            per_tool[tool] = (meds, slope)
        # osn against rtla in the same boot, and their growth per CPU
        if 'osn' in per_tool and 'rtla' in per_tool:
            (a, sa), (b, sb) = per_tool['osn'], per_tool['rtla']
            ratios = ['-' if x is None or not y else fmt_num(x / y, 2) for x, y in zip(a, b)]
            try:
                gr = fmt_num(float(sa.replace(',', '')) / float(sb.replace(',', '')), 2)
            except (ValueError, ZeroDivisionError):
                gr = '-'
            md.append(f'| {label} | **osn / rtla** | ' + ' | '.join(ratios) + f' | {gr} |')
    return '\n'.join(md) + '\n'


def update_doc(path, kernel, md_path):
    with open(md_path) as f:
        block = f.read().rstrip('\n')
    begin = f'<!-- bench-results {kernel} begin -->'
    end = f'<!-- bench-results {kernel} end -->'
    try:
        with open(path) as f:
            doc = f.read()
    except FileNotFoundError:
        doc = '# Performance\n'
    new = f'{begin}\n{block}\n{end}'
    if begin in doc and end in doc:
        pre, rest = doc.split(begin, 1)
        _, post = rest.split(end, 1)
        doc = pre + new + post
    else:
        doc = doc.rstrip('\n') + f'\n\n### Kernel {kernel}\n\n{new}\n'
    with open(path, 'w') as f:
        f.write(doc)



def place_md(text, path, parent):
    """A table of its own: to PATH if given, else appended to PARENT's
    text.  Returns PARENT's text."""
    if path:
        if text:
            with open(path, 'w') as f:
                f.write(text)
        return parent
    return '\n'.join(m for m in (parent, text) if m) or None

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--md')
    ap.add_argument('--json')
    ap.add_argument('--md-timerlat',
                    help='the timerlat table goes to this file (written only when the run has '
                         'timerlat figures); --md then has the others (written only when the '
                         'run has some)')
    ap.add_argument('--md-tluser',
                    help='the timerlat user-space and tool-cost table goes to this file '
                         '(written only when the run has those figures)')
    ap.add_argument('--update-doc')
    ap.add_argument('--repeats', default='?')
    ap.add_argument('--quick', default='0')
    ap.add_argument('--vm-status', default='?')
    ap.add_argument('--seconds', default='?')
    ap.add_argument('--host-load', default='?')
    ap.add_argument('--host-cpus', default='?')
    ap.add_argument('--commit', default='?')
    ap.add_argument('--qemu', default='?')
    ap.add_argument('--tcg', default='?')
    ap.add_argument('--scale', action='store_true',
                    help='LOGs are boots with different vCPU counts: the scale table')
    ap.add_argument('logs', nargs='*')
    args = ap.parse_args()
    if args.update_doc:
        update_doc(args.update_doc, args.kernel, args.md)
        return 0
    if args.scale:
        runs = []
        for log in args.logs:
            data, info = parse([log])
            if data and info.get('cpus', '').isdigit():
                runs.append((int(info['cpus']), data))
        if len(runs) < 2:
            print('report: --scale needs two runs or more with results', file=sys.stderr)
            return 1
        head = (f'Kernel **{args.kernel}**, QEMU TCG (single-threaded), every CPU but 0 '
                f'measured, {args.repeats} repeat(s); osn {args.commit}; '
                f'{time.strftime("%Y-%m-%d %H:%M:%S %Z")}.\n\nCells: median (min–max) over the '
                'repeats.\n\n')
        md = head + scale_table(runs)
        if args.md:
            with open(args.md, 'w') as f:
                f.write(md)
        else:
            sys.stdout.write(md)
        return 0
    data, info = parse(args.logs)
    if not data:
        print('report: no OSN-BENCH lines in ' + ' '.join(args.logs), file=sys.stderr)
        return 1
    data = derive(data)
    md, js = build(data, info, args, rows_for(data))
    tmd, tjs = build(data, info, args, rows_timerlat(data), 'timerlat')
    # the host's own figures (osn.ko's size) alone make no osnoise table
    if not any(f['fig'] != 'size' for f in js['figures']):
        md = None
    if not tjs['figures']:
        tmd = None
    umd, ujs = build(data, info, args, rows_tluser(data), 'timerlat -u')
    if not ujs['figures']:
        umd = None
    js['figures'] += tjs['figures'] + ujs['figures']
    tmd = place_md(umd, args.md_tluser, tmd)
    md = place_md(tmd, args.md_timerlat, md)
    if md and args.md:
        with open(args.md, 'w') as f:
            f.write(md)
    elif md:
        sys.stdout.write(md)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(js, f, indent=1)
            f.write('\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
