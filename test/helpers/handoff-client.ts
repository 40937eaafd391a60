/**
 * What a browser does with a handoff, over plain fetch: present a PDF, download it with the
 * link's token, complete with its digest. For tests that run it through a proxy, a container
 * or an emulator. `tls: { rejectUnauthorized: false }` lets it talk to test certificates.
 */
import { expect } from "bun:test";
import { createHash } from "node:crypto";
import type { HandoffRecord } from "../../src/shared/handoff-record.ts";

const insecure = { tls: { rejectUnauthorized: false } };

/**
 * present → download → complete through `base`; returns the record for further checks.
 * `retryBusyMs`: for that long, a 503 with Retry-After (the server's PDF readers still
 * starting, as under an emulator on a loaded machine) is sent again after the wait it asks
 * for, as a well-behaved client does; 0 (the default) takes the first answer.
 */
export async function handOver(base: string, pdf: Uint8Array, filename = "talk.pdf", retryBusyMs = 0): Promise<HandoffRecord> {
  const form = new FormData();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), filename);
  const giveUp = Date.now() + retryBusyMs;
  let present = await fetch(`${base}/api/present`, { method: "POST", body: form, ...insecure });
  const refusals: string[] = [];
  for (let wait = retryAfterMs(present); present.status === 503 && wait !== null && Date.now() + wait <= giveUp; wait = retryAfterMs(present)) {
    refusals.push(await present.text());
    await Bun.sleep(wait);
    present = await fetch(`${base}/api/present`, { method: "POST", body: form, ...insecure });
  }
  if (present.status !== 200) throw new Error(`POST /api/present answered ${present.status}: ${await present.text()}${refusals.length ? ` (after ${refusals.length} earlier 503s: ${refusals.join(" | ")})` : ""}`);
  const record = (await present.json()) as HandoffRecord;
  const token = new URL(record.url).hash.replace(/^#t=/, "");
  const download = await fetch(`${base}/api/sessions/${record.id}/handoff?t=${encodeURIComponent(token)}`, insecure);
  expect(download.status).toBe(200);
  const bytes = new Uint8Array(await download.arrayBuffer());
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  expect(sha256).toBe(record.sha256);
  const complete = await fetch(`${base}/api/sessions/${record.id}/handoff/complete`, {
    method: "POST",
    headers: { "x-controller-token": token, "content-type": "application/json" },
    body: JSON.stringify({ sha256 }),
    ...insecure,
  });
  expect(complete.status).toBe(200);
  expect(await complete.json()).toMatchObject({ ok: true });
  const again = await fetch(`${base}/api/sessions/${record.id}/handoff?t=${encodeURIComponent(token)}`, insecure);
  expect(again.status).toBe(410);
  return record;
}

/** The wait a response's Retry-After asks for (ms), or null without one. */
function retryAfterMs(response: Response): number | null {
  const seconds = Number(response.headers.get("retry-after") ?? Number.NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

/** Wait (bounded) until `url` answers 200. */
export async function waitHealthy(url: string, ms: number, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      // Each try may take 10 s: a server under emulation or behind a starting proxy, yielding
      // to the browser lanes, can be slower than that to answer and still be up.
      if ((await fetch(url, { ...insecure, signal: AbortSignal.timeout(10_000) })).status === 200) return;
    } catch {
      // not up yet
    }
    if (!alive()) throw new Error(`the process serving ${url} exited`);
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${ms} ms`);
    await Bun.sleep(100);
  }
}
