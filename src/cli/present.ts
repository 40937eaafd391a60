/**
 * @module cli/present
 * `deckhand present FILE.pdf`: upload a deck to a running server and print the handoff link.
 */
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_SERVER, resolveServerTarget } from "./server-target.ts";

export const PRESENT_USAGE = `Usage: deckhand present FILE.pdf [--server URL] [--token TOKEN] [--json]
  Uploads FILE.pdf to a running deckhand server (default ${DEFAULT_SERVER}, or DECKHAND_SERVER)
  and prints the handoff link. --token (or DECKHAND_TOKEN) gives the 7-day lifetime.`;

export async function runPresentCommand(argv: string[], out: (s: string) => void = console.log, err: (s: string) => void = console.error): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { server: { type: "string" }, token: { type: "string" }, json: { type: "boolean" } },
    allowPositionals: true,
    strict: true,
  });
  const { serverUrl: server, token } = resolveServerTarget(values, PRESENT_USAGE);
  const path = positionals[0];
  if (!path || positionals.length > 1) {
    err(PRESENT_USAGE);
    return 2;
  }
  const file = Bun.file(path);
  if (!(await file.exists())) {
    err(`No such file: ${path}`);
    return 2;
  }
  const form = new FormData();
  form.append("file", file, basename(path));
  let response: Response;
  try {
    response = await fetch(`${server}/api/present`, {
      method: "POST",
      body: form,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  } catch {
    err(`No deckhand server answers at ${server}. Start one with \`deckhand serve\`, or pass --server URL.`);
    return 1;
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!response.ok) {
    err(`${response.status} ${String(body?.code ?? "")}: ${String(body?.detail ?? response.statusText)}`);
    return 1;
  }
  if (values.json) out(JSON.stringify(body));
  else {
    out(String(body?.url));
    err(String(body?.next));
  }
  return 0;
}
