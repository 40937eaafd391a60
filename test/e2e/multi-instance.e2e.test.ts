/**
 * Several instances: two compiled binaries on one PostgreSQL and one bucket behind
 * Debian's Caddy, round-robin. Any instance serves any request: present through the proxy,
 * download and claim through it; 50 completes through the proxy make exactly one transition;
 * `kill -9` of one instance mid-upload leaves the other serving, and after a sweep nothing is
 * orphaned (every object has a staged row, every staged row an object, no spool leftovers);
 * a browser claims a deck through the proxy. Engines are started here; none may be missing.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { S3Client, type Subprocess } from "bun";
import type { HandoffRecord } from "../../src/shared/handoff-record.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { launchBrowser, storedDecks } from "../helpers/browser.ts";
import { type PostgresServer, type S3Server, startPostgres, startS3 } from "../helpers/engines.ts";
import { handOver, waitHealthy } from "../helpers/handoff-client.ts";
import { type BinaryServer, freePort, scratch } from "../helpers/server.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

const CADDY = "/usr/bin/caddy";
const PREFIX = "e2e";
const suite = scratch();
let pg: PostgresServer;
let s3: S3Server;
let databaseUrl: string;
let caddy: Subprocess;
let proxy: string;
const instances: BinaryServer[] = [];

async function startInstance(): Promise<BinaryServer> {
  return suite.start({
    args: ["--database-url", databaseUrl, "--storage", `s3://${s3.bucket}/${PREFIX}`, "--trust-proxy", "--rate-limit", "0", "--max-uploads-per-address", "100"],
    env: s3.env,
  });
}

function caddyfile(port: number, upstreams: number[]): string {
  return `{
\tadmin off
\tauto_https off
}
http://127.0.0.1:${port} {
\treverse_proxy ${upstreams.map((p) => `127.0.0.1:${p}`).join(" ")} {
\t\tlb_policy round_robin
\t\t# A dead instance is passed over: the request goes to the next one.
\t\tlb_try_duration 5s
\t\tfail_duration 30s
\t\tflush_interval -1
\t}
}
`;
}

beforeAll(async () => {
  if (!existsSync(CADDY)) throw new Error("caddy is missing: .ci/run installs it (apt-get install caddy).");
  [pg, s3] = await Promise.all([startPostgres(), startS3()]);
  databaseUrl = await pg.createDatabase("multi");
  instances.push(await startInstance(), await startInstance());
  const port = await freePort();
  const dir = suite.dir("deckhand-lb-");
  writeFileSync(join(dir, "Caddyfile"), caddyfile(port, instances.map((i) => i.port)));
  caddy = Bun.spawn([CADDY, "run", "--adapter", "caddyfile", "--config", join(dir, "Caddyfile")], {
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdout: "ignore",
    stderr: "pipe",
  });
  proxy = `http://127.0.0.1:${port}`;
  await waitHealthy(`${proxy}/healthz`, 15_000, () => caddy.exitCode === null);
}, 120_000);

afterAll(async () => {
  caddy?.kill("SIGTERM");
  await caddy?.exited;
  await suite.cleanup();
  await Promise.all([pg?.stop(), s3?.stop()]);
});

async function present(base: string, pdf: Uint8Array, init: RequestInit = {}): Promise<HandoffRecord & { token: string }> {
  const form = new FormData();
  form.append("file", new Blob([pdf as BlobPart], { type: "application/pdf" }), "talk.pdf");
  const res = await fetch(`${base}/api/present`, { method: "POST", body: form, ...init });
  expect(res.status).toBe(200);
  const record = (await res.json()) as HandoffRecord;
  return { ...record, token: new URL(record.url).hash.replace(/^#t=/, "") };
}

function bucket(): S3Client {
  return new S3Client({ ...s3.client, bucket: s3.bucket });
}

async function objectIds(): Promise<string[]> {
  const listed = await bucket().list({ prefix: `${PREFIX}/` });
  return (listed.contents ?? []).map((o) => o.key.slice(PREFIX.length + 1).replace(/\.pdf$/, "")).sort();
}

async function query<T>(run: (sql: Bun.SQL) => Promise<T>): Promise<T> {
  const sql = new Bun.SQL(databaseUrl, { max: 1 });
  try {
    return await run(sql);
  } finally {
    await sql.close();
  }
}

describe("two instances on one PostgreSQL and one bucket, behind Caddy", () => {
  test("any instance serves any request: present, download (whole and a range) and claim go round the pair", async () => {
    const pdf = await makeDeck({ pages: 3, padToBytes: 6 * 1024 * 1024 });
    for (let i = 0; i < 2; i++) await handOver(proxy, pdf);
    // Round-robin: successive presents land on both instances.
    for (let i = 0; i < 4; i++) await present(proxy, await makeDeck({ pages: 1 }));
    for (const instance of instances) expect(instance.logs()).toContain('"path":"/api/present"');
    await query((sql) => sql`UPDATE sessions SET state = 'claimed', ended_at = 0 WHERE state = 'staged'`);
    for (const id of await objectIds()) await bucket().delete(`${PREFIX}/${id}.pdf`);
    const staged = await present(instances[0]!.url, pdf);
    const range = await fetch(`${instances[1]!.url}/api/sessions/${staged.id}/handoff?t=${staged.token}`, { headers: { range: "bytes=100-199" } });
    expect(range.status).toBe(206);
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(pdf.slice(100, 200));
    const whole = await fetch(`${instances[1]!.url}/api/sessions/${staged.id}/handoff?t=${staged.token}`);
    expect(createHash("sha256").update(new Uint8Array(await whole.arrayBuffer())).digest("hex")).toBe(staged.sha256);
    expect(await objectIds()).toEqual([staged.id]);
    const done = await fetch(`${instances[1]!.url}/api/sessions/${staged.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": staged.token } });
    expect(done.status).toBe(200);
    expect(await objectIds()).toEqual([]);
    // The handoff link names the proxy, not an instance.
    expect(staged.url.startsWith(instances[0]!.url)).toBe(true);
    expect((await present(proxy, pdf)).url.startsWith(proxy)).toBe(true);
  }, 120_000);

  test("50 completes through the proxy: all answer ok, exactly one state transition, the object is gone once", async () => {
    await query(async (sql) => {
      await sql`CREATE TABLE IF NOT EXISTS test_transitions (id text NOT NULL, old_state text NOT NULL, new_state text NOT NULL)`;
      await sql.unsafe(`CREATE OR REPLACE FUNCTION test_count() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF OLD.state IS DISTINCT FROM NEW.state THEN INSERT INTO test_transitions VALUES (NEW.id, OLD.state, NEW.state); END IF; RETURN NEW; END $$`);
      await sql.unsafe("CREATE TRIGGER test_count AFTER UPDATE ON sessions FOR EACH ROW EXECUTE FUNCTION test_count()");
    });
    const stagedBytes = async () => Number(((await query((sql) => sql`SELECT staged_bytes FROM quota`))[0] as { staged_bytes: string }).staged_bytes);
    const before = await stagedBytes();
    const record = await present(proxy, await makeDeck({ pages: 2 }));
    expect(await stagedBytes()).toBe(before + record.bytes);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${proxy}/api/sessions/${record.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": record.token, "content-type": "application/json" }, body: JSON.stringify({ sha256: record.sha256 }) }).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    expect(answers.every((a) => a.status === 200 && (a.body as { ok?: boolean }).ok === true)).toBe(true);
    const transitions = await query((sql) => sql`SELECT old_state, new_state FROM test_transitions WHERE id = ${record.id}`);
    expect([...transitions]).toEqual([{ old_state: "staged", new_state: "claimed" }]);
    expect(await objectIds()).not.toContain(record.id);
    // The quota's running total dropped once, not once per complete.
    expect(await stagedBytes()).toBe(before);
  }, 60_000);

  test("kill -9 of one instance mid-upload: the other keeps serving; after a sweep nothing is orphaned", async () => {
    const [victim, survivor] = instances as [BinaryServer, BinaryServer];
    const kept = await present(proxy, await makeDeck({ pages: 2 }));
    // A 40 MB upload trickling into the victim; it is killed while the body arrives.
    const pdf = await makeDeck({ pages: 2, padToBytes: 40 * 1024 * 1024 });
    const boundary = "deckhand-e2e-boundary";
    const head = new TextEncoder().encode(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.pdf"\r\ncontent-type: application/pdf\r\n\r\n`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 0) controller.enqueue(head);
        const chunk = pdf.subarray(sent, sent + 1024 * 1024);
        sent += chunk.length;
        controller.enqueue(chunk);
        await Bun.sleep(20);
      },
    });
    const upload = fetch(`${victim.url}/api/present`, { method: "POST", body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } }).catch((error: unknown) => error);
    const spoolDir = join(victim.dataDir, "spool");
    const deadline = Date.now() + 20_000;
    while (sent < 10 * 1024 * 1024 && Date.now() < deadline) await Bun.sleep(20);
    const spools = readdirSync(spoolDir);
    expect(spools.flatMap((d) => readdirSync(join(spoolDir, d))).length).toBe(1);
    await victim.kill9();
    expect(await upload).toBeInstanceOf(Error);
    // The proxy's health check takes the dead instance out of the rotation.
    await Bun.sleep(1500);

    // Caddy passes the dead instance over: every request through the proxy is served.
    for (let i = 0; i < 6; i++) await handOver(proxy, await makeDeck({ pages: 1 }));
    // A new instance on the dead one's data dir sweeps at start-up (a restarted service).
    const restarted = await suite.start({
      dataDir: victim.dataDir,
      args: ["--database-url", databaseUrl, "--storage", `s3://${s3.bucket}/${PREFIX}`],
      env: s3.env,
    });
    // The dead instance's spool (its half-received upload) is gone; only the new one's is left.
    const after = readdirSync(spoolDir);
    expect(after).toHaveLength(1);
    expect(spools.some((d) => after.includes(d))).toBe(false);
    expect(readdirSync(join(spoolDir, after[0]!))).toEqual([]);
    expect(restarted.logs()).toMatch(/"event":"sweep".*"removedTemps":1/);
    const staged = await query((sql) => sql`SELECT id FROM sessions WHERE state = 'staged' ORDER BY id`);
    expect(await objectIds()).toEqual([...staged].map((r) => (r as { id: string }).id).sort());
    expect(await objectIds()).toContain(kept.id);
    await restarted.stop();
    expect(survivor.proc.exitCode).toBeNull();
  }, 120_000);

  test("a browser claims a deck through the proxy", async () => {
    const pdf = await makeDeck({ pages: 3 });
    const record = await present(proxy, pdf);
    const browser = await launchBrowser();
    try {
      await browser.page.goto(record.url);
      await browser.page.waitForURL(/\/present\/[0-9a-f]{16}$/, { timeout: 30_000 });
      await browser.page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
      const decks = await storedDecks(browser.page);
      expect(decks).toHaveLength(1);
      expect(decks[0]).toMatchObject({ sha256: record.sha256, handoffId: record.id, totalSlides: 3, storedBytes: pdf.byteLength });
      const row = await query((sql) => sql`SELECT state FROM sessions WHERE id = ${record.id}`);
      expect((row[0] as { state: string }).state).toBe("claimed");
      expect(await objectIds()).not.toContain(record.id);
    } finally {
      await browser.close();
    }
  }, 90_000);
});
