import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { BINARY, freePort, scratch } from "../helpers/server.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (3.1 s).
setDefaultTimeout(45_000);

const suite = scratch();
afterAll(() => suite.cleanup());

function healthcheck(env: Record<string, string>, ...args: string[]) {
  const result = Bun.spawnSync([BINARY, "healthcheck", ...args], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, stdout: "pipe", stderr: "pipe" });
  return { code: result.exitCode, stderr: result.stderr.toString() };
}

describe("deckhand healthcheck", () => {
  test("exits 0 for the server that serve's own variables describe (0.0.0.0 is asked on 127.0.0.1), 1 with the reason otherwise", async () => {
    const server = await suite.start({ args: ["--host", "0.0.0.0"] });
    expect(healthcheck({ DECKHAND_HOST: "0.0.0.0", DECKHAND_PORT: String(server.port) })).toEqual({ code: 0, stderr: "" });
    expect(healthcheck({}, "--port", String(server.port))).toEqual({ code: 0, stderr: "" });
    const closed = await freePort();
    const down = healthcheck({}, "--port", String(closed), "--timeout", "2");
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`deckhand healthcheck: http://127.0.0.1:${closed}/healthz`);
    const wrong = healthcheck({}, "--url", `${server.url}/openapi.json`);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("answered 200");
  });
});
