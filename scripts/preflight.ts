/**
 * @module scripts/preflight
 * The first second of `npm test`: every Debian package the suites need
 * (scripts/system-packages.txt, the list `npm run setup` and .ci/run install) is installed, or
 * the run stops at once with the one line that installs them — never a skip, never a failure
 * twelve minutes later. One `dpkg-query` call answers for the whole list.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const LIST = join(import.meta.dir, "system-packages.txt");

/** The packages of the list (one per line; `#` comments and blank lines left out). */
export function systemPackages(text = readFileSync(LIST, "utf8")): string[] {
  return text
    .split("\n")
    .map((line) => line.replace(/#.*/, "").trim())
    .filter(Boolean);
}

/** Which of `packages` dpkg does not report installed ("install ok installed"). */
export function missingPackages(packages: readonly string[]): string[] | null {
  if (!Bun.which("dpkg-query")) return null;
  const result = Bun.spawnSync(["dpkg-query", "-W", "-f=${Package}\\t${db:Status-Status}\\n", ...packages], { stdout: "pipe", stderr: "ignore" });
  const installed = new Set(
    result.stdout
      .toString()
      .split("\n")
      .map((line) => line.split("\t"))
      .filter(([, status]) => status === "installed")
      .map(([name]) => name!.replace(/:.*/, "")),
  );
  return packages.filter((p) => !installed.has(p));
}

if (import.meta.main) {
  // A list may be named (the tests do); `npm test` uses the project's.
  const packages = systemPackages(readFileSync(process.argv[2] ?? LIST, "utf8"));
  const missing = missingPackages(packages);
  if (missing === null) {
    console.error("The test suites need Debian's packages (scripts/system-packages.txt), and this machine has no dpkg-query. Run the tests on Debian (or in a Debian container).");
    process.exit(1);
  }
  if (missing.length) {
    console.error(`The test suites need ${missing.length} system package${missing.length === 1 ? "" : "s"} this machine lacks: ${missing.join(", ")}.`);
    console.error("Install every one of them with:  npm run setup   (the list: scripts/system-packages.txt)");
    process.exit(1);
  }
  console.log(`preflight: all ${packages.length} system packages the tests need are installed.`);
}
