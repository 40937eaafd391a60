/**
 * The Caddy and nginx examples in deploy/ are valid and work: each is checked by the proxy's
 * own validator, then run in front of the compiled binary (with --trust-proxy, as docs/operating/https-and-proxies.md
 * says) and a whole handoff goes through it over TLS. Only the name, ports and certificate
 * paths of the examples are replaced. Fails when caddy, nginx or openssl is missing.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { makeDeck } from "../fixtures/pdfs.ts";
import { handOver, waitHealthy } from "../helpers/handoff-client.ts";
import { freePort, scratch } from "../helpers/server.ts";
import { readUntil } from "../helpers/wait.ts";

// The timeout of each test and hook here: 30 s, as it starts processes (its tests set their own).
setDefaultTimeout(30_000);

/**
 * How long a proxy may take to answer its first proxied `/healthz` (Caddy makes its own CA
 * first), and each proxy's test in all: bounds on a start or a handoff that never comes. On CI
 * (2026-12-01), yielding to the browser lanes, Caddy's test took 54 s of the 60 s it had.
 */
const PROXY_START_MS = 60_000;
const PROXY_TEST_MS = 180_000;

const root = join(import.meta.dir, "..", "..");
const suite = scratch();
const processes: Subprocess[] = [];
afterAll(async () => {
  for (const proc of processes) {
    proc.kill("SIGTERM");
    await proc.exited;
  }
  await suite.cleanup();
});

function tool(name: string, candidates: string[]): string {
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`${name} is missing (looked at ${candidates.join(", ")}): .ci/run installs it (apt-get install ${name}).`);
  return found;
}

function check(command: string[], env?: Record<string, string>): string {
  const result = Bun.spawnSync(command, { env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const output = result.stdout.toString() + result.stderr.toString();
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")} failed (${result.exitCode}):\n${output}`);
  return output;
}

/** Poll `file` until it mentions `needle` (proxies write their access log a moment later). */
function logWith(file: string, needle: string): Promise<string> {
  return readUntil(() => (existsSync(file) ? readFileSync(file, "utf8") : ""), (text) => text.includes(needle), 10_000, 100);
}

/**
 * Download a deck the documented way (?t=) and deckhand's client's way (the
 * header) through the proxy; its access log names the path and never the controller token.
 */
async function expectTokenNotLogged(base: string, logFile: string): Promise<void> {
  const form = new FormData();
  form.append("file", new Blob([(await makeDeck({ pages: 1 })) as BlobPart], { type: "application/pdf" }), "secret.pdf");
  const insecure = { tls: { rejectUnauthorized: false } };
  const res = await fetch(`${base}/api/present`, { method: "POST", body: form, ...insecure });
  expect(res.status).toBe(200);
  const record = (await res.json()) as { id: string; url: string };
  const token = new URL(record.url).hash.slice(3);
  expect((await fetch(`${base}/api/sessions/${record.id}/handoff?t=${token}`, insecure)).status).toBe(200);
  expect((await fetch(`${base}/api/sessions/${record.id}/handoff`, { headers: { "x-controller-token": token }, ...insecure })).status).toBe(200);
  const log = await logWith(logFile, `/api/sessions/${record.id}/handoff`);
  expect(log).toContain(`/api/sessions/${record.id}/handoff`);
  expect(log).not.toContain(token);
}

function start(command: string[], env?: Record<string, string>): Subprocess {
  const proc = Bun.spawn(command, { env: { ...process.env, ...env }, stdout: "ignore", stderr: "pipe" });
  processes.push(proc);
  return proc;
}

describe("Caddy (deploy/caddy/Caddyfile)", () => {
  test("validates, and proxies present → download → complete over HTTPS with the public scheme and host in the link", async () => {
    const caddy = tool("caddy", ["/usr/bin/caddy"]);
    const dir = suite.dir("deckhand-caddy-");
    const env = { HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
    const example = join(root, "deploy/caddy/Caddyfile");
    check([caddy, "validate", "--adapter", "caddyfile", "--config", example], env);

    const server = await suite.start({ args: ["--trust-proxy"] });
    const port = await freePort();
    // Caddy's own CA for localhost; never touch the system trust store.
    const global = `{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n\tstorage file_system ${dir}/caddy\n}\n`;
    const config = global + readFileSync(example, "utf8").replace(/^talks\.example\.org \{/m, `localhost:${port} {`).replace("127.0.0.1:8080", `127.0.0.1:${server.port}`).replace("/var/log/caddy/deckhand-access.log", join(dir, "access.log"));
    const file = join(dir, "Caddyfile");
    writeFileSync(file, config);
    const proc = start([caddy, "run", "--adapter", "caddyfile", "--config", file], env);
    const base = `https://localhost:${port}`;
    await waitHealthy(`${base}/healthz`, PROXY_START_MS, () => proc.exitCode === null);

    const record = await handOver(base, await makeDeck({ pages: 3, padToBytes: 3 * 1024 * 1024 }));
    expect(record.url.startsWith(`${base}/start/${record.id}#t=`)).toBe(true);
    await expectTokenNotLogged(base, join(dir, "access.log"));
  }, PROXY_TEST_MS);
});

describe("nginx (deploy/nginx/deckhand.conf)", () => {
  test("passes nginx -t, and proxies a 3 MB deck (over nginx's 1 MB default) end to end over HTTPS", async () => {
    const nginx = tool("nginx", ["/usr/sbin/nginx"]);
    const openssl = tool("openssl", ["/usr/bin/openssl"]);
    const dir = suite.dir("deckhand-nginx-");
    check([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")]);

    const server = await suite.start({ args: ["--trust-proxy"] });
    const [port, redirectPort] = [await freePort(), await freePort()];
    const site = readFileSync(join(root, "deploy/nginx/deckhand.conf"), "utf8")
      .replace("listen 443 ssl http2;", `listen 127.0.0.1:${port} ssl http2;`)
      .replace("listen 80;", `listen 127.0.0.1:${redirectPort};`)
      .replace(/^\s*listen \[::\].*$/gm, "")
      .replace("/etc/letsencrypt/live/talks.example.org/fullchain.pem", join(dir, "cert.pem"))
      .replace("/etc/letsencrypt/live/talks.example.org/privkey.pem", join(dir, "key.pem"))
      .replace("http://127.0.0.1:8080", `http://127.0.0.1:${server.port}`)
      .replaceAll("/var/log/nginx/deckhand-access.log", join(dir, "access.log"));
    writeFileSync(join(dir, "site.conf"), site);
    const main = `pid ${dir}/nginx.pid;\nerror_log stderr;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  include ${dir}/site.conf;\n}\n`;
    writeFileSync(join(dir, "nginx.conf"), main);
    const args = ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", "stderr"];
    expect(check([nginx, "-t", ...args])).toContain("test is successful");
    const proc = start([nginx, ...args, "-g", "daemon off;"]);
    const base = `https://localhost:${port}`;
    await waitHealthy(`${base}/healthz`, PROXY_START_MS, () => proc.exitCode === null);

    const record = await handOver(base, await makeDeck({ pages: 3, padToBytes: 3 * 1024 * 1024 }));
    expect(record.url.startsWith(`${base}/start/${record.id}#t=`)).toBe(true);
    const redirect = await fetch(`http://127.0.0.1:${redirectPort}/`, { redirect: "manual" });
    expect(redirect.status).toBe(301);
    await expectTokenNotLogged(base, join(dir, "access.log"));
  }, PROXY_TEST_MS);
});
