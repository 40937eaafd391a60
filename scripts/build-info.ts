/**
 * @module scripts/build-info
 * What a build stamps into the binary: the package version, the commit it was built from and
 * that commit's time (for reproducible archive timestamps). Works from a plain checkout; from
 * a source tree without git (an exported tarball) the commit is "unknown" unless the
 * DECKHAND_COMMIT / SOURCE_DATE_EPOCH variables say otherwise.
 */
import { join } from "node:path";
import pkg from "../package.json" with { type: "json" };

export interface BuildInfo {
  version: string;
  /** Short commit hash, "-dirty" when tracked files differ from it; "unknown" without git. */
  commit: string;
  /** Seconds since the epoch: SOURCE_DATE_EPOCH, else the commit's time, else now. */
  sourceDateEpoch: number;
}

const root = join(import.meta.dir, "..");

function git(...args: string[]): string | null {
  try {
    const result = Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "ignore" });
    return result.exitCode === 0 ? result.stdout.toString().trim() : null;
  } catch {
    // git is not installed: the build still works, it just cannot name the commit.
    return null;
  }
}

export function buildInfo(env: Record<string, string | undefined> = process.env): BuildInfo {
  const head = git("rev-parse", "--short=12", "HEAD");
  const dirty = head !== null && (git("status", "--porcelain", "--untracked-files=no") ?? "") !== "";
  const commit = env.DECKHAND_COMMIT || (head ? `${head}${dirty ? "-dirty" : ""}` : "unknown");
  const epoch = Number(env.SOURCE_DATE_EPOCH || git("log", "-1", "--format=%ct") || Math.floor(Date.now() / 1000));
  return { version: pkg.version, commit, sourceDateEpoch: epoch };
}
