/**
 * @module cli/healthcheck
 * `deckhand healthcheck`: ask the server on this machine for /healthz and exit 0 only when it
 * answers `{"status":"ok"}`. A container built FROM scratch has no curl or wget, so its
 * HEALTHCHECK runs the binary itself. It reads the same flags and DECKHAND_* variables as
 * `serve`, so in a container it finds the server from the environment they share.
 */
import { parseArgs } from "node:util";
import { resolveConfig, SERVE_OPTIONS } from "../base/config.ts";

export const HEALTHCHECK_USAGE = `Usage: deckhand healthcheck [--url URL] [--timeout S] [serve options]

Exits 0 when the deckhand server answers GET /healthz with {"status":"ok"}, 1 otherwise
(with the reason on stderr). Without --url it asks the server that \`deckhand serve\` would
start with the same options and DECKHAND_* variables: 127.0.0.1 (or ::1) when that server
binds every address, https when --tls-cert is set (the certificate is not checked: it is
this machine's own server).

  --url URL      the health URL to ask instead
  --timeout S    seconds to wait for the answer (5)`;

/** Bound on one check: a health probe that hangs is a failed probe. */
const DEFAULT_TIMEOUT_S = 5;

export async function runHealthcheckCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { ...SERVE_OPTIONS, url: { type: "string" }, timeout: { type: "string" } }, strict: true });
  const { url: explicit, timeout, ...serveFlags } = values;
  const config = resolveConfig(serveFlags);
  const host = config.host === "0.0.0.0" || config.host === "" ? "127.0.0.1" : config.host === "::" ? "[::1]" : config.host.includes(":") ? `[${config.host}]` : config.host;
  const url = explicit ?? `${config.tlsCert ? "https" : "http"}://${host}:${config.port}/healthz`;
  const seconds = Number(timeout ?? DEFAULT_TIMEOUT_S);
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(seconds * 1000), tls: { rejectUnauthorized: false } });
    const body = (await response.json().catch(() => null)) as { status?: unknown } | null;
    if (response.status === 200 && body?.status === "ok") return 0;
    console.error(`deckhand healthcheck: ${url} answered ${response.status} ${JSON.stringify(body)}`);
  } catch (error) {
    console.error(`deckhand healthcheck: ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return 1;
}
