/**
 * The handoff record names the deck's size as the presenter will count it: `totalSlides` stays
 * the page count (the spec's field), and the `next` sentence says pages and slides where builds
 * make them differ — Beamer frames by page label, a Polylux deck's slides by its .pdfpc's forced
 * overlays (attached to the PDF, or beside it as the `notes` part) — through REST and MCP alike.
 * The decks are built by pdflatex (test/fixtures/slide-tool-decks.ts).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { deckSize } from "../../src/handoff/service.ts";
import { removeBeamerDecks } from "../fixtures/beamer.ts";
import { attachFiles, buildDurationDeck, buildPolyluxStyleDeck, polyluxPdfpc } from "../fixtures/slide-tool-decks.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { base64, type McpTestServer, startMcpTestServer } from "../mcp/helpers.ts";

// The timeout of each test and hook here: pdflatex builds two decks first (~10 s on a loaded 2-vCPU machine).
setDefaultTimeout(150_000);

let polylux: Uint8Array;
let attached: Uint8Array;
let beamer: Uint8Array;
let t: TestApp;
let mcp: McpTestServer;

beforeAll(async () => {
  polylux = buildPolyluxStyleDeck();
  attached = await attachFiles(polylux, [{ name: "talk.pdfpc", text: polyluxPdfpc() }]);
  beamer = buildDurationDeck();
  t = makeTestApp();
  mcp = await startMcpTestServer();
});
afterAll(async () => {
  t?.close();
  await mcp?.close();
  removeBeamerDecks();
});

const EXPIRY = "The link works once and expires at 2026-11-23T10:00:00Z.";

describe("the handoff record's sentence counts slides as the presenter does", () => {
  test("deckSize: one number where every page is a slide, both where they differ", () => {
    expect(deckSize(1, 1)).toBe("1 slide");
    expect(deckSize(12, 12)).toBe("12 slides");
    expect(deckSize(79, 54)).toBe("79 pages, 54 slides");
    expect(deckSize(2, 1)).toBe("2 pages, 1 slide");
  });

  test("a Beamer deck with a build: its frames by page label", async () => {
    const record = await t.present(beamer, { filename: "Durations.pdf" });
    expect(record.totalSlides).toBe(15);
    expect(record.next).toBe(`Open url in a browser to present "Durations" (15 pages, 3 slides). ${EXPIRY}`);
  });

  test("a Polylux deck with its .pdfpc attached: 31 slides of 40 pages; without it, 40 slides", async () => {
    const grouped = await t.present(attached, { filename: "Polylux talk.pdf" });
    expect(grouped.totalSlides).toBe(40);
    expect(grouped.next).toBe(`Open url in a browser to present "Polylux talk" (40 pages, 31 slides). ${EXPIRY}`);
    const plain = await t.present(polylux, { filename: "Polylux talk.pdf" });
    expect(plain.next).toBe(`Open url in a browser to present "Polylux talk" (40 slides). ${EXPIRY}`);
  });

  test("the .pdfpc beside the PDF (the notes part) groups the slides too", async () => {
    const form = new FormData();
    form.append("file", new Blob([polylux as BlobPart], { type: "application/pdf" }), "Polylux talk.pdf");
    form.append("notes", new Blob([polyluxPdfpc({ notes: { 1: "Welcome" } })], { type: "application/json" }), "talk.pdfpc");
    const res = await t.handle("/api/present", { method: "POST", body: form });
    expect(res.status).toBe(200);
    const record = (await res.json()) as { totalSlides: number; next: string };
    expect(record.totalSlides).toBe(40);
    expect(record.next).toBe(`Open url in a browser to present "Polylux talk" (40 pages, 31 slides, with speaker notes from "talk.pdfpc"). ${EXPIRY}`);
  });

  test("MCP present_pdf says the same", async () => {
    const client = await mcp.connect();
    const result = (await client.callTool({ name: "present_pdf", arguments: { pdf_base64: base64(attached), filename: "Polylux talk.pdf" } })) as CallToolResult;
    const record = result.structuredContent as { totalSlides: number; next: string };
    expect(record.totalSlides).toBe(40);
    expect(record.next).toContain('present "Polylux talk" (40 pages, 31 slides).');
    await client.close();
  });
});
