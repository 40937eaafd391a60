/**
 * `npm test` starts with scripts/preflight.ts: a machine without the suites' system packages
 * stops in its first second with the one install line, instead of failing suites later.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { missingPackages, systemPackages } from "../../scripts/preflight.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (1 s), and at least 30 s as it starts processes.
setDefaultTimeout(30_000);

const SCRIPT = join(import.meta.dir, "../../scripts/preflight.ts");

test("the list is read as setup-system.sh reads it: one package a line, comments left out", () => {
  expect(systemPackages("# browsers\nchromium\n\nxvfb  # the display\n")).toEqual(["chromium", "xvfb"]);
  expect(systemPackages()).toContain("chromium");
});

test("dpkg's answer names exactly the packages not installed", () => {
  expect(missingPackages(["bash", "deckhand-no-such-package"])).toEqual(["deckhand-no-such-package"]);
});

test("a missing package stops the run at once with the install line; a complete list passes", () => {
  const dir = mkdtempSync(join(tmpdir(), "preflight-"));
  try {
    writeFileSync(join(dir, "missing.txt"), "bash\ndeckhand-no-such-package\n");
    writeFileSync(join(dir, "present.txt"), "bash\ncoreutils\n");
    const missing = Bun.spawnSync([process.execPath, SCRIPT, join(dir, "missing.txt")], { stdout: "pipe", stderr: "pipe" });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr.toString()).toContain("lacks: deckhand-no-such-package.");
    expect(missing.stderr.toString()).toContain("npm run setup");
    const present = Bun.spawnSync([process.execPath, SCRIPT, join(dir, "present.txt")], { stdout: "pipe", stderr: "pipe" });
    expect(present.exitCode).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
