/**
 * @module mcp/report-schema
 * check_pdf's outputSchema: the check report's published JSON Schema
 * (schemas/check-report.schema.json, embedded in the binary). `$schema` and `$id` are left
 * out: MCP clients validate structuredContent with their own validator (the SDK's is Ajv in
 * its default draft-07 mode), which refuses a 2020-12 meta-schema it does not know and
 * caches by `$id`. The keywords the schema uses mean the same in both drafts.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
// Imported as text, like http/schema.ts: the bundler keeps one form per file, and a JSON
// import of the same file came out as its text in the compiled binary.
import reportSchemaText from "../../schemas/check-report.schema.json" with { type: "text" };

const { $schema: _dialect, $id: _id, ...schema } = JSON.parse(reportSchemaText as unknown as string) as Record<string, unknown>;

export const checkReportOutputSchema = schema as Tool["outputSchema"] & object;
