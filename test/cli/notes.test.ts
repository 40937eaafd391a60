/**
 * `deckhand present FILE --notes NOTESFILE` against a real server, and `deckhand check FILE
 * --notes NOTESFILE` locally: the notes file goes with the deck, its findings come
 * back, and a bad one is a coded failure with the exit status the commands document.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCheckCommand } from "../../src/cli/check.ts";
import { runPresentCommand } from "../../src/cli/present.ts";
import { testConfig } from "../../src/base/config.ts";
import { silentLogger } from "../../src/base/log.ts";
import { type RunningServer, startServer } from "../../src/server.ts";
import { makeDeck } from "../fixtures/pdfs.ts";
import { testPdfReader } from "../helpers/app.ts";
import { expectValidReport } from "../helpers/report-schema.ts";
import { billionLaughsPptx, pdfpcFile, pptxFile } from "../http/notes-fixtures.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (7.3 s).
setDefaultTimeout(90_000);

let dir: string;
let dataDir: string;
let server: RunningServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "deckhand-cli-notes-"));
  dataDir = mkdtempSync(join(tmpdir(), "deckhand-cli-notes-data-"));
  server = await startServer(testConfig({ dataDir, port: 0, host: "127.0.0.1", rateLimit: 0 }), { logger: silentLogger, pdf: testPdfReader() });
  writeFileSync(join(dir, "talk.pdf"), await makeDeck({ pages: 3 }));
  writeFileSync(join(dir, "talk.pptx"), pptxFile({ slides: ["Open with a story", null, "Thank the team"] }));
  writeFileSync(join(dir, "talk.pdfpc"), pdfpcFile({ 2: "Middle" }));
  writeFileSync(join(dir, "lol.pptx"), billionLaughsPptx());
});
afterAll(async () => {
  await server?.shutdown();
  rmSync(dir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

async function present(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runPresentCommand([...argv, "--server", server.url], (s) => out.push(s), (s) => err.push(s));
  return { code, out: out.join("\n"), err: err.join("\n") };
}

async function check(argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCheckCommand(argv, { out: (t) => void (out += t), err: (t) => void (err += t), pdf: testPdfReader() });
  return { code, out, err };
}

describe("deckhand present --notes", () => {
  test("sends the notes file with the deck: the record names it and the notes route serves it", async () => {
    const { code, out } = await present([join(dir, "talk.pdf"), "--notes", join(dir, "talk.pptx"), "--json"]);
    expect(code).toBe(0);
    const record = JSON.parse(out) as { id: string; url: string; notes?: { filename: string; kind: string; slides: number } };
    expect(record.notes).toMatchObject({ filename: "talk.pptx", kind: "pptx", slides: 2 });
    const res = await fetch(`${server.url}/api/sessions/${record.id}/notes?t=${new URL(record.url).hash.slice(3)}`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(await res.json())).toContain("Thank the team");
  });

  test("prints the link, and the next step mentions the notes; a count mismatch is printed as a warning", async () => {
    const { code, out, err } = await present([join(dir, "talk.pdf"), "--notes", join(dir, "talk.pdfpc")]);
    expect(code).toBe(0);
    expect(out).toContain(`${server.url}/start/`);
    expect(err).toContain('with speaker notes from "talk.pdfpc"');
    writeFileSync(join(dir, "five.pptx"), pptxFile({ slides: ["1", "2", "3", "4", "5"] }));
    const mismatch = await present([join(dir, "talk.pdf"), "--notes", join(dir, "five.pptx")]);
    expect(mismatch.code).toBe(0);
    expect(mismatch.err).toMatch(/warning [A-Z_]+: /);
  });

  test("a bad notes file is the server's coded problem (exit 1); a missing one a usage error (exit 2)", async () => {
    const bad = await present([join(dir, "talk.pdf"), "--notes", join(dir, "lol.pptx")]);
    expect(bad.code).toBe(1);
    expect(bad.err).toStartWith("422 NOTES_FILE_UNREADABLE: lol.pptx: ");
    const missing = await present([join(dir, "talk.pdf"), "--notes", join(dir, "nope.pptx")]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("nope.pptx");
  });
});

describe("deckhand check --notes", () => {
  test("the report covers the notes file (JSON and text)", async () => {
    const { code, out } = await check([join(dir, "talk.pdf"), "--notes", join(dir, "talk.pptx"), "--json"]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { ok: boolean; notesFile?: { filename: string; kind: string } };
    expectValidReport(report);
    expect(report.notesFile).toMatchObject({ filename: "talk.pptx", kind: "pptx" });
    const text = await check([join(dir, "talk.pdf"), `--notes=${join(dir, "talk.pdfpc")}`]);
    expect(text.code).toBe(0);
    expect(text.out).toContain("talk.pdfpc");
  });

  test("a broken notes file makes the deck invalid (exit 1) with its finding; a missing one exits 2", async () => {
    const bad = await check([join(dir, "talk.pdf"), "--notes", join(dir, "lol.pptx")]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("lol.pptx");
    expect(bad.out).toMatch(/error +[A-Z_]+: /);
    const missing = await check([join(dir, "talk.pdf"), "--notes", join(dir, "nope.pdfpc")]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("nope.pdfpc: no such file");
    const noValue = await check([join(dir, "talk.pdf"), "--notes"]);
    expect(noValue.code).toBe(2);
  });
});
