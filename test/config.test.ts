import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { ConfigError, parseServeArgs, resolveConfig } from "../src/config.ts";

const MB = 1024 * 1024;

describe("config", () => {
  test("embedded defaults", () => {
    const config = resolveConfig({}, {});
    expect(config).toEqual({
      port: 8080,
      host: "127.0.0.1",
      dataDir: resolve("./deckhand-data"),
      baseUrl: null,
      trustProxy: false,
      maxUploadBytes: 100 * MB,
      maxStagedBytes: 5 * 1024 * MB,
      requireAuth: false,
      rateLimit: 60,
      tlsCert: null,
      tlsKey: null,
      logFormat: "auto",
    });
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
