import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { ConfigError, parseServeArgs, resolveConfig } from "../src/base/config.ts";

const MB = 1024 * 1024;

describe("config", () => {
  test("embedded defaults", () => {
    const config = resolveConfig({}, {});
    expect(config).toEqual({
      port: 8080,
      host: "127.0.0.1",
      dataDir: resolve("./deckhand-data"),
      databaseUrl: null,
      storage: null,
      baseUrl: null,
      trustProxy: false,
      maxUploadBytes: 100 * MB,
      maxStagedBytes: 5 * 1024 * MB,
      requireAuth: false,
      rateLimit: 60,
      tlsCert: null,
      tlsKey: null,
      pdfWorkers: 2,
      pdfTimeoutMs: 10_000,
      pdfMemoryBytes: 512 * MB,
      pdfStrikeLimit: 2,
      maxUploads: 64,
      maxUploadsPerAddress: 4,
      bodyTimeoutMs: 20_000,
      dependencyTimeoutMs: 5_000,
      allowedOrigins: [],
      logFormat: "auto",
      liveTtlMs: 12 * 3_600_000,
      maxViewers: 1000,
      maxViewersPerAddress: 500,
      maxLiveSockets: 0,
      livePresenterGraceMs: 15 * 60_000,
    });
  });

  test("PDF reader and upload concurrency settings, from flags and the environment", () => {
    const env = { DECKHAND_PDF_TIMEOUT: "2.5", DECKHAND_MAX_UPLOADS: "10" };
    expect(parseServeArgs(["--pdf-workers", "3", "--pdf-memory-mb", "256", "--max-uploads-per-address", "2"], env)).toMatchObject({
      pdfWorkers: 3,
      pdfTimeoutMs: 2500,
      pdfMemoryBytes: 256 * MB,
      maxUploads: 10,
      maxUploadsPerAddress: 2,
    });
    expect(() => parseServeArgs(["--pdf-workers", "0"], {})).toThrow(ConfigError);
    // Loading mupdf alone peaks near 105 MB: a smaller bound could never start a worker.
    expect(() => parseServeArgs(["--pdf-memory-mb", "100"], {})).toThrow("--pdf-memory-mb must be a number from 128");
  });

  test("DECKHAND_* environment variables override defaults, flags override both", () => {
    const env = { DECKHAND_PORT: "9000", DECKHAND_HOST: "0.0.0.0", DECKHAND_MAX_UPLOAD_MB: "5", DECKHAND_REQUIRE_AUTH: "true", DECKHAND_BASE_URL: "https://x.example/" };
    const fromEnv = parseServeArgs([], env);
    expect(fromEnv).toMatchObject({ port: 9000, host: "0.0.0.0", maxUploadBytes: 5 * MB, requireAuth: true, baseUrl: "https://x.example" });
    const fromFlags = parseServeArgs(["--port", "9001", "--max-upload-mb", "7", "--data-dir", "/tmp/dh", "--trust-proxy", "--rate-limit", "0"], env);
    expect(fromFlags).toMatchObject({ port: 9001, maxUploadBytes: 7 * MB, dataDir: "/tmp/dh", trustProxy: true, rateLimit: 0, requireAuth: true });
  });

  test("--log-format / DECKHAND_LOG_FORMAT: auto by default, the flag over the variable", () => {
    expect(parseServeArgs([], { DECKHAND_LOG_FORMAT: "pretty" }).logFormat).toBe("pretty");
    expect(parseServeArgs(["--log-format", "json"], { DECKHAND_LOG_FORMAT: "pretty" }).logFormat).toBe("json");
    expect(parseServeArgs(["--log-format", "PRETTY"], {}).logFormat).toBe("pretty");
  });

  test("bad values are refused with a sentence that names the setting", () => {
    expect(() => parseServeArgs(["--port", "http"], {})).toThrow(ConfigError);
    expect(() => parseServeArgs(["--port", "70000"], {})).toThrow(/--port must be a number from 0 to 65535/);
    expect(() => parseServeArgs([], { DECKHAND_REQUIRE_AUTH: "maybe" })).toThrow(/--require-auth must be true or false/);
    expect(() => parseServeArgs(["--base-url", "ftp://x"], {})).toThrow(/http or https/);
    expect(() => parseServeArgs(["--tls-cert", "a.pem"], {})).toThrow(/go together/);
    expect(() => parseServeArgs(["--no-such-flag"], {})).toThrow();
    expect(() => parseServeArgs(["--log-format", "xml"], {})).toThrow(/--log-format must be auto, json or pretty, got "xml"/);
  });
});
