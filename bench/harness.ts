/**
 * A small timing harness for `bench/run-bench.ts`: each case runs in batches sized to ~`batchMs`, after a
 * warm-up that lets V8 optimise it. Cases that are compared run alternately (ours, theirs, ours, theirs …)
 * so drift of the machine affects both alike. The figure is the median batch's time per operation (the
 * fastest batch is recorded too: other processes and GC only ever add time, so it bounds the code's own
 * cost from below, but on a loaded machine it is a lucky outlier, so speedups use medians of both sides).
 */
import { performance } from 'node:perf_hooks';

export interface Measurement {
  readonly name: string;
  /** Nanoseconds per call of the case's function, median batch: the figure speedups use. */
  readonly nsPerOp: number;
  /** Nanoseconds per call, median batch (= nsPerOp; kept for readers of older results.json). */
  readonly medianNsPerOp: number;
  /** Nanoseconds per call, fastest batch. */
  readonly minNsPerOp: number;
  readonly samples: number;
}

/** Calls `fn` enough times to fill ~`ms` milliseconds; returns the calls per batch found. */
function calibrate(fn: () => void, ms: number): number {
  let n = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < n; i++) fn();
    const elapsed = performance.now() - start;
    if (elapsed >= ms) return Math.max(1, Math.round((n * ms) / elapsed));
    n *= elapsed < ms / 8 ? 8 : 2;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
}

/**
 * Measures several functions alternately: `rounds` rounds, each running every function for one batch of
 * ~`batchMs` ms. Returns the median and the fastest batch's ns/op of each.
 */
export function compare(
  cases: ReadonlyArray<{ name: string; fn: () => void }>,
  { warmupMs = 300, batchMs = 10, rounds = 40 } = {},
): Measurement[] {
  const counts = cases.map((c) => {
    const warmEnd = performance.now() + warmupMs;
    while (performance.now() < warmEnd) c.fn();
    return calibrate(c.fn, batchMs);
  });
  const times: number[][] = cases.map(() => []);
  for (let round = 0; round < rounds; round++) {
    cases.forEach((c, i) => {
      const n = counts[i];
      const fn = c.fn;
      const start = performance.now();
      for (let k = 0; k < n; k++) fn();
      times[i].push(((performance.now() - start) * 1e6) / n);
    });
  }
  return cases.map((c, i) => ({
    name: c.name, nsPerOp: median(times[i]), medianNsPerOp: median(times[i]), minNsPerOp: Math.min(...times[i]), samples: rounds,
  }));
}

/** Formats a table of rows (first row the header) with padded columns. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((r) => r[col].length)));
  return rows.map((r) => r.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join('  ')).join('\n');
}

/** `1234.5` → `"1.23 µs"` etc. */
export function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} µs`;
  return `${ns.toFixed(0)} ns`;
}

/**
 * Bytes of heap allocated per call of `fn`, exactly: after a warm-up and two forced GCs, `calls` calls run
 * with no GC in between (the young generation must be large enough: run node with
 * `--min-semi-space-size=64 --max-semi-space-size=64`), and the growth of `heapUsed` is divided by
 * `calls`. A GC during the run would free garbage and hide it, so GCs are counted (`gcDuring` > 0 makes the
 * figure a lower bound). `retained` is the growth still there after a final forced GC.
 *
 * The measurement is taken `rounds` times and the round that allocated least (of those with no GC) is returned:
 * V8's one-off allocations (optimised code, feedback, a deoptimisation) land in one round when the machine is
 * loaded, while garbage that `fn` itself makes lands in every round.
 */
export async function allocationPerCall(
  fn: () => void, calls: number, gc: () => void, rounds = 3,
): Promise<{ allocated: number; retained: number; gcDuring: number }> {
  let best: { allocated: number; retained: number; gcDuring: number } | undefined;
  for (let round = 0; round < rounds; round++) {
    const r = await allocationRound(fn, calls, gc);
    const better = !best || (best.gcDuring > 0 && r.gcDuring === 0) || (r.gcDuring === best.gcDuring && r.allocated < best.allocated);
    if (better) best = r;
  }
  return best!;
}

async function allocationRound(
  fn: () => void, calls: number, gc: () => void,
): Promise<{ allocated: number; retained: number; gcDuring: number }> {
  const { PerformanceObserver } = await import('node:perf_hooks');
  for (let i = 0; i < calls; i++) fn();
  gc(); gc();
  let gcDuring = 0;
  let counting = false;
  const observer = new PerformanceObserver((list) => {
    if (counting) gcDuring += list.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  await new Promise((r) => setImmediate(r));
  counting = true;
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < calls; i++) fn();
  const after = process.memoryUsage().heapUsed;
  await new Promise((r) => setImmediate(r));
  counting = false;
  observer.disconnect();
  gc(); gc();
  const afterGc = process.memoryUsage().heapUsed;
  return { allocated: Math.max(0, after - before) / calls, retained: Math.max(0, afterGc - before) / calls, gcDuring };
}
