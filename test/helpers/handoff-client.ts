/**
 * What a browser does with a handoff, over plain fetch: present a PDF, download it with the
 * link's token, complete with its digest. For tests that run it through a proxy, a container
 * or an emulator. `tls: { rejectUnauthorized: false }` lets it talk to test certificates.
 */
import { expect } from "bun:test";
import { createHash } from "node:crypto";
import type { HandoffRecord } from "../../src/shared/handoff-record.ts";

const insecure = { tls: { rejectUnauthorized: false } };

/** present → download → complete through `base`; returns the record for further checks. */
export async function handOver(base: string, pdf: Uint8Array, filename = "talk.pdf"): Promise<HandoffRecord> {
  const form = new FormData();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), filename);
  const present = await fetch(`${base}/api/present`, { method: "POST", body: form, ...insecure });
  expect(present.status).toBe(200);
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

/** Wait (bounded) until `url` answers 200. */
export async function waitHealthy(url: string, ms: number, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url, { ...insecure, signal: AbortSignal.timeout(2000) })).status === 200) return;
    } catch {
      // not up yet
    }
    if (!alive()) throw new Error(`the process serving ${url} exited`);
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${ms} ms`);
    await Bun.sleep(100);
  }
}
