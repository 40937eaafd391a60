/**
 * @module config
 * One typed configuration: command-line flags win over `DECKHAND_*` environment variables,
 * which win over the defaults below. Behaviour is decided here, never from NODE_ENV (it is
 * frozen at compile time inside the binary).
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Public base URL for handoff links; null = derive from the request. */
  baseUrl: string | null;
  /** Honour X-Forwarded-Proto/Host/For from a reverse proxy. */
  trustProxy: boolean;
  maxUploadBytes: number;
  maxStagedBytes: number;
  requireAuth: boolean;
  /** Anonymous uploads (present + check) per minute per address; 0 disables the limit. */
  rateLimit: number;
  tlsCert: string | null;
  tlsKey: string | null;
  /** json: one object per line; pretty: a start-up banner and readable lines; auto: pretty on a terminal. */
  logFormat: LogFormat;
}

export const LOG_FORMATS = ["auto", "json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const DEFAULTS = {
  port: 8080,
  host: "127.0.0.1",
  dataDir: "./deckhand-data",
  maxUploadMb: 100,
  maxStagedGb: 5,
  rateLimit: 60,
} as const;

/** Flags shared by every command that touches the data directory or the server. */
export const SERVE_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  "data-dir": { type: "string" },
  "base-url": { type: "string" },
  "trust-proxy": { type: "boolean" },
  "max-upload-mb": { type: "string" },
  "max-staged-gb": { type: "string" },
  "require-auth": { type: "boolean" },
  "rate-limit": { type: "string" },
  "tls-cert": { type: "string" },
  "tls-key": { type: "string" },
  "log-format": { type: "string" },
} as const;

export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

function number(name: string, raw: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

function bool(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === "") return false;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}".`);
}

function logFormat(raw: string | undefined): LogFormat {
  if (raw === undefined || raw === "") return "auto";
  const value = raw.toLowerCase();
  if (!(LOG_FORMATS as readonly string[]).includes(value)) throw new ConfigError(`--log-format must be auto, json or pretty, got "${raw}".`);
  return value as LogFormat;
}

function baseUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`--base-url must be an absolute http(s) URL, got "${raw}".`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`--base-url must use http or https, got "${raw}".`);
  }
  return url.href.replace(/\/+$/, "");
}

/** `--max-upload-mb` (a flag's or DECKHAND_MAX_UPLOAD_MB's text) as bytes; the bounds of every command. */
export function parseMaxUploadBytes(raw: string | undefined): number {
  return Math.floor(number("--max-upload-mb", raw, DEFAULTS.maxUploadMb, 0.001, 100_000) * MB);
}

/** Build the config from parsed flag values (strings/booleans) and the environment. */
export function resolveConfig(flags: Record<string, string | boolean | undefined>, env: Env = process.env): Config {
  const pick = (flag: string, envName: string): string | undefined => {
    const value = flags[flag];
    if (typeof value === "string") return value;
    if (value === true) return "true";
    return env[`DECKHAND_${envName}`];
  };
  const tlsCert = pick("tls-cert", "TLS_CERT") ?? null;
  const tlsKey = pick("tls-key", "TLS_KEY") ?? null;
  if ((tlsCert === null) !== (tlsKey === null)) {
    throw new ConfigError("--tls-cert and --tls-key go together: give both or neither.");
  }
  return {
    port: number("--port", pick("port", "PORT"), DEFAULTS.port, 0, 65535),
    host: pick("host", "HOST") || DEFAULTS.host,
    dataDir: resolve(pick("data-dir", "DATA_DIR") || DEFAULTS.dataDir),
    baseUrl: baseUrl(pick("base-url", "BASE_URL")),
    trustProxy: bool("--trust-proxy", pick("trust-proxy", "TRUST_PROXY")),
    maxUploadBytes: parseMaxUploadBytes(pick("max-upload-mb", "MAX_UPLOAD_MB")),
    maxStagedBytes: Math.floor(number("--max-staged-gb", pick("max-staged-gb", "MAX_STAGED_GB"), DEFAULTS.maxStagedGb, 0.000001, 1_000_000) * GB),
    requireAuth: bool("--require-auth", pick("require-auth", "REQUIRE_AUTH")),
    rateLimit: number("--rate-limit", pick("rate-limit", "RATE_LIMIT"), DEFAULTS.rateLimit, 0, 1_000_000),
    tlsCert,
    tlsKey,
    logFormat: logFormat(pick("log-format", "LOG_FORMAT")),
  };
}

/** Parse serve-style flags from argv (after the command word). Unknown flags are an error. */
export function parseServeArgs(argv: string[], env: Env = process.env): Config {
  const { values } = parseArgs({ args: argv, options: SERVE_OPTIONS, strict: true, allowPositionals: false });
  return resolveConfig(values, env);
}

/** A config for tests and embedding: defaults with overrides, no env or argv involved. */
export function testConfig(overrides: Partial<Config> & { dataDir: string }): Config {
  return { ...resolveConfig({}, {}), ...overrides };
}
