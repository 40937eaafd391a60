/**
 * @module mcp/report-schema
 * check_pdf's outputSchema: the check report's published JSON Schema
 * (schemas/check-report.schema.json, embedded in the binary). `$schema` and `$id` are left
 * out: MCP clients validate structuredContent with their own validator (the SDK's is Ajv in
 * its default draft-07 mode), which refuses a 2020-12 meta-schema it does not know and
 * caches by `$id`. The keywords the schema uses mean the same in both drafts.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { checkReportSchema } from "../binary/schemas.ts";

const { $schema: _dialect, $id: _id, ...schema } = checkReportSchema();

export const checkReportOutputSchema = schema as Tool["outputSchema"] & object;
