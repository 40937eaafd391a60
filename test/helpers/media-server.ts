/**
 * An https origin for URL media in the browser tests: a certificate made by openssl at test
 * time (self-signed, for 127.0.0.1, one day), and Bun.serve answering the files given, with
 * Range support (videos seek) and CORS only where asked. The pages' CSP allows `https:`
 * media and no http:, so the tests meet the same policy a real deck does; the browsers are
 * told to accept this certificate (each engine's "accept insecure certs" switch).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface MediaFile {
  body: Uint8Array;
  type: string;
  /** Send `Access-Control-Allow-Origin: *`, so a page may fetch a copy for offline use. */
  cors: boolean;
}

export interface MediaServer {
  origin: string;
  /** Paths requested so far, in order. */
  requests: string[];
  stop(): Promise<void>;
}

function certificate(dir: string): { cert: string; key: string } {
  const made = Bun.spawnSync(
    ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (made.exitCode !== 0) throw new Error(`openssl could not make a test certificate (apt-get install -y openssl): ${made.stderr.toString()}`);
  return { cert: readFileSync(join(dir, "cert.pem"), "utf8"), key: readFileSync(join(dir, "key.pem"), "utf8") };
}

export async function startMediaServer(files: Record<string, MediaFile>): Promise<MediaServer> {
  const dir = mkdtempSync(join(tmpdir(), "deckhand-media-"));
  const tls = certificate(dir);
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls,
    fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push(path);
      const file = files[path];
      if (!file) return new Response("not found", { status: 404 });
      const headers: Record<string, string> = { "Content-Type": file.type, "Accept-Ranges": "bytes", "Cache-Control": "no-store" };
      if (file.cors) headers["Access-Control-Allow-Origin"] = "*";
      const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.get("range") ?? "");
      if (range) {
        const start = Number(range[1]);
        const end = range[2] ? Math.min(Number(range[2]), file.body.length - 1) : file.body.length - 1;
        headers["Content-Range"] = `bytes ${start}-${end}/${file.body.length}`;
        return new Response(file.body.slice(start, end + 1) as Uint8Array<ArrayBuffer>, { status: 206, headers });
      }
      return new Response(file.body as Uint8Array<ArrayBuffer>, { headers });
    },
  });
  return {
    origin: `https://127.0.0.1:${server.port}`,
    requests,
    stop: async () => {
      await server.stop(true);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
