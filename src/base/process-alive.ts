/**
 * @module base/process-alive
 * Whether a process still runs: signal 0 is delivered to nobody, so only its answer counts —
 * ESRCH when the pid is gone, EPERM when it runs as another user (alive all the same).
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}
