import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (1.2 s), and at least 30 s as it starts processes.
setDefaultTimeout(30_000);

let t: TestApp;
afterEach(() => t?.close());

test("GET /.well-known/mcp.json describes the endpoint, its stateless transport, auth and tools", async () => {
  t = makeTestApp();
  const res = await t.handle("/.well-known/mcp.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("application/json");
  const card = (await res.json()) as Record<string, any>;
  expect(card.serverInfo).toEqual({ name: "deckhand", title: "deckhand", version: t.deps.version });
  expect(card.transport).toEqual({ type: "streamable-http", endpoint: "/mcp", url: "http://deckhand.test/mcp", stateless: true, methods: ["POST"] });
  expect(card.authentication).toMatchObject({ required: false, schemes: ["bearer"] });
  expect(card.tools.map((tool: { name: string }) => tool.name)).toEqual(["present_pdf", "check_pdf"]);
  expect(card.tools[0].outputSchema.required).toContain("url");
  expect(card.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});

test("the card follows --base-url and --require-auth", async () => {
  t = makeTestApp({ baseUrl: "https://decks.example.org", requireAuth: true });
  const card = (await (await t.handle("/.well-known/mcp.json")).json()) as Record<string, any>;
  expect(card.transport.url).toBe("https://decks.example.org/mcp");
  expect(card.authentication.required).toBe(true);
  expect(card.authentication.description).toContain("requires");
});
