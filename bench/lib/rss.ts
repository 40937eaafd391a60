/**
 * @module bench/lib/rss
 * Resident memory of another process, from /proc/PID/status (Linux): the current VmRSS, the
 * kernel's own high-water mark VmHWM, and a sampler for the peak during an operation; and its
 * CPU time (cpuMs), from /proc/PID/stat, alone or with its children and page faults (treeUsage);
 * and the time its event loop waited for a CPU (cpuWaitMs).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

export interface MemoryStatus {
  /** Current resident set, bytes. */
  rss: number;
  /** Peak resident set since start (or since the last resetPeak), bytes. */
  hwm: number;
  /** Of `rss`: anonymous memory (heaps, buffers), file-backed pages (code, mapped files), shared memory. */
  anon: number;
  file: number;
  shmem: number;
  /** Anonymous memory swapped out, bytes (0 on a machine without swap). */
  swap: number;
}

/**
 * A process's private memory footprint as Chromium counts it on Linux (its task manager's
 * "Memory footprint"; `RenderProcessHostImpl::GetPrivateMemoryFootprint`): resident anonymous
 * memory plus what of it is swapped out. Unlike RSS it leaves out the file-backed pages — the
 * browser's own code, mapped into every one of its processes and dropped by the kernel at will.
 */
export const privateFootprint = (memory: MemoryStatus): number => memory.anon + (Number.isNaN(memory.swap) ? 0 : memory.swap);

export function readMemory(pid: number): MemoryStatus | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const kb = (key: string) => {
    const match = new RegExp(`^${key}:\\s+(\\d+)\\s+kB`, "m").exec(text);
    return match ? Number(match[1]) * 1024 : Number.NaN;
  };
  return { rss: kb("VmRSS"), hwm: kb("VmHWM"), anon: kb("RssAnon"), file: kb("RssFile"), shmem: kb("RssShmem"), swap: kb("VmSwap") };
}

/**
 * Reset the kernel's peak-RSS counter of `pid` (writing 5 to clear_refs, Linux ≥ 4.0), so a
 * later VmHWM is the peak of what follows. False when not permitted.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    const after = readMemory(pid);
    return after !== null && after.hwm <= after.rss * 1.05 + 1024 * 1024;
  } catch {
    return false;
  }
}

export interface RssSampler {
  /** Stop sampling; the largest VmRSS seen and the final VmHWM. */
  stop(): { maxSampled: number; hwm: number; samples: number };
}

/** Sample VmRSS of `pid` every `intervalMs` until stopped. */
export function sampleRss(pid: number, intervalMs = 5): RssSampler {
  let maxSampled = 0;
  let samples = 0;
  const tick = () => {
    const mem = readMemory(pid);
    if (!mem) return;
    samples++;
    if (mem.rss > maxSampled) maxSampled = mem.rss;
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      tick();
      const mem = readMemory(pid);
      return { maxSampled, hwm: mem?.hwm ?? Number.NaN, samples };
    },
  };
}

/**
 * CPU time (user + system, ms) of `pid`'s main thread — the event loop — or of the whole
 * process with `wholeProcess` (its other threads included, not its children), from
 * /proc/PID/task/PID/stat (Linux). Null where /proc is not there.
 */
export function cpuMs(pid: number, wholeProcess = false): number | null {
  try {
    const stat = readFileSync(wholeProcess ? `/proc/${pid}/stat` : `/proc/${pid}/task/${pid}/stat`, "utf8");
    // Fields after the command (which may hold spaces) and its closing parenthesis: utime, stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/**
 * Time (ms) the main thread of `pid` — its event loop — has spent runnable but waiting for a
 * CPU, from /proc/PID/task/PID/schedstat (Linux): on a machine busy with other work, what a
 * latency owes to the queue rather than to the process. Null where /proc is not there.
 */
export function cpuWaitMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").trim().split(" ");
    return Number(fields[1]) / 1e6;
  } catch {
    return null;
  }
}

export interface TreeUsage {
  /** CPU time (user + system, ms) of the process and its children that are still running. */
  cpuMs: number;
  /** Minor page faults of the same processes. */
  minorFaults: number;
}

/**
 * CPU time and minor page faults of `pid` and its running children (deckhand's PDF worker
 * processes), from /proc (Linux); null where /proc is not there. Compare two readings only
 * while the same children live.
 */
export function treeUsage(pid: number): TreeUsage | null {
  let cpu = 0;
  let faults = 0;
  let found = false;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // ppid is the 2nd field after the command; minflt the 8th; utime, stime the 12th and 13th.
    if (Number(entry) !== pid && Number(fields[1]) !== pid) continue;
    found = true;
    faults += Number(fields[7]);
    cpu += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  }
  return found ? { cpuMs: cpu, minorFaults: faults } : null;
}

/** USER_HZ: the unit of /proc's CPU times, 100 on every Linux port in use. */
const CLOCK_TICKS = 100;
