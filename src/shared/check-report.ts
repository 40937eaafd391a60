/**
 * @module shared/check-report
 * The check report's types as the server, the MCP tools and the client's check page speak
 * them. They are generated from schemas/check-report.schema.json into
 * src/deck/check-report.gen.ts (scripts/gen-types.ts, with a test that fails when it is
 * stale); the generated file stays beside the report builder that fills it, and this module is
 * the shared vocabulary's door to it (a type-only re-export: nothing runs).
 */
export type { Attachment, CheckReport, Issue, Page } from "../deck/check-report.gen.ts";
