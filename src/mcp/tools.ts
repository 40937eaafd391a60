/**
 * @module mcp/tools
 * The two MCP tools as data: names, descriptions written for an agent, input schemas (zod,
 * published as JSON Schema), output schemas (the very JSON Schemas the REST API serves) and
 * annotations. Shared by `/mcp` (HTTP) and `deckhand mcp` (stdio); only the input differs:
 * stdio also takes a local `path` (and `notes_path`). Both take a notes file beside the PDF
 * (`notes_base64` + `notes_filename`), as REST takes the `notes` part.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { HandoffRecordSchema as HandoffRecord } from "../shared/handoff-record.ts";
import { notesFileLimit } from "../tools/upload-limits.ts";
import { formatMegabytes } from "./limits.ts";
import { checkReportOutputSchema } from "./report-schema.ts";

export const PRESENT_PDF = "present_pdf";
export const CHECK_PDF = "check_pdf";

/** Where the tools run: the HTTP endpoint of a server, or the stdio command beside an agent. */
export type ToolSurface =
  | { kind: "http"; maxUploadBytes: number }
  | { kind: "stdio"; maxUploadBytes: number; serverUrl: string };

/** Longest filename accepted; the display title is derived from it (docs/api/mcp.md). */
const MAX_FILENAME_CHARS = 255;

const base64Field = (required: boolean) => {
  const field = z
    .string()
    .describe("The whole PDF file, base64-encoded (standard or URL-safe alphabet; line breaks and a data: URL prefix are accepted).");
  return required ? field : field.optional();
};
const pathField = z
  .string()
  .min(1)
  .optional()
  .describe("Path of a PDF file on this machine (absolute, or relative to where `deckhand mcp` runs). Give either path or pdf_base64.");
const filenameField = (surface: ToolSurface) =>
  z
    .string()
    .max(MAX_FILENAME_CHARS)
    .optional()
    .describe(
      `Name of the deck, e.g. "Q3 review.pdf"; the browser shows it as the title (without .pdf). Default: ${surface.kind === "stdio" ? 'the file name of path, else "presentation"' : '"presentation"'}.`,
    );

const notesBase64Field = (surface: ToolSurface) =>
  z
    .string()
    .optional()
    .describe(
      `Optional notes file beside the PDF, base64-encoded: a .pdfpc file (pdfpc's JSON, format 1 or 2) or a PowerPoint .pptx whose notes slides hold the speaker notes (at most ${formatMegabytes(notesFileLimit(surface.maxUploadBytes))}).${surface.kind === "stdio" ? " Give either notes_path or notes_base64." : ""}`,
    );
const notesPathField = z
  .string()
  .min(1)
  .optional()
  .describe("Path of a notes file on this machine (.pdfpc or .pptx) to go with the PDF. Give either notes_path or notes_base64.");
const notesFilenameField = (surface: ToolSurface) =>
  z
    .string()
    .max(MAX_FILENAME_CHARS)
    .optional()
    .describe(`Name of the notes file, e.g. "talk.pptx" (the bytes decide what it is). Default: ${surface.kind === "stdio" ? 'the file name of notes_path, else "notes"' : '"notes"'}.`);

export function presentInput(surface: ToolSurface) {
  return surface.kind === "http"
    ? z.object({ pdf_base64: base64Field(true), filename: filenameField(surface), notes_base64: notesBase64Field(surface), notes_filename: notesFilenameField(surface) })
    : z.object({
        pdf_base64: base64Field(false),
        path: pathField,
        filename: filenameField(surface),
        notes_base64: notesBase64Field(surface),
        notes_path: notesPathField,
        notes_filename: notesFilenameField(surface),
      });
}

export function checkInput(surface: ToolSurface) {
  return surface.kind === "http"
    ? z.object({ pdf_base64: base64Field(true), notes_base64: notesBase64Field(surface), notes_filename: notesFilenameField(surface) })
    : z.object({ pdf_base64: base64Field(false), path: pathField, notes_base64: notesBase64Field(surface), notes_path: notesPathField, notes_filename: notesFilenameField(surface) });
}


function presentDescription(surface: ToolSurface): string {
  const input =
    surface.kind === "http"
      ? "Pass the PDF as pdf_base64"
      : "Pass the PDF as path (a local file; preferred) or as pdf_base64";
  const limit =
    surface.kind === "http"
      ? `The PDF may be at most ${formatMegabytes(surface.maxUploadBytes)}.`
      : `The deck is uploaded to the deckhand server at ${surface.serverUrl}, which must be running (\`deckhand serve\`); its upload limit applies (100 MB unless configured).`;
  return [
    "Hand a PDF slide deck to the user's web browser so they can present it, offline, with speaker notes and media.",
    `${input}, and a filename to title it.`,
    "The result's url is a one-time handoff link: give it to the user (or open it in their browser) — the first browser that opens it takes the deck, after which the link stops working and the server deletes its copy.",
    `The link expires at expiresAt if nobody opens it: 24 hours, or 7 days ${surface.kind === "http" ? "when this connection carries an access token (Authorization: Bearer)" : "when `deckhand mcp` was started with --token"}.`,
    "Each call stages a new copy and returns a new link; do not call it again for the same deck unless the link was used or expired.",
    limit,
    "If the speaker notes are in a separate file (a .pdfpc, or the PowerPoint .pptx the PDF was exported from), pass it as notes_base64 (with notes_filename) and its notes travel with the deck; a notes file with errors is refused (NOTES_FILE_INVALID / NOTES_FILE_UNREADABLE), warnings are listed in the result's notes.",
    "Run check_pdf first if the deck carries notes or media sidecars.",
  ].join(" ");
}

function checkDescription(surface: ToolSurface): string {
  const input = surface.kind === "http" ? "Pass the PDF as pdf_base64." : "Pass the PDF as path (a local file; preferred) or as pdf_base64.";
  const limit =
    surface.kind === "http"
      ? `The PDF may be at most ${formatMegabytes(surface.maxUploadBytes)}.`
      : `The PDF may be at most ${formatMegabytes(surface.maxUploadBytes)}; the check runs on this machine, no server needed.`;
  return [
    "Check the speaker notes and media attached to a PDF slide deck before presenting it: notes-slide-N.json, media-slide-N-ID.json and poll-slide-N.json sidecars, pdfpc files, in-page note annotations and page-attached audio/video — and a notes file beside the PDF (a .pdfpc or PowerPoint .pptx, passed as notes_base64 with notes_filename), whose findings are in the report's notesFile.",
    "Returns a report: ok is true when nothing is invalid; summary counts valid/warning/invalid attachments; pages[] lists each slide's notes, media and poll with their issues (each issue has a stable code and a message saying what to fix); orphans[] lists attachments nothing uses.",
    "It changes nothing and stores nothing.",
    input,
    limit,
  ].join(" ");
}

/** JSON Schema of a zod input, in the draft-07 dialect every MCP client validates. */
function jsonSchemaOf(schema: z.ZodType): Tool["inputSchema"] {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: "draft-7", io: "input" }) as Record<string, unknown>;
  return rest as Tool["inputSchema"];
}

/**
 * Elysia's `t.Integer` also admits an integer-looking string (for query coercion), written as
 * `anyOf: [{type:"string", format:"integer"}, {type:"integer"}]`. A tool's output is JSON,
 * never coerced: publish the integer branch alone.
 */
function withoutStringCoercion(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutStringCoercion);
  if (!node || typeof node !== "object") return node;
  const object = node as Record<string, unknown>;
  const anyOf = object.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const coercion = anyOf.find((s) => (s as Record<string, unknown>).type === "string" && (s as Record<string, unknown>).format === "integer");
    const integer = anyOf.find((s) => (s as Record<string, unknown>).type === "integer");
    if (coercion && integer) {
      const { anyOf: _, ...rest } = object;
      return { ...rest, ...(integer as object) };
    }
  }
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, withoutStringCoercion(value)]));
}

/** The HandoffRecord of REST, as plain JSON Schema (TypeBox symbols dropped). */
export const handoffOutputSchema = withoutStringCoercion(JSON.parse(JSON.stringify(HandoffRecord))) as Tool["outputSchema"] & object;

export function toolList(surface: ToolSurface): Tool[] {
  return [
    {
      name: PRESENT_PDF,
      title: "Present a PDF deck in the browser",
      description: presentDescription(surface),
      inputSchema: jsonSchemaOf(presentInput(surface)),
      outputSchema: handoffOutputSchema,
      annotations: {
        title: "Present a PDF deck in the browser",
        readOnlyHint: false,
        // It only adds a staged deck; nothing existing is changed or removed.
        destructiveHint: false,
        // Every call stages another copy and mints another link.
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    {
      name: CHECK_PDF,
      title: "Check a PDF deck's notes and media",
      description: checkDescription(surface),
      inputSchema: jsonSchemaOf(checkInput(surface)),
      outputSchema: checkReportOutputSchema,
      annotations: {
        title: "Check a PDF deck's notes and media",
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
  ];
}
