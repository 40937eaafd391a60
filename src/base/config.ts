/**
 * @module base/config
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
  /** PostgreSQL for rows (`postgres://…`); null: SQLite in the data dir (the embedded default). */
  databaseUrl: string | null;
  /** A bucket for the staged bytes (`s3://bucket/prefix`); null: the data dir. */
  storage: string | null;
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
  /** PDF worker processes (mupdf runs only there, never on the event loop). */
  pdfWorkers: number;
  /** Wall-clock deadline of one PDF job (validate or check), in ms. */
  pdfTimeoutMs: number;
  /** Memory bound of one PDF worker process, in bytes. */
  pdfMemoryBytes: number;
  /** PDF reading time one address may use, in PDF deadlines (pdfTimeoutMs); spent, it is refused for a while (0: never). */
  pdfStrikeLimit: number;
  /** Uploads (present, check, large MCP calls) receiving at once from one address (IPv6: its /64). */
  maxUploadsPerAddress: number;
  /** Uploads receiving at once in total. */
  maxUploads: number;
  /** A request body that sends nothing for this long is abandoned (408), in ms. */
  bodyTimeoutMs: number;
  /** Deadline of one call to PostgreSQL or the S3 bucket (each step of an upload to it), in ms. */
  dependencyTimeoutMs: number;
  /** Browser origins (besides loopback and --base-url) allowed to call /mcp. */
  allowedOrigins: string[];
  /** json: one object per line; pretty: a start-up banner and readable lines; auto: pretty on a terminal. */
  logFormat: LogFormat;
  /** Lifetime of a live session, in ms. */
  liveTtlMs: number;
  /** Viewer sockets one live session admits. */
  maxViewers: number;
  /** Viewer seats of one live session one address (an IPv6 /64) may hold at most (default: half of maxViewers); its share shrinks as the talk fills too. */
  maxViewersPerAddress: number;
  /** Live sockets this instance holds at most; 0: from its file-descriptor limit (src/live/socket-cap.ts). */
  maxLiveSockets: number;
  /** How long a live session waits for its presenter to come back, in ms. */
  livePresenterGraceMs: number;
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
  pdfWorkers: 2,
  pdfTimeoutSeconds: 10,
  pdfMemoryMb: 512,
  // One file past the bounds may be an honest mistake; two at once, or a loop of slow files, is a pattern.
  pdfStrikeLimit: 2,
  // Each upload holds a socket and a temp file; these bound file descriptors and disk
  // bandwidth against a trickle of slow uploads (a browser uploads one deck at a time).
  maxUploadsPerAddress: 4,
  maxUploads: 64,
  bodyTimeoutSeconds: 20,
  // Long enough for one 5 MiB part to a bucket on a slow link; short enough to answer 503 within seconds.
  dependencyTimeoutSeconds: 5,
  liveTtlHours: 12,
  maxViewers: 1000,
  livePresenterGraceMinutes: 15,
} as const;

/** Flags shared by every command that touches the data directory or the server. */
export const SERVE_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  "data-dir": { type: "string" },
  "database-url": { type: "string" },
  storage: { type: "string" },
  "base-url": { type: "string" },
  "trust-proxy": { type: "boolean" },
  "max-upload-mb": { type: "string" },
  "max-staged-gb": { type: "string" },
  "require-auth": { type: "boolean" },
  "rate-limit": { type: "string" },
  "tls-cert": { type: "string" },
  "tls-key": { type: "string" },
  "pdf-workers": { type: "string" },
  "pdf-timeout": { type: "string" },
  "pdf-memory-mb": { type: "string" },
  "pdf-strike-limit": { type: "string" },
  "max-uploads": { type: "string" },
  "max-uploads-per-address": { type: "string" },
  "body-timeout": { type: "string" },
  "dependency-timeout": { type: "string" },
  "allow-origin": { type: "string", multiple: true },
  "log-format": { type: "string" },
  "live-ttl": { type: "string" },
  "max-viewers": { type: "string" },
  "max-viewers-per-address": { type: "string" },
  "max-live-sockets": { type: "string" },
  "live-presenter-grace": { type: "string" },
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

/** `--database-url`: a PostgreSQL URL (the password may be in it: never echo it back). */
function databaseUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  if (!/^postgres(ql)?:\/\/[^\s]+$/.test(raw)) {
    throw new ConfigError("--database-url must be a PostgreSQL URL like postgres://user:password@host:5432/deckhand (or leave it out for SQLite in the data dir).");
  }
  return raw;
}

/** `--storage`: `s3://bucket/prefix` (bucket names as S3 allows them). */
function storage(raw: string | undefined): string | null {
  if (!raw) return null;
  if (!/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(raw)) {
    throw new ConfigError(`--storage must be an S3 location like s3://bucket/prefix (or leave it out for the data dir), got "${raw}".`);
  }
  return raw;
}

/** `--max-upload-mb` (a flag's or DECKHAND_MAX_UPLOAD_MB's text) as bytes; the bounds of every command. */
export function parseMaxUploadBytes(raw: string | undefined): number {
  return Math.floor(number("--max-upload-mb", raw, DEFAULTS.maxUploadMb, 0.001, 100_000) * MB);
}

/** Build the config from parsed flag values (strings/booleans) and the environment. */
function origins(raw: string[]): string[] {
  return raw
    .flatMap((entry) => entry.split(","))
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw new ConfigError(`--allow-origin must be an origin like https://app.example.org, got "${entry}".`);
      }
      if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== entry.replace(/\/$/, "")) {
        throw new ConfigError(`--allow-origin must be an origin like https://app.example.org (scheme, host and port only), got "${entry}".`);
      }
      return url.origin;
    });
}

export function resolveConfig(flags: Record<string, string | boolean | string[] | undefined>, env: Env = process.env): Config {
  const pick = (flag: string, envName: string): string | undefined => {
    const value = flags[flag];
    if (typeof value === "string") return value;
    if (value === true) return "true";
    return env[`DECKHAND_${envName}`];
  };
  const allowOrigin = flags["allow-origin"];
  const tlsCert = pick("tls-cert", "TLS_CERT") ?? null;
  const tlsKey = pick("tls-key", "TLS_KEY") ?? null;
  if ((tlsCert === null) !== (tlsKey === null)) {
    throw new ConfigError("--tls-cert and --tls-key go together: give both or neither.");
  }
  return {
    port: number("--port", pick("port", "PORT"), DEFAULTS.port, 0, 65535),
    host: pick("host", "HOST") || DEFAULTS.host,
    dataDir: resolve(pick("data-dir", "DATA_DIR") || DEFAULTS.dataDir),
    databaseUrl: databaseUrl(pick("database-url", "DATABASE_URL")),
    storage: storage(pick("storage", "STORAGE")),
    baseUrl: baseUrl(pick("base-url", "BASE_URL")),
    trustProxy: bool("--trust-proxy", pick("trust-proxy", "TRUST_PROXY")),
    maxUploadBytes: parseMaxUploadBytes(pick("max-upload-mb", "MAX_UPLOAD_MB")),
    maxStagedBytes: Math.floor(number("--max-staged-gb", pick("max-staged-gb", "MAX_STAGED_GB"), DEFAULTS.maxStagedGb, 0.000001, 1_000_000) * GB),
    requireAuth: bool("--require-auth", pick("require-auth", "REQUIRE_AUTH")),
    rateLimit: number("--rate-limit", pick("rate-limit", "RATE_LIMIT"), DEFAULTS.rateLimit, 0, 1_000_000),
    tlsCert,
    tlsKey,
    pdfWorkers: Math.floor(number("--pdf-workers", pick("pdf-workers", "PDF_WORKERS"), DEFAULTS.pdfWorkers, 1, 64)),
    pdfTimeoutMs: Math.round(number("--pdf-timeout", pick("pdf-timeout", "PDF_TIMEOUT"), DEFAULTS.pdfTimeoutSeconds, 0.1, 3600) * 1000),
    pdfMemoryBytes: Math.floor(number("--pdf-memory-mb", pick("pdf-memory-mb", "PDF_MEMORY_MB"), DEFAULTS.pdfMemoryMb, 128, 1_000_000) * MB),
    pdfStrikeLimit: Math.floor(number("--pdf-strike-limit", pick("pdf-strike-limit", "PDF_STRIKE_LIMIT"), DEFAULTS.pdfStrikeLimit, 0, 1000)),
    maxUploads: Math.floor(number("--max-uploads", pick("max-uploads", "MAX_UPLOADS"), DEFAULTS.maxUploads, 1, 100_000)),
    maxUploadsPerAddress: Math.floor(number("--max-uploads-per-address", pick("max-uploads-per-address", "MAX_UPLOADS_PER_ADDRESS"), DEFAULTS.maxUploadsPerAddress, 1, 100_000)),
    bodyTimeoutMs: Math.round(number("--body-timeout", pick("body-timeout", "BODY_TIMEOUT"), DEFAULTS.bodyTimeoutSeconds, 0.1, 3600) * 1000),
    dependencyTimeoutMs: Math.round(number("--dependency-timeout", pick("dependency-timeout", "DEPENDENCY_TIMEOUT"), DEFAULTS.dependencyTimeoutSeconds, 0.1, 600) * 1000),
    allowedOrigins: origins(Array.isArray(allowOrigin) && allowOrigin.length > 0 ? allowOrigin : env.DECKHAND_ALLOW_ORIGIN ? [env.DECKHAND_ALLOW_ORIGIN] : []),
    logFormat: logFormat(pick("log-format", "LOG_FORMAT")),
    liveTtlMs: Math.round(number("--live-ttl", pick("live-ttl", "LIVE_TTL"), DEFAULTS.liveTtlHours, 0.01, 24 * 365) * 3_600_000),
    maxViewers: Math.floor(number("--max-viewers", pick("max-viewers", "MAX_VIEWERS"), DEFAULTS.maxViewers, 1, 1_000_000)),
    // Half the seats by default: a cap on top of the share that shrinks as the talk fills (live/fair-share.ts), which stops one address at 45% of an empty talk.
    maxViewersPerAddress: Math.floor(number("--max-viewers-per-address", pick("max-viewers-per-address", "MAX_VIEWERS_PER_ADDRESS"), Math.ceil(Math.floor(number("--max-viewers", pick("max-viewers", "MAX_VIEWERS"), DEFAULTS.maxViewers, 1, 1_000_000)) / 2), 1, 1_000_000)),
    maxLiveSockets: Math.floor(number("--max-live-sockets", pick("max-live-sockets", "MAX_LIVE_SOCKETS"), 0, 0, 10_000_000)),
    livePresenterGraceMs: Math.round(number("--live-presenter-grace", pick("live-presenter-grace", "LIVE_PRESENTER_GRACE"), DEFAULTS.livePresenterGraceMinutes, 0.01, 24 * 60) * 60_000),
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
