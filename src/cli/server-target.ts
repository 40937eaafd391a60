/**
 * @module cli/server-target
 * The deckhand server a client command talks to (`deckhand present`, `deckhand mcp`):
 * `--server` (else DECKHAND_SERVER, else the local default) and `--token` (else
 * DECKHAND_TOKEN), with the URL checked before anything is sent.
 */
import { ConfigError } from "../base/config.ts";

export const DEFAULT_SERVER = "http://127.0.0.1:8080";

export interface ServerTarget {
  /** Base URL without a trailing slash. */
  serverUrl: string;
  /** Access token for `Authorization: Bearer`, or null. */
  token: string | null;
}

type Env = Record<string, string | undefined>;

/** Resolve and check the target; a bad URL is a ConfigError (exit 2) that ends with `usage`. */
export function resolveServerTarget(flags: { server?: string; token?: string }, usage: string, env: Env = process.env): ServerTarget {
  // An empty variable counts as unset.
  const raw = flags.server ?? (env.DECKHAND_SERVER || DEFAULT_SERVER);
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new ConfigError(`--server must be an http(s) URL such as ${DEFAULT_SERVER}, got "${raw}".\n${usage}`);
  }
  return { serverUrl: raw.replace(/\/+$/, ""), token: flags.token || env.DECKHAND_TOKEN || null };
}
