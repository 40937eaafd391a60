/**
 * @module scripts/release/archive
 * Pack one binary for download with the standard tools of a Debian build machine: GNU tar +
 * gzip for Linux and macOS (`tar xzf` everywhere), Info-ZIP's zip for Windows (Explorer opens
 * it). Archives are reproducible: fixed owner and timestamps (SOURCE_DATE_EPOCH), no gzip
 * name/time header, no zip extra fields. The binary inside is named `deckhand[.exe]`.
 */
import { copyFileSync, chmodSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ArchiveJob {
  binary: string;
  /** The binary's name inside the archive. */
  inArchive: string;
  archive: string;
  /** 1 (fast, for tests) … 9 (smallest, for releases). */
  level: number;
  sourceDateEpoch: number;
}

async function finished(proc: Bun.Subprocess, name: string): Promise<void> {
  const code = await proc.exited;
  const stderr = proc.stderr instanceof ReadableStream ? await new Response(proc.stderr).text() : "";
  if (code !== 0) throw new Error(`${name} failed (exit ${code}): ${stderr.trim()}`);
}

export async function packBinary(job: ArchiveJob): Promise<void> {
  const stage = mkdtempSync(join(tmpdir(), "deckhand-pack-"));
  try {
    const inside = join(stage, job.inArchive);
    copyFileSync(job.binary, inside);
    chmodSync(inside, 0o755);
    utimesSync(inside, job.sourceDateEpoch, job.sourceDateEpoch);
    rmSync(job.archive, { force: true });
    if (job.archive.endsWith(".zip")) {
      // -X: no extra attributes (uid/gid, extended timestamps); -j: no folder names.
      const zip = Bun.spawn(["zip", "-q", "-X", "-j", `-${job.level}`, job.archive, inside], { cwd: stage, stdout: "ignore", stderr: "pipe" });
      await finished(zip, "zip");
    } else {
      const tar = Bun.spawn(["tar", "--format=ustar", "--owner=0", "--group=0", "--numeric-owner", `--mtime=@${job.sourceDateEpoch}`, "-cf", "-", job.inArchive], {
        cwd: stage,
        stdout: "pipe",
        stderr: "pipe",
      });
      // gzip -n: no original name or time in the header, so the same binary gives the same archive.
      const gzip = Bun.spawn(["gzip", "-n", `-${job.level}`], { stdin: tar.stdout, stdout: Bun.file(job.archive), stderr: "pipe" });
      await Promise.all([finished(tar, "tar"), finished(gzip, "gzip")]);
    }
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
