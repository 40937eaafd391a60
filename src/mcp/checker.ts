/**
 * @module mcp/checker
 * The sidecar checker the tools run: the same `checkPdfFile` as POST /api/check.
 */
import { checkPdfFile as checkFile } from "../pdf/check.ts";
import type { CheckFile } from "./check-source.ts";

export const checkPdfFile: CheckFile = async (path, meta) => (await checkFile(path, meta)) as unknown as Record<string, unknown>;
