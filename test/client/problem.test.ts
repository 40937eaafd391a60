import { describe, expect, test } from "bun:test";
import { readProblem } from "../../client/src/lib/problem.ts";

describe("readProblem: a refusal as the browser client reads it", () => {
  test("a problem document keeps its fields; the status is the response's", async () => {
    const body = { type: "https://deckhand.dev/problems/handoff-claimed", title: "Handoff already claimed", status: 999, detail: "Open the deck from your library.", code: "HANDOFF_CLAIMED" };
    const problem = await readProblem(new Response(JSON.stringify(body), { status: 410, headers: { "content-type": "application/problem+json" } }));
    expect(problem).toEqual({ ...body, status: 410 });
  });

  test("a body that is not JSON (a proxy's error page) gives the status alone", async () => {
    expect(await readProblem(new Response("<html>Bad gateway</html>", { status: 502 }))).toEqual({ status: 502 });
    expect(await readProblem(new Response(null, { status: 503 }))).toEqual({ status: 503 });
  });
});
