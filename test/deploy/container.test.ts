/**
 * deploy/container: the image builds FROM scratch (nothing pulled), runs as uid 65532 with its
 * data in a volume, answers its HEALTHCHECK (`deckhand healthcheck`), hands a deck over end to
 * end through a published port, and stops cleanly on SIGTERM. Runs rootful podman with runc:
 * crun refuses this kind of VM's hybrid cgroup layout. The sandbox may not raise rlimits
 * (no CAP_SYS_RESOURCE), so the limits podman sets are given explicitly, below the host's.
 * Fails when podman, runc or the binary is missing.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { makeDeck } from "../fixtures/pdfs.ts";
import { handOver, waitHealthy } from "../helpers/handoff-client.ts";
import { BINARY, freePort, scratch } from "../helpers/server.ts";

// The timeout of each test and hook here: 60 s for afterAll, which removes the container, the volume and the image with podman (its test sets its own).
setDefaultTimeout(60_000);

const root = join(import.meta.dir, "..", "..");
const suite = scratch();
const tag = `localhost/deckhand-test:${process.pid}`;
const volume = `deckhand-test-data-${process.pid}`;
const name = `deckhand-test-${process.pid}`;
const podmanArgs = ["--runtime", "runc"];
const limits = ["--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"];

function podman(...args: string[]): string {
  const result = Bun.spawnSync(["podman", ...podmanArgs, ...args], { stdout: "pipe", stderr: "pipe", timeout: 180_000 });
  if (result.exitCode !== 0) throw new Error(`podman ${args.join(" ")} failed (${result.exitCode}): ${result.stderr.toString()}`);
  return result.stdout.toString().trim();
}

afterAll(async () => {
  // Without podman the test itself failed and said so; cleaning up must not fail a second time.
  if (Bun.which("podman")) for (const args of [["rm", "-f", "-t", "0", name], ["volume", "rm", "-f", volume], ["rmi", "-f", tag]]) {
    Bun.spawnSync(["podman", ...podmanArgs, ...args], { stdout: "ignore", stderr: "ignore" });
  }
  await suite.cleanup();
});

describe("the container image (deploy/container)", () => {
  test("builds from scratch, runs non-root with /data in a volume, is healthy, hands over a deck, stops on SIGTERM", async () => {
    for (const tool of ["/usr/bin/podman", "/usr/sbin/runc"]) {
      if (!existsSync(tool)) throw new Error(`${tool} is missing: .ci/run installs podman and runc (apt-get install podman runc).`);
    }
    if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: npm test builds it.`);
    const context = join(suite.dir("deckhand-image-"), "context");
    const made = Bun.spawnSync([join(root, "deploy/container/make-context.sh"), BINARY, context], { stderr: "pipe" });
    expect(made.exitCode).toBe(0);
    podman("build", "--format", "docker", "-q", "-t", tag, context);

    const config = JSON.parse(podman("image", "inspect", tag, "--format", "{{json .Config}}")) as Record<string, any>;
    const healthcheck = JSON.parse(podman("image", "inspect", tag, "--format", "{{json .Config.Healthcheck}}")) as { Test: string[] };
    expect(config.User).toBe("65532:65532");
    expect(healthcheck.Test).toEqual(["CMD", "/usr/local/bin/deckhand", "healthcheck"]);
    expect(Object.keys(config.Volumes)).toEqual(["/data"]);
    // Small: the binary plus ~3 MB of glibc, and nothing else.
    const size = Number(podman("image", "inspect", tag, "--format", "{{.Size}}"));
    expect(size).toBeLessThan(statSync(BINARY).size + 5_000_000);

    const port = await freePort();
    podman("run", "-d", "--name", name, ...limits, "-p", `127.0.0.1:${port}:8080`, "-v", `${volume}:/data`, tag);
    const base = `http://127.0.0.1:${port}`;
    await waitHealthy(`${base}/healthz`, 30_000);
    podman("healthcheck", "run", name);
    expect(podman("exec", name, "deckhand", "--version")).toMatch(/^deckhand \d+\.\d+\.\d+ \(commit /);

    await handOver(base, await makeDeck({ pages: 2 }));
    const mountpoint = podman("volume", "inspect", volume, "--format", "{{.Mountpoint}}");
    expect(readdirSync(mountpoint)).toContain("deckhand.db");
    // Written by the unprivileged user, not root.
    expect(statSync(join(mountpoint, "deckhand.db")).uid).toBe(65532);

    podman("stop", "-t", "20", name);
    expect(podman("inspect", name, "--format", "{{.State.ExitCode}}")).toBe("0");
  }, 240_000);
});
