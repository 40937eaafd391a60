/**
 * @module bench/lib/http
 * The benchmark client is curl, in its own process: it streams a file from disk without
 * buffering it (Bun's fetch with a FormData of a Bun.file reads the whole file into memory
 * first), it costs the same for deckhand and for the baseline, and `%{time_total}` times the
 * transfer alone, without process start-up.
 */

export interface CurlResult {
  status: number;
  /** curl's time_total: from connect to the last byte of the response, ms. */
  ms: number;
  bytesDownloaded: number;
  body: string;
}

const WRITE_OUT = "\n__bench__ %{http_code} %{time_total} %{size_download}";

async function curl(args: string[]): Promise<CurlResult> {
  const proc = Bun.spawn(["curl", "--silent", "--show-error", "--max-time", "120", "--write-out", WRITE_OUT, ...args], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`curl ${args.join(" ")} failed (${code}): ${err.trim()}`);
  const at = out.lastIndexOf("\n__bench__ ");
  const [status, seconds, size] = out.slice(at + "\n__bench__ ".length).trim().split(" ");
  return { status: Number(status), ms: Number(seconds) * 1000, bytesDownloaded: Number(size), body: out.slice(0, at) };
}

/**
 * POST `path` as the multipart field `file` (curl -F), like `curl -F file=@deck.pdf`; from
 * `localAddress` (curl --interface: another loopback address is another client) when given.
 */
export function uploadFile(url: string, path: string, filename = "bench-deck.pdf", localAddress?: string): Promise<CurlResult> {
  return curl([...(localAddress ? ["--interface", localAddress] : []), "--form", `file=@${path};type=application/pdf;filename=${filename}`, url]);
}

/** GET `url` and discard the body (curl -o /dev/null); the body size is in bytesDownloaded. */
export function downloadToNull(url: string): Promise<CurlResult> {
  return curl(["--output", "/dev/null", url]);
}

/** Present `path` to deckhand; returns the handoff id and controller token. */
export async function present(base: string, path: string): Promise<{ id: string; token: string; ms: number; bytes: number }> {
  const result = await uploadFile(`${base}/api/present`, path);
  if (result.status !== 200) throw new Error(`present answered ${result.status}: ${result.body.slice(0, 300)}`);
  const record = JSON.parse(result.body) as { id: string; url: string; bytes: number };
  const token = new URL(record.url).hash.replace(/^#t=/, "");
  return { id: record.id, token, ms: result.ms, bytes: record.bytes };
}

/** Claim a handoff so deckhand deletes the staged file (outside any timing). */
export async function complete(base: string, id: string, token: string): Promise<void> {
  const res = await fetch(`${base}/api/sessions/${id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": token } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`complete answered ${res.status}`);
}
