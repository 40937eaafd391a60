/**
 * The sizes the docs quote are the binary's: docs/development/release.md's total and
 * docs/operating/install.md's row for this machine's platform are within 1% of the
 * dist/deckhand `npm test` builds. When they drift, `npm run release && bun run
 * scripts/docs-figures.ts` rewrites both.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { documentedBinaryBytes, documentedLinuxTotal, INSTALL_DOC, megabytes, RELEASE_DOC, replaceBetweenMarkers } from "../../scripts/docs-figures.ts";

// The timeout of each test and hook here: 30 s. Its tests take a millisecond, but it runs in the
// services stage (it reads the built binary), yielding beside the browser lanes.
setDefaultTimeout(30_000);

const BUILT = join(import.meta.dir, "..", "..", "dist", "deckhand");
/** install.md rounds to 0.1 MB and a cross-compiled binary differs a little from the host's. */
const TOLERANCE = 0.01;
const platform = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;

describe("the docs' binary sizes", () => {
  test("the figures' blocks are replaced between their markers and nothing else moves", () => {
    const doc = "intro\n<!-- figures:x -->\nold\n<!-- /figures:x -->\nafter\n";
    expect(replaceBetweenMarkers(doc, "x", "new")).toBe("intro\n<!-- figures:x -->\nnew\n<!-- /figures:x -->\nafter\n");
    expect(() => replaceBetweenMarkers(doc, "y", "new")).toThrow("no <!-- figures:y -->");
  });

  test(`install.md's ${platform} binary size is within 1% of dist/deckhand`, () => {
    const built = statSync(BUILT).size;
    const documented = documentedBinaryBytes(readFileSync(INSTALL_DOC, "utf8"), platform);
    expect(documented).not.toBeNull();
    expect(`documented ${megabytes(documented!)}, built ${megabytes(built)}: within 1% ${Math.abs(documented! - built) / built <= TOLERANCE}`).toEndWith("within 1% true");
  });

  test("release.md's deckhand-linux-x64 total is within 1% of dist/deckhand", () => {
    const built = statSync(BUILT).size;
    const documented = documentedLinuxTotal(readFileSync(RELEASE_DOC, "utf8"));
    expect(documented).not.toBeNull();
    // The message names both sizes: which one to rerun the figures for is then obvious.
    expect(`documented ${documented} bytes, built ${built} bytes: within 1% ${Math.abs(documented! - built) / built <= TOLERANCE}`).toEndWith("within 1% true");
  });
});
