import { describe, expect, test } from "bun:test";
import { jsonLogger, prettyLogger, resolveLogFormat } from "../src/base/log.ts";

describe("log formats", () => {
  test("auto is pretty on a terminal and JSON otherwise; json and pretty are forced either way", () => {
    expect(resolveLogFormat("auto", true)).toBe("pretty");
    expect(resolveLogFormat("auto", false)).toBe("json");
    expect(resolveLogFormat("json", true)).toBe("json");
    expect(resolveLogFormat("pretty", false)).toBe("pretty");
  });

  test("json: one parseable object per line with time, level and event", () => {
    const lines: string[] = [];
    const log = jsonLogger((line) => lines.push(line));
    log.info("request", { method: "GET", path: "/healthz", status: 200 });
    log.error("boom", { message: "bad" });
    expect(lines.every((l) => l.endsWith("\n") && l.indexOf("\n") === l.length - 1)).toBe(true);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "info", event: "request", method: "GET", path: "/healthz", status: 200 });
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: "error", event: "boom", message: "bad" });
  });

  test("pretty: a request as `time METHOD path status ms id`, other events as key=value, errors with their stack", () => {
    const lines: string[] = [];
    const log = prettyLogger((line) => lines.push(line), { color: false });
    log.info("request", { requestId: "0123456789abcdef", method: "POST", path: "/api/present", status: 413, ms: 3.5 });
    log.info("sweep", { expired: 2, note: "two words" });
    log.error("request_failed", { message: "disk full", stack: "Error: disk full\n    at stage" });
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d POST \/api\/present 413 3\.5 ms 0123456789abcdef\n$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d sweep expired=2 note="two words"\n$/);
    expect(lines[2]).toMatch(/^\d\d:\d\d:\d\d error request_failed message="disk full"\n$/);
    expect(lines[3]).toBe("Error: disk full\n    at stage\n");
    expect(lines.join("")).not.toContain("\x1b[");
    const coloured: string[] = [];
    prettyLogger((line) => coloured.push(line), { color: true }).info("request", { requestId: "x", method: "GET", path: "/", status: 500, ms: 1 });
    expect(coloured[0]).toContain("\x1b[31m500\x1b[0m");
  });
});
