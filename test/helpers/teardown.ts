/**
 * Preloaded by bun test (bunfig.toml): after the last test of the run, the browsers the
 * process kept for all its files (test/helpers/browser-reuse.ts: `npm test`'s browser lanes),
 * the temporary directories of test servers that their suites did not remove, and the
 * fixtures' directory.
 */
import { afterAll } from "bun:test";
import { removeFixtureDir } from "../fixtures/sidecar-builder.ts";
import { closeReusedBrowsers } from "./browser-reuse.ts";
import { removeMadeDirs } from "./server.ts";

/** A browser with pages still open takes its time to close on a loaded machine. */
const CLOSE_MS = 60_000;

afterAll(async () => {
  await closeReusedBrowsers();
  removeMadeDirs();
  removeFixtureDir();
}, CLOSE_MS);
