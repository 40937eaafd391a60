/**
 * One job under pdf/watchdog in a process of its own, past its deadline by a few milliseconds:
 * armed with `timeoutMs`, the main thread blocked for `timeoutMs + overrunMs` (a read stuck in
 * WASM blocks it so), then disarmed, and "finished" printed. The watchdog either ends the process
 * with the job's last words ("late", exit 2) or loses the job to the disarm; never both.
 *
 *   bun test/helpers/watchdog-job.ts <timeoutMs> <overrunMs>
 */
import { startWatchdog } from "../../src/pdf/watchdog.ts";

const [timeoutMs, overrunMs] = process.argv.slice(2).map(Number) as [number, number];
const watchdog = startWatchdog();
watchdog.arm(timeoutMs, 0, { out: "late\n", err: "", exitCode: 2 }, { out: "too big\n", err: "", exitCode: 2 });
Bun.sleepSync(timeoutMs + overrunMs);
watchdog.disarm();
await Bun.write(Bun.stdout, "finished\n");
watchdog.stop();
