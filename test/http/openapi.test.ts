import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { makeTestApp } from "../helpers/app.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (1.6 s).
setDefaultTimeout(20_000);

const t = makeTestApp();
const scratch = mkdtempSync(join(tmpdir(), "deckhand-openapi-"));
afterAll(() => {
  t.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function fetchDocument(): Promise<Record<string, any>> {
  const res = await t.handle("/openapi.json");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  return (await res.json()) as Record<string, any>;
}

describe("GET /openapi.json", () => {
  test("declares OpenAPI 3.1.0 and interface version 1.0.0", async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.0.0");
  });

  test("documents every route of the spec with its real shapes", async () => {
    const doc = await fetchDocument();
    const present = doc.paths["/api/present"].post;
    const form = present.requestBody.content["multipart/form-data"].schema;
    expect(form.required).toEqual(["file"]);
    expect(form.properties.file).toMatchObject({ type: "string", format: "binary" });
    expect(present.security).toContainEqual({ bearerAuth: [] });
    expect(present.responses["200"].content["application/json"].schema.required).toEqual(
      expect.arrayContaining(["id", "url", "filename", "totalSlides", "next"]),
    );
    for (const status of ["400", "401", "413", "415", "422", "429", "507"]) {
      expect(present.responses[status].content["application/problem+json"].schema.$ref).toBe("#/components/schemas/Problem");
    }
    const download = doc.paths["/api/sessions/{id}/handoff"].get;
    expect(download.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(
      expect.arrayContaining(["path:id", "query:t"]),
    );
    expect(Object.keys(download.responses["200"].content)).toEqual(["application/pdf"]);
    expect(download.security).toEqual([{ controllerTokenQuery: [] }]);
    const complete = doc.paths["/api/sessions/{id}/handoff/complete"].post;
    expect(complete.security).toEqual([{ controllerTokenHeader: [] }]);
    expect(complete.responses["200"].content["application/json"].schema.properties.ok.type).toBe("boolean");
    expect(complete.responses["409"]).toBeDefined();
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.schemas.Problem.properties.code).toBeDefined();
    // The browser client's pages are not part of the REST interface.
    expect(Object.keys(doc.paths).every((p) => /^\/(api\/|healthz|mcp|schema\/|\.well-known\/)/.test(p))).toBe(true);
  });

  test("documents the notes file beside the PDF: the notes part, the notes route, its problem codes", async () => {
    const doc = await fetchDocument();
    for (const path of ["/api/present", "/api/check"]) {
      const operation = doc.paths[path].post;
      const form = operation.requestBody.content["multipart/form-data"].schema;
      expect(form.properties.notes).toMatchObject({ type: "string", format: "binary" });
      expect(form.required).not.toContain("notes");
      expect(operation.description).toContain("notes");
      expect(operation.responses["413"].description).toContain("NOTES_FILE_TOO_LARGE");
    }
    const present = doc.paths["/api/present"].post;
    expect(present.responses["422"].description).toContain("NOTES_FILE_UNREADABLE");
    expect(present.responses["422"].description).toContain("NOTES_FILE_INVALID");
    const record = present.responses["200"].content["application/json"].schema;
    const recordSchema = record.$ref ? doc.components.schemas[record.$ref.split("/").pop()] : record;
    expect(recordSchema.properties.notes.properties.kind).toBeDefined();
    expect(recordSchema.required).not.toContain("notes");
    const notes = doc.paths["/api/sessions/{id}/notes"].get;
    expect(notes.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual(expect.arrayContaining(["path:id", "query:t", "header:x-controller-token"]));
    expect(notes.responses["200"].content["application/json"].schema.$ref).toBe("#/components/schemas/PdfpcNotes");
    expect(notes.responses["200"].headers["X-Notes-Kind"]).toBeDefined();
    expect(Object.keys(notes.responses).sort()).toEqual(["200", "204", "401", "403", "404", "410", "500"]);
    expect(doc.components.schemas.PdfpcNotes.properties.pdfpcFormat).toBeDefined();
    expect(doc.components.schemas.Problem.properties.code.anyOf.map((c: { const: string }) => c.const)).toEqual(
      expect.arrayContaining(["NOTES_FILE_TOO_LARGE", "NOTES_FILE_UNREADABLE", "NOTES_FILE_INVALID"]),
    );
  });

  test("is valid for @apidevtools/swagger-parser", async () => {
    const doc = await fetchDocument();
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  test("passes `redocly lint` with zero errors", async () => {
    const path = join(scratch, "openapi.json");
    writeFileSync(path, JSON.stringify(await fetchDocument()));
    const bin = join(import.meta.dir, "..", "..", "node_modules", ".bin", "redocly");
    const proc = Bun.spawnSync([bin, "lint", path, "--format", "json"], {
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_UPDATE_NOTIFIER: "1" },
      stdout: "pipe",
      stderr: "pipe",
      timeout: 120_000,
    });
    const out = proc.stdout.toString();
    const report = JSON.parse(out.slice(out.indexOf("{"))) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    expect({ errors: report.totals.errors, problems: report.totals.errors ? report.problems : [] }).toEqual({ errors: 0, problems: [] });
    expect(proc.exitCode).toBe(0);
  }, 120_000);
});

describe("GET /docs", () => {
  test("serves interactive docs that load only same-origin scripts", async () => {
    const res = await t.handle("/docs");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('data-url="/openapi.json"');
    expect(html).toContain('src="/docs/scalar.js"');
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    const script = await t.handle("/docs/scalar.js");
    expect(script.status).toBe(200);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});
