/**
 * @module bench/lib/stats
 * Small statistics and formatting helpers shared by the benchmarks.
 */
import { readFileSync } from "node:fs";
import os from "node:os";

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The p-th percentile (nearest rank) of `values`. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
}

export function summarize(values: number[]): Summary {
  return { n: values.length, median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

export function ms(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

export function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** "123.4 ms (min 120.0, max 130.2, n=5)" */
export function describeMs(s: Summary): string {
  return `${ms(s.median)} (min ${s.min.toFixed(1)}, max ${s.max.toFixed(1)}, n=${s.n})`;
}

/** Throughput in MB/s for `bytes` moved in `millis`. */
export function mbPerS(bytes: number, millis: number): string {
  return `${(bytes / (1024 * 1024) / (millis / 1000)).toFixed(0)} MB/s`;
}

/** Print a verdict line: measured vs target, without ever failing the process. */
export function verdict(label: string, measured: number, target: number, unit = "×"): string {
  const ok = measured <= target;
  const shown = unit === "×" ? `${measured.toFixed(2)}×` : `${measured.toFixed(1)} ${unit}`;
  const goal = unit === "×" ? `${target}×` : `${target} ${unit}`;
  return `${ok ? "PASS" : "MISS"}  ${label}: ${shown} (target ≤ ${goal})`;
}

/** The machine and how busy it is: benchmark figures mean little without it. */
export function machineLine(): string {
  const cpus = os.cpus();
  const load = os.loadavg().map((x) => x.toFixed(2)).join(" ");
  return `${cpus[0]?.model ?? "cpu"} ×${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, bun ${Bun.version}, load average ${load}${cpuPressure()}`;
}

/** ", CPU pressure 12 %": the share of the last 10 s in which some runnable task waited for a CPU (Linux PSI), or nothing where it is not there. */
function cpuPressure(): string {
  try {
    const some = /^some avg10=([\d.]+)/m.exec(readFileSync("/proc/pressure/cpu", "utf8"));
    return some ? `, CPU pressure ${Number(some[1]).toFixed(0)} %` : "";
  } catch {
    return "";
  }
}
