import { describe, expect, test } from "bun:test";
import { MCP_USAGE, runMcpCommand } from "../../src/cli/mcp.ts";
import { PRESENT_USAGE, runPresentCommand } from "../../src/cli/present.ts";
import { DEFAULT_SERVER, resolveServerTarget } from "../../src/cli/server-target.ts";
import { ConfigError, parseMaxUploadBytes, resolveConfig } from "../../src/base/config.ts";

const MB = 1024 * 1024;

describe("resolveServerTarget: --server and --token of deckhand present and deckhand mcp", () => {
  test("flag, else environment, else the local default; trailing slashes dropped", () => {
    expect(resolveServerTarget({}, "usage", {})).toEqual({ serverUrl: DEFAULT_SERVER, token: null });
    expect(resolveServerTarget({}, "usage", { DECKHAND_SERVER: "https://deck.example/", DECKHAND_TOKEN: "dh_env" })).toEqual({
      serverUrl: "https://deck.example",
      token: "dh_env",
    });
    expect(resolveServerTarget({ server: "http://10.0.0.2:9000//", token: "dh_flag" }, "usage", { DECKHAND_SERVER: "https://deck.example", DECKHAND_TOKEN: "dh_env" })).toEqual({
      serverUrl: "http://10.0.0.2:9000",
      token: "dh_flag",
    });
    // Empty variables count as unset.
    expect(resolveServerTarget({}, "usage", { DECKHAND_SERVER: "", DECKHAND_TOKEN: "" })).toEqual({ serverUrl: DEFAULT_SERVER, token: null });
  });

  test("anything but an http(s) URL is a ConfigError naming --server, followed by the usage", () => {
    for (const server of ["127.0.0.1:8080", "ftp://deck.example", "not a url", ""]) {
      expect(() => resolveServerTarget({ server }, "USAGE LINE", {})).toThrow(ConfigError);
      expect(() => resolveServerTarget({ server }, "USAGE LINE", {})).toThrow(/--server must be an http\(s\) URL[\s\S]*USAGE LINE/);
    }
    expect(() => resolveServerTarget({}, "usage", { DECKHAND_SERVER: "localhost:8080" })).toThrow(ConfigError);
  });

  test("both commands check --server before doing anything", async () => {
    await expect(runPresentCommand(["/no/such/deck.pdf", "--server", "ftp://deck.example"], () => {}, () => {})).rejects.toThrow(PRESENT_USAGE);
    await expect(runMcpCommand(["--server", "localhost:8080"])).rejects.toThrow(MCP_USAGE);
  });
});

describe("--max-upload-mb: one parser for serve and mcp", () => {
  test("the same default and bounds as serve", () => {
    expect(parseMaxUploadBytes(undefined)).toBe(100 * MB);
    expect(parseMaxUploadBytes("0.5")).toBe(0.5 * MB);
    expect(parseMaxUploadBytes("250")).toBe(resolveConfig({ "max-upload-mb": "250" }, {}).maxUploadBytes);
    for (const bad of ["0", "-1", "100001", "lots"]) expect(() => parseMaxUploadBytes(bad)).toThrow('--max-upload-mb must be a number from 0.001 to 100000');
  });

  test("deckhand mcp refuses what serve refuses, with serve's message", async () => {
    for (const bad of ["0", "100001", "x"]) {
      await expect(runMcpCommand(["--max-upload-mb", bad])).rejects.toThrow(`--max-upload-mb must be a number from 0.001 to 100000, got "${bad}"`);
    }
  });
});
