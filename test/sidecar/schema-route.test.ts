import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { schemaController, SCHEMAS } from "../../src/http/schema.ts";
import { validateMediaSidecar, validateNotesSidecar, validatePollSidecar } from "../helpers/report-schema.ts";

const app = schemaController();
const root = join(import.meta.dir, "../../schemas");

describe("GET /schema/:name", () => {
  for (const name of ["check-report.schema.json", "notes-sidecar.schema.json", "media-sidecar.schema.json", "poll-sidecar.schema.json"]) {
    test(`${name} is served as application/schema+json, byte-identical to the file`, async () => {
      const response = await app.handle(new Request(`http://localhost/schema/${name}`));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/schema+json");
      const served = new Uint8Array(await response.arrayBuffer());
      const file = new Uint8Array(readFileSync(join(root, name)));
      expect(served.length).toBe(file.length);
      expect(Buffer.compare(served, file)).toBe(0);
      const schema = JSON.parse(new TextDecoder().decode(served));
      expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(schema.$id).toBe(`https://deckhand.dev/schema/${name}`);
    });
  }

  test("an unknown name is a 404 problem document", async () => {
    const response = await app.handle(new Request("http://localhost/schema/nope.json"));
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const body = await response.json();
    expect(body).toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  test("prototype keys are not schemas", async () => {
    for (const name of ["constructor", "__proto__", "toString"]) {
      const response = await app.handle(new Request(`http://localhost/schema/${name}`));
      expect(response.status).toBe(404);
    }
    expect(Object.keys(SCHEMAS)).toHaveLength(5);
  });
});

describe("sidecar schemas accept the documented examples and reject broken ones", () => {
  test("notes sidecar", () => {
    expect(validateNotesSidecar({ slide: "2", notes: "Say **hi**" })).toBe(true);
    expect(validateNotesSidecar({ notes: { func: "sequence", children: [{ func: "text", text: "a" }] } })).toBe(true);
    expect(validateNotesSidecar({ notes: ["a", { func: "strong", body: { func: "text", text: "b" } }] })).toBe(true);
    expect(validateNotesSidecar({ slide: "2" })).toBe(false);
    expect(validateNotesSidecar({ notes: 3 })).toBe(false);
  });

  test("media sidecar", () => {
    const base = { slide: 3, id: "demo", x_pt: 10, y_pt: 10, w_pt: 100, h_pt: 50 };
    expect(validateMediaSidecar({ ...base, kind: "file", mime: "video/mp4", filename: "media-demo.mp4" })).toBe(true);
    expect(validateMediaSidecar({ ...base, kind: "youtube", video_id: "dQw4w9WgXcQ" })).toBe(true);
    expect(validateMediaSidecar({ ...base, kind: "url", mime: "video/mp4", url: "https://example.org/a.mp4" })).toBe(true);
    expect(validateMediaSidecar({ ...base, kind: "url", mime: "video/mp4", url: "javascript:alert(1)" })).toBe(false);
    expect(validateMediaSidecar({ ...base, kind: "file", mime: "video/mp4", w_pt: 0 })).toBe(false);
    expect(validateMediaSidecar({ ...base, kind: "youtube" })).toBe(false);
  });

  test("poll sidecar", () => {
    const poll = { question: "Tabs or spaces?", options: ["Tabs", "Spaces"] };
    expect(validatePollSidecar(poll)).toBe(true);
    expect(validatePollSidecar({ ...poll, multiple: true, $schema: "/schema/poll-sidecar.schema.json" })).toBe(true);
    expect(validatePollSidecar({ ...poll, options: ["a", "b", "c", "d", "e", "f"] })).toBe(true);
    expect(validatePollSidecar({ ...poll, options: ["Tabs"] })).toBe(false);
    expect(validatePollSidecar({ ...poll, options: ["a", "b", "c", "d", "e", "f", "g"] })).toBe(false);
    expect(validatePollSidecar({ ...poll, options: ["Tabs", "Tabs"] })).toBe(false);
    expect(validatePollSidecar({ ...poll, options: ["Tabs", ""] })).toBe(false);
    expect(validatePollSidecar({ ...poll, options: ["Tabs", "x".repeat(101)] })).toBe(false);
    expect(validatePollSidecar({ ...poll, question: "" })).toBe(false);
    expect(validatePollSidecar({ ...poll, question: "q".repeat(201) })).toBe(false);
    expect(validatePollSidecar({ ...poll, multiple: "yes" })).toBe(false);
    expect(validatePollSidecar({ ...poll, slide: 2 })).toBe(false);
    expect(validatePollSidecar({ options: poll.options })).toBe(false);
  });
});
