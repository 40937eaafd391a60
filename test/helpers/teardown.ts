/**
 * Preloaded by bun test (bunfig.toml): after the last test of the run, the temporary
 * directories of test servers that their suites did not remove, and the fixtures' directory.
 */
import { afterAll } from "bun:test";
import { removeFixtureDir } from "../fixtures/sidecar-builder.ts";
import { removeMadeDirs } from "./server.ts";

afterAll(() => {
  removeMadeDirs();
  removeFixtureDir();
});
