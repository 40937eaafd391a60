import { describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  ClaimFailure,
  cleanedStartUrl,
  decodeFilename,
  EarlyRequest,
  fetchHandoffNotes,
  handoffDownload,
  notesHint,
  parseNotesAnswer,
  parseHandoffLink,
  resumeDecision,
  resumeHeaders,
  screenForProblem,
  screenText,
  type ScreenKind,
} from "../../client/src/lib/handoff.ts";
import { reprDigestToHex, sha256Hex } from "../../client/src/lib/sha256.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (1.1 s).
setDefaultTimeout(15_000);

describe("parseHandoffLink", () => {
  test("reads the id and the token from the fragment", () => {
    expect(parseHandoffLink(new URL("http://h/start/AbC_-12#t=tok"))).toEqual({ id: "AbC_-12", token: "tok", tokenInQuery: false });
  });
  test("accepts ?t= and flags it for removal", () => {
    expect(parseHandoffLink(new URL("http://h/start/abc?t=tok"))).toEqual({ id: "abc", token: "tok", tokenInQuery: true });
  });
  test("a link without a token has token null", () => {
    expect(parseHandoffLink(new URL("http://h/start/abc"))?.token).toBeNull();
  });
  test("other paths are not start links", () => {
    expect(parseHandoffLink(new URL("http://h/present/abc#t=x"))).toBeNull();
    expect(parseHandoffLink(new URL("http://h/start/../x"))).toBeNull();
  });
  test("the cleaned address keeps the token only in the fragment", () => {
    const link = parseHandoffLink(new URL("http://h/start/abc?t=a%2Bb"))!;
    expect(cleanedStartUrl(link, "http://h")).toBe("http://h/start/abc#t=a%2Bb");
  });
});

describe("screenForProblem", () => {
  const cases: [string, number, ScreenKind][] = [
    ["HANDOFF_CLAIMED", 410, "claimed"],
    ["HANDOFF_EXPIRED", 410, "expired"],
    ["SESSION_NOT_FOUND", 404, "not-found"],
    ["TOKEN_INVALID", 403, "token-invalid"],
    ["TOKEN_MISSING", 401, "token-missing"],
    ["CHECKSUM_MISMATCH", 409, "checksum"],
  ];
  for (const [code, status, kind] of cases) {
    test(`${code} shows the ${kind} screen`, () => expect(screenForProblem({ code, status })).toBe(kind));
  }
  test("an unknown code falls back on the status", () => {
    expect(screenForProblem({ status: 410 })).toBe("expired");
    expect(screenForProblem({ status: 500, code: "INTERNAL" })).toBe("server");
  });
  test("dead links offer no retry, transient failures do", () => {
    expect(screenText("claimed").retry).toBe(false);
    expect(screenText("expired").retry).toBe(false);
    expect(screenText("interrupted").retry).toBe(true);
    expect(screenText("storage-quota").retry).toBe(true);
  });
});

describe("resume", () => {
  test("asks for the rest with Range", () => {
    expect(resumeHeaders(0)).toEqual({});
    expect(resumeHeaders(1024)).toEqual({ Range: "bytes=1024-" });
  });
  test("appends a 206 that starts where we stopped", () => {
    expect(resumeDecision(206, "bytes 1024-2047/2048", 1024)).toBe("append");
  });
  test("restarts on a full 200", () => {
    expect(resumeDecision(200, null, 1024)).toBe("restart");
  });
  test("rejects a 206 for the wrong offset", () => {
    expect(resumeDecision(206, "bytes 0-2047/2048", 1024)).toBe("invalid");
    expect(resumeDecision(416, null, 1024)).toBe("invalid");
  });
});

describe("filenames and digests", () => {
  test("decodes X-Filename and strips control characters", () => {
    expect(decodeFilename("Q3%20review%E2%80%94final")).toBe("Q3 review—final");
    expect(decodeFilename("a%0Ab")).toBe("ab");
    expect(decodeFilename("%E0%A4%A")).toBe("presentation");
    expect(decodeFilename(null)).toBe("presentation");
  });

  test("the fallback hasher agrees with crypto.subtle", async () => {
    const data = new Uint8Array(5 * 1024 * 1024).map((_, i) => i * 31);
    expect(await sha256Hex(data, { forceFallback: true })).toBe(await sha256Hex(data));
    expect(await sha256Hex(new TextEncoder().encode("abc"), { forceFallback: true })).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  test("Repr-Digest is decoded to hex", () => {
    const hex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    const b64 = Buffer.from(hex, "hex").toString("base64");
    expect(reprDigestToHex(`sha-256=:${b64}:`)).toBe(hex);
    expect(reprDigestToHex("md5=:abc:")).toBeNull();
    expect(reprDigestToHex(null)).toBeNull();
  });
});

describe("streaming digest", () => {
  test("chunks fed as they arrive give the digest of the whole", async () => {
    const { StreamingSha256 } = await import("../../client/src/lib/sha256.ts");
    const data = new Uint8Array(300_000).map((_, i) => (i * 7) & 255);
    const streaming = new StreamingSha256();
    for (let i = 0; i < data.length; i += 65_536) streaming.update(data.subarray(i, i + 65_536));
    expect(streaming.hex()).toBe(await sha256Hex(data));
  });
});

describe("the deck's notes file at claim", () => {
  const PDFPC = JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 0, label: "1", overlay: 0, note: "Welcome **all**" }, { idx: 1, label: "2", overlay: 0, note: "Numbers" }] });
  type Call = { url: string; init: RequestInit | undefined };

  /** A fetch that answers one canned response and records what it was asked. */
  function fakeFetch(answer: Response | Error): { fetcher: typeof fetch; calls: Call[] } {
    const calls: Call[] = [];
    const fetcher = (async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      if (answer instanceof Error) throw answer;
      return answer;
    }) as unknown as typeof fetch;
    return { fetcher, calls };
  }

  const failure = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => e as ClaimFailure);

  test("the download's X-Notes hint: said yes, said no, or not said (then the route is asked)", () => {
    expect(notesHint(null)).toBeNull();
    expect(notesHint("")).toBeNull();
    expect(notesHint("none")).toBe(false);
    expect(notesHint("0")).toBe(false);
    expect(notesHint("pptx")).toBe(true);
    expect(notesHint("1")).toBe(true);
  });

  test("asks GET /api/sessions/{id}/notes with the controller token in a header, never in the URL", async () => {
    const { fetcher, calls } = fakeFetch(new Response(PDFPC, { status: 200, headers: { "content-type": "application/json", "x-notes-filename": "Q3%20talk.pptx", "x-notes-kind": "pptx" } }));
    const notes = await fetchHandoffNotes(fetcher, "sess_1", "secret-token", null);
    expect(notes).toEqual({ filename: "Q3 talk.pptx", kind: "pptx", pdfpc: PDFPC });
    expect(calls.length).toBe(1);
    expect(calls[0]!.url).toBe("/api/sessions/sess_1/notes");
    expect(calls[0]!.url).not.toContain("secret-token");
    expect((calls[0]!.init!.headers as Record<string, string>)["x-controller-token"]).toBe("secret-token");
    expect(calls[0]!.init!.credentials).toBe("omit");
    expect(calls[0]!.init!.method ?? "GET").toBe("GET");
  });

  test("204 means the deck came without notes; a hint of none asks nothing", async () => {
    const none = fakeFetch(new Response(null, { status: 204 }));
    expect(await fetchHandoffNotes(none.fetcher, "s", "t", true)).toBeUndefined();
    expect(none.calls.length).toBe(1);
    const skipped = fakeFetch(new Error("must not be called"));
    expect(await fetchHandoffNotes(skipped.fetcher, "s", "t", false)).toBeUndefined();
    expect(skipped.calls.length).toBe(0);
  });

  test("a dead or wrong link while fetching notes shows that link's screen", async () => {
    const problem = (status: number, code: string) => new Response(JSON.stringify({ status, code, title: code }), { status, headers: { "content-type": "application/problem+json" } });
    const cases: [number, string, string][] = [
      [410, "HANDOFF_CLAIMED", "claimed"],
      [410, "HANDOFF_EXPIRED", "expired"],
      [403, "TOKEN_INVALID", "token-invalid"],
      [404, "SESSION_NOT_FOUND", "not-found"],
    ];
    for (const [status, code, kind] of cases) {
      const error = await failure(fetchHandoffNotes(fakeFetch(problem(status, code)).fetcher, "s", "t", null));
      expect(error).toBeInstanceOf(ClaimFailure);
      expect({ code, kind: error!.kind, problemCode: error!.problem?.code }).toEqual({ code, kind: kind as never, problemCode: code });
    }
  });

  test("a network failure, a server error or an unreadable answer stops the claim with a retry", async () => {
    const offline = await failure(fetchHandoffNotes(fakeFetch(new TypeError("Failed to fetch")).fetcher, "s", "t", true));
    expect(offline?.kind).toBe("offline");
    const broken = await failure(fetchHandoffNotes(fakeFetch(new Response(JSON.stringify({ code: "INTERNAL", status: 500 }), { status: 500 })).fetcher, "s", "t", true));
    expect(broken?.kind).toBe("notes");
    const garbage = await failure(fetchHandoffNotes(fakeFetch(new Response("<html>proxy error</html>", { status: 200 })).fetcher, "s", "t", true));
    expect(garbage?.kind).toBe("notes");
    const notPdfpc = await failure(fetchHandoffNotes(fakeFetch(new Response(JSON.stringify({ hello: 1 }), { status: 200 })).fetcher, "s", "t", true));
    expect(notPdfpc?.kind).toBe("notes");
    for (const kind of ["notes", "offline"] as const) expect(screenText(kind).retry).toBe(true);
    expect(screenText("notes").message).toContain("Nothing was used up");
  });

  test("the answer may be the .pdfpc itself (name and kind in headers) or one JSON object with all three", () => {
    expect(parseNotesAnswer(PDFPC, { filename: null, kind: null })).toEqual({ filename: "notes.pdfpc", kind: "pdfpc", pdfpc: PDFPC });
    expect(parseNotesAnswer(PDFPC, { filename: "talk.pdfpc", kind: "pdfpc" })).toEqual({ filename: "talk.pdfpc", kind: "pdfpc", pdfpc: PDFPC });
    // An unknown kind is stored as what it now is: a .pdfpc.
    expect(parseNotesAnswer(PDFPC, { filename: "x", kind: "keynote" })?.kind).toBe("pdfpc");
    const wrapped = JSON.stringify({ filename: "deck notes.pptx", kind: "pptx", pdfpc: PDFPC });
    expect(parseNotesAnswer(wrapped, { filename: null, kind: null })).toEqual({ filename: "deck notes.pptx", kind: "pptx", pdfpc: PDFPC });
    // A name with control characters is cleaned like the deck's own name.
    expect(parseNotesAnswer(PDFPC, { filename: "a%0Ab.pdfpc", kind: "pdfpc" })?.filename).toBe("ab.pdfpc");
    expect(parseNotesAnswer("[1,2]", { filename: null, kind: null })).toBeNull();
    expect(parseNotesAnswer("null", { filename: null, kind: null })).toBeNull();
    expect(parseNotesAnswer(JSON.stringify({ pdfpc: "not json" }), { filename: null, kind: null })).toBeNull();
  });
});

describe("handoffDownload (the token never in a URL a proxy logs)", () => {
  test("sends the controller token in x-controller-token, not in the query string", () => {
    const first = handoffDownload("/api/sessions/abc/handoff", "s3cr3t-token", 0);
    expect(first.url).toBe("/api/sessions/abc/handoff");
    expect(first.url).not.toContain("s3cr3t-token");
    expect(first.init.headers).toEqual({ "x-controller-token": "s3cr3t-token" });
    expect(first.init).toMatchObject({ cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer" });
  });
  test("a resumed download keeps its Range beside the token", () => {
    expect(handoffDownload("/api/sessions/abc/handoff", "tok", 1024).init.headers).toEqual({ Range: "bytes=1024-", "x-controller-token": "tok" });
  });
  test("the start page downloads through it (no ?t= left in its fetch)", async () => {
    const source = await Bun.file(new URL("../../client/src/pages/start.ts", import.meta.url)).text();
    expect(source).toContain("handoffDownload(");
    expect(source).not.toMatch(/\?t=\$\{/);
  });
});

describe("EarlyRequest (the claim's notes, asked for with the download)", () => {
  test("started early and taken later, it asks once", async () => {
    let asked = 0;
    const early = new EarlyRequest(async () => ++asked);
    early.start();
    early.start();
    expect(asked).toBe(1);
    expect(await early.take()).toBe(1);
    expect(await early.take()).toBe(1);
    expect(asked).toBe(1);
  });
  test("taken without a start, it asks then", async () => {
    let asked = 0;
    const early = new EarlyRequest(async () => ++asked);
    expect(await early.take()).toBe(1);
  });
  test("a failure reaches the taker, and the retry asks again", async () => {
    let asked = 0;
    const early = new EarlyRequest(async () => {
      asked++;
      if (asked === 1) throw new ClaimFailure("notes");
      return "notes";
    });
    early.start();
    // Nothing unhandled while nobody waits: the failure is kept for take().
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(early.take()).rejects.toBeInstanceOf(ClaimFailure);
    expect(await early.take()).toBe("notes");
    expect(asked).toBe(2);
  });
});
