/**
 * deploy/systemd/deckhand.service: systemd itself accepts it (`systemd-analyze verify`), its
 * hardening rates "OK" or better (`systemd-analyze security --offline`), and the settings it
 * passes in Environment= start the real binary as docs/operating/deploy.md says (127.0.0.1, behind a
 * proxy, tokens required). This machine runs no systemd, so the unit is not started by
 * systemd here. Fails when systemd-analyze is missing.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, scratch } from "../helpers/server.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (0.7 s), and at least 90 s as it starts processes (a start may take 45 s, test/helpers/server.ts).
setDefaultTimeout(90_000);

const unitPath = join(import.meta.dir, "..", "..", "deploy", "systemd", "deckhand.service");
const unit = readFileSync(unitPath, "utf8");
const suite = scratch();
afterAll(() => suite.cleanup());

function analyze(...args: string[]): { code: number | null; output: string } {
  if (!existsSync("/usr/bin/systemd-analyze")) throw new Error("systemd-analyze is missing: .ci/run installs systemd (apt-get install systemd).");
  const result = Bun.spawnSync(["systemd-analyze", ...args], { stdout: "pipe", stderr: "pipe" });
  return { code: result.exitCode, output: result.stdout.toString() + result.stderr.toString() };
}

describe("the systemd unit", () => {
  test("verifies, and its hardening is rated OK or better by systemd-analyze security", () => {
    for (const line of ["DynamicUser=yes", "StateDirectory=deckhand", "ProtectSystem=strict", "NoNewPrivileges=yes", "ProtectHome=yes", "PrivateTmp=yes"]) {
      expect(unit).toContain(`\n${line}\n`);
    }
    // verify checks that ExecStart exists: point it at the built binary.
    const copy = join(suite.dir("deckhand-unit-"), "deckhand.service");
    writeFileSync(copy, unit.replaceAll("/usr/local/bin/deckhand", BINARY));
    const verify = analyze("verify", copy);
    expect(verify.output).toBe("");
    expect(verify.code).toBe(0);
    const security = analyze("security", "--offline=true", copy);
    const level = security.output.match(/Overall exposure level for deckhand\.service: ([\d.]+) (\w+)/);
    expect(level).not.toBeNull();
    expect(Number(level![1])).toBeLessThanOrEqual(2);
    expect(["OK", "SAFE"]).toContain(level![2]!);
  });

  test("its Environment= settings start deckhand on 127.0.0.1, behind a proxy, with tokens required", async () => {
    const env = Object.fromEntries([...unit.matchAll(/^Environment=(DECKHAND_\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(env).toMatchObject({ DECKHAND_HOST: "127.0.0.1", DECKHAND_TRUST_PROXY: "true", DECKHAND_REQUIRE_AUTH: "true" });
    // The test harness sets port, data dir and host (127.0.0.1, as the unit) by flags; the rest comes from the unit.
    const server = await suite.start({ env });
    const form = new FormData();
    form.append("file", new Blob(["%PDF-1.4"], { type: "application/pdf" }), "x.pdf");
    const anonymous = await fetch(`${server.url}/api/present`, { method: "POST", body: form });
    expect(anonymous.status).toBe(401);
    expect(server.logs()).toContain('"event":"listening"');
  });
});
