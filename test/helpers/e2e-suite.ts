/**
 * @module test/helpers/e2e-suite
 * The plumbing the browser suites (test/e2e/*.e2e.test.ts) share, so that a suite's file reads
 * as its scenario and not as its set-up: `presentPdf` hands a PDF over the way `deckhand
 * present` or an agent does; `engineSuite` gives a describe block the compiled binary and one
 * browser engine, started before its first test and stopped after its last; `stopSuite` ends a
 * Chromium-only file (its browser sessions, then its server).
 */
import { afterAll, beforeAll, expect } from "bun:test";
import { mkdirSync } from "node:fs";
import type { HandoffRecord } from "../../src/shared/handoff-record.ts";
import type { BrowserSession } from "./browser.ts";
import { launchEngine, type Engine, type EngineName, type EnginePage, type LaunchOptions } from "./engine.ts";
import { startBinary, type BinaryServer } from "./server.ts";

/** What may travel with the PDF in the same request. */
export interface PresentExtra {
  /** A notes file (.pdfpc or .pptx), sent as the multipart part `notes`. */
  notes?: File;
  /** Request headers, e.g. the Bearer token a `--require-auth` server wants. */
  headers?: Record<string, string>;
}

/**
 * `POST /api/present` with `bytes` as `filename`: the handoff record the server answers, whose
 * `url` is the one-time link. It expects a 200 here, since every caller goes on to use the link
 * and a refusal is clearer as a status than as a missing `url` later.
 */
export async function presentPdf(serverUrl: string, bytes: Uint8Array, filename: string, extra: PresentExtra = {}): Promise<HandoffRecord> {
  const form = new FormData();
  form.append("file", new File([bytes as Uint8Array<ArrayBuffer>], filename, { type: "application/pdf" }));
  if (extra.notes) form.append("notes", extra.notes);
  const res = await fetch(`${serverUrl}/api/present`, { method: "POST", body: form, headers: extra.headers });
  expect(res.status).toBe(200);
  return (await res.json()) as HandoffRecord;
}

export interface EngineSuiteOptions {
  /** The describe's screenshot directory, made before its tests. */
  shots: string;
  /** How to launch the engine; a function when it needs a value an earlier beforeAll made. */
  launch: LaunchOptions | (() => LaunchOptions);
  /** Time for the start: the binary and a browser on a loaded two-core machine. */
  timeoutMs: number;
}

/** The binary and the engine of one describe block, there from its first test to its last. */
export interface EngineSuite {
  readonly server: BinaryServer;
  /** `engine.newPage()` opens more windows in the same profile. */
  readonly engine: Engine;
  /**
   * The engine's first window (`engine.page`), already a value where the describe is written,
   * so a suite can name it once (`const presenter = suite.page`) instead of in a beforeAll.
   */
  readonly page: EnginePage;
}

/** A browser with a live socket open takes its time to close. */
const CLOSE_MS = 60_000;

/**
 * Call inside `describe`: registers the beforeAll that starts the binary and launches engine
 * `name`, and the afterAll that closes the engine and then stops the binary (a suite that
 * stopped it itself, to test offline, leaves it to be cleaned up only). Hooks run in the order
 * they are registered, so a describe's own beforeAll placed before this call runs first.
 */
export function engineSuite(name: EngineName, options: EngineSuiteOptions): EngineSuite {
  const suite = {} as { server: BinaryServer; engine: Engine; page: EnginePage };
  suite.page = firstWindowOf(() => suite.engine);
  beforeAll(async () => {
    mkdirSync(options.shots, { recursive: true });
    suite.server = await startBinary();
    suite.engine = await launchEngine(name, typeof options.launch === "function" ? options.launch() : options.launch);
  }, options.timeoutMs);
  afterAll(async () => {
    await suite.engine?.close();
    if (suite.server?.proc.exitCode === null) await suite.server.stop();
    suite.server?.cleanup();
  }, CLOSE_MS);
  return suite;
}

/**
 * A page that passes each call on to the first window of the engine `engine()` returns at the
 * time of the call: the engine exists only once beforeAll has run, after the describe's body.
 */
function firstWindowOf(engine: () => Engine | undefined): EnginePage {
  const page = () => {
    const started = engine();
    if (!started) throw new Error("the engine starts in beforeAll: use suite.page in a test or a hook");
    return started.page;
  };
  return {
    goto: (url) => page().goto(url),
    href: () => page().href(),
    evaluate: (fn, ...args) => page().evaluate(fn, ...args),
    evaluateSource: (source) => page().evaluateSource(source),
    waitFor: (what, fn, args, timeoutMs) => page().waitFor(what, fn, args, timeoutMs),
    press: (chord) => page().press(chord),
    click: (selector) => page().click(selector),
    upload: (selector, path) => page().upload(selector, path),
    resize: (width, height) => page().resize(width, height),
    swipe: (selector, dx) => page().swipe(selector, dx),
    wheel: (selector, deltaY) => page().wheel(selector, deltaY),
    mouse: (steps) => page().mouse(steps),
    screenshot: (path) => page().screenshot(path),
    close: () => page().close(),
  };
}

/**
 * The end of a Chromium-only file: the server's log when it died (the one clue to why its tests
 * failed), every browser session closed, then the server stopped and its directories removed.
 */
export async function stopSuite(server: BinaryServer | undefined, sessions: readonly BrowserSession[]): Promise<void> {
  if (server && server.proc.exitCode !== null) console.error(`deckhand exited with ${server.proc.exitCode}:\n${server.logs()}`);
  for (const s of sessions) await s.close();
  await server?.stop();
  server?.cleanup();
}
