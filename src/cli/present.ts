/**
 * @module cli/present
 * `deckhand present FILE.pdf [--notes NOTESFILE]`: upload a deck (and the notes file beside it,
 * a .pdfpc or .pptx) to a running server and print the handoff link. The upload is streamed
 * from the files (remote/present-client, shared with `deckhand mcp`).
 */
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { isAppError } from "../base/errors.ts";
import { presentToServer } from "../remote/present-client.ts";
import { DEFAULT_SERVER, resolveServerTarget } from "./server-target.ts";

export const PRESENT_USAGE = `Usage: deckhand present FILE.pdf [--notes NOTESFILE] [--server URL] [--token TOKEN] [--json]
  Uploads FILE.pdf to a running deckhand server (default ${DEFAULT_SERVER}, or DECKHAND_SERVER)
  and prints the handoff link. --notes sends the speaker notes beside it: a .pdfpc file or the
  PowerPoint .pptx the PDF was exported from. --token (or DECKHAND_TOKEN) gives the 7-day lifetime.`;

export async function runPresentCommand(argv: string[], out: (s: string) => void = console.log, err: (s: string) => void = console.error): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { server: { type: "string" }, token: { type: "string" }, json: { type: "boolean" }, notes: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  const target = resolveServerTarget(values, PRESENT_USAGE);
  const path = positionals[0];
  if (!path || positionals.length > 1) {
    err(PRESENT_USAGE);
    return 2;
  }
  for (const file of [path, values.notes]) {
    if (file !== undefined && !(await Bun.file(file).exists())) {
      err(`No such file: ${file}`);
      return 2;
    }
  }
  const notes = values.notes === undefined ? undefined : { kind: "file" as const, path: values.notes, filename: basename(values.notes) };
  try {
    const record = await presentToServer(target, { kind: "file", path }, { filename: basename(path), ...(notes ? { notes } : {}) });
    if (values.json) out(JSON.stringify(record));
    else {
      out(record.url);
      err(record.next);
      for (const warning of record.notes?.warnings ?? []) err(`warning ${warning.code}: ${warning.message}`);
    }
    return 0;
  } catch (error) {
    if (!isAppError(error)) throw error;
    err(`${error.status} ${error.code}: ${error.detail}`);
    return 1;
  }
}
