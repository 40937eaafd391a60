/**
 * How the phone remote asks for the notes file sent with the deck (client/live/remote/live-notes):
 * the control secret in the x-control-secret header, never in the URL; each answer becomes
 * what the remote does — open with the notes, without them (404, or failures that persist),
 * say the link is no longer valid (401/403) or that the talk ended (410); a failure that may
 * pass (a network error, a 5xx) is tried again.
 */
import { afterEach, expect, test } from "bun:test";
import { liveNotes } from "../../client/src/live/remote/live-notes.ts";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Answer each request with the next of `answers` (an Error is thrown, as a network failure), recording URL and headers. */
function serve(answers: Array<Response | Error>): Array<{ url: string; secret: string | null }> {
  const seen: Array<{ url: string; secret: string | null }> = [];
  globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(input), secret: new Headers(init?.headers).get("x-control-secret") });
    const next = answers.shift()!;
    if (next instanceof Error) throw next;
    return next;
  }) as typeof fetch;
  return seen;
}

const PDFPC = '{"pdfpcFormat":2,"pages":[]}';

test("200: the notes, asked with the secret in a header (the URL carries only the code)", async () => {
  const seen = serve([new Response(PDFPC, { status: 200 })]);
  expect(await liveNotes("K7QX2M", "s3cr3t")).toEqual({ kind: "notes", pdfpc: PDFPC });
  expect(seen).toEqual([{ url: "/api/live/K7QX2M/notes", secret: "s3cr3t" }]);
});

test("401 and 403: refused; 410: ended; 404 and other 4xx: none — each asked once", async () => {
  for (const [status, kind] of [
    [401, "refused"],
    [403, "refused"],
    [410, "ended"],
    [404, "none"],
    [400, "none"],
  ] as const) {
    const seen = serve([new Response("{}", { status })]);
    expect(await liveNotes("K7QX2M", "s")).toEqual({ kind });
    expect(seen).toHaveLength(1);
  }
});

test("a network failure and a 503 are tried again; three failures open without the notes", async () => {
  const recovered = serve([new TypeError("network"), new Response("{}", { status: 503 }), new Response(PDFPC, { status: 200 })]);
  expect(await liveNotes("K7QX2M", "s", 1)).toEqual({ kind: "notes", pdfpc: PDFPC });
  expect(recovered).toHaveLength(3);
  const failing = serve([new TypeError("network"), new TypeError("network"), new Response("{}", { status: 500 })]);
  expect(await liveNotes("K7QX2M", "s", 1)).toEqual({ kind: "none" });
  expect(failing).toHaveLength(3);
});
