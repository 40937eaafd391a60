/**
 * @module binary/schemas
 * The JSON Schemas under schemas/, embedded as exact text so the compiled binary needs no
 * files beside it and serves them byte-identical. Always import them from here: the bundler
 * keeps one form per file, and a `type: "json"` import of the same file elsewhere came out
 * as its text in the compiled binary.
 */
// `type: "text"` embeds the exact bytes; TypeScript still types a .json import as its value.
import checkReportText from "../../schemas/check-report.schema.json" with { type: "text" };
import mediaSidecarText from "../../schemas/media-sidecar.schema.json" with { type: "text" };
import notesSidecarText from "../../schemas/notes-sidecar.schema.json" with { type: "text" };
import pollSidecarText from "../../schemas/poll-sidecar.schema.json" with { type: "text" };
import { LiveMessage } from "../shared/live-protocol.ts";

/**
 * The live WebSocket protocol's schema is generated from its TypeBox definitions (the server
 * validates with the same ones), so it cannot drift from what the server accepts. Serialised
 * on first read, not at every start (cold start: docs/performance.md).
 */
let liveMessageText: string | undefined;

/** name → exact file text. Names are the file names under schemas/. */
export const SCHEMAS: Readonly<Record<string, string>> = Object.freeze({
  "check-report.schema.json": checkReportText as unknown as string,
  "notes-sidecar.schema.json": notesSidecarText as unknown as string,
  "media-sidecar.schema.json": mediaSidecarText as unknown as string,
  "poll-sidecar.schema.json": pollSidecarText as unknown as string,
  get "live-message.schema.json"(): string {
    return (liveMessageText ??= JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", ...LiveMessage }, null, 2));
  },
});

let checkReport: Readonly<Record<string, unknown>> | undefined;

/** The check report's JSON Schema (2020-12), parsed on first use. */
export function checkReportSchema(): Readonly<Record<string, unknown>> {
  return (checkReport ??= JSON.parse(SCHEMAS["check-report.schema.json"]!) as Record<string, unknown>);
}
