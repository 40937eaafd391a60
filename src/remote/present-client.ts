/**
 * @module remote/present-client
 * The one REST client of deckhand's own commands: `deckhand present` and the stdio MCP tool
 * `present_pdf` both stage a deck on a running server through `POST /api/present` here.
 *
 * A file is streamed: the multipart body is its head, the file's own stream and its tail,
 * with the length declared up front, so a 100 MB deck is never held in memory (Bun's fetch
 * reads a `FormData` holding a file whole before sending it). Every failure is an `AppError`:
 * the server's problem relayed as it came, or SERVER_UNAVAILABLE when no deckhand answers.
 */
import { randomBytes } from "../tools/random.ts";
// What Bun.file().stream() hands out once the DOM's types are not loaded (the server's project has none).
import type { ReadableStreamDefaultReader as StreamReader } from "node:stream/web";
import { AppError } from "../base/errors.ts";
import { ERROR_CODES, type ErrorCode } from "../shared/problem.ts";
import type { HandoffRecord } from "../shared/handoff-record.ts";
import { fileTooLarge } from "../tools/upload-limits.ts";

export interface RemoteServer {
  /** Base URL without a trailing slash. */
  serverUrl: string;
  /** Access token for `Authorization: Bearer`, or null. */
  token: string | null;
}

/** What to stage: a local file (streamed), or bytes already in memory (MCP's base64 input). */
export type DeckSource = { kind: "file"; path: string } | { kind: "bytes"; bytes: Uint8Array };

export interface PresentOptions {
  /** The name the deck is uploaded under (its title is derived from it). */
  filename: string;
  /** A notes file to send beside the PDF (the `notes` part), under `filename`. */
  notes?: DeckSource & { filename: string };
  /** Named in FILE_TOO_LARGE when an intermediary refuses the body before deckhand sees it. */
  maxUploadBytes?: number;
}

/** A part header's filename: quotes and line breaks would end the header early. */
function headerSafe(name: string): string {
  return name.replace(/[\r\n]/g, " ").replaceAll('"', "%22");
}

function multipartBody(source: DeckSource, filename: string, notes?: PresentOptions["notes"]): { body: NonNullable<RequestInit["body"]>; length: number; boundary: string } {
  const boundary = `deckhand-${randomBytes(12).toString("hex")}`;
  const text = (value: string) => new TextEncoder().encode(value);
  const header = (field: string, name: string, type: string) =>
    text(`--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="${headerSafe(name)}"\r\ncontent-type: ${type}\r\n\r\n`);
  // The file parts in order, each a header and its bytes (in memory, or a file streamed).
  const sources: Array<{ head: Uint8Array; source: DeckSource }> = [{ head: header("file", filename, "application/pdf"), source }];
  if (notes) sources.push({ head: header("notes", notes.filename, "application/octet-stream"), source: notes });
  const pieces: Array<Uint8Array | ReturnType<typeof Bun.file>> = [];
  sources.forEach((part, i) => {
    pieces.push(i === 0 ? part.head : new Uint8Array([...text("\r\n"), ...part.head]));
    pieces.push(part.source.kind === "bytes" ? part.source.bytes : Bun.file(part.source.path));
  });
  pieces.push(text(`\r\n--${boundary}--\r\n`));
  const length = pieces.reduce((sum, piece) => sum + (piece instanceof Uint8Array ? piece.length : piece.size), 0);
  if (pieces.every((piece) => piece instanceof Uint8Array)) return { body: new Blob(pieces as Uint8Array<ArrayBuffer>[]), length, boundary };
  const parts: Array<() => ReadableStream<Uint8Array> | Uint8Array> = pieces.map((piece) => () => (piece instanceof Uint8Array ? piece : piece.stream()));
  let reader: StreamReader<Uint8Array> | null = null;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (reader) {
          const next = await reader.read();
          if (!next.done) return controller.enqueue(next.value);
          reader = null;
        }
        const part = parts.shift();
        if (!part) return controller.close();
        const value = part();
        if (value instanceof Uint8Array) return controller.enqueue(value);
        reader = value.getReader();
      }
    },
    cancel: (reason) => reader?.cancel(reason),
  });
  return { body, length, boundary };
}

/** A problem document from a deckhand server, as the AppError it was there. */
function relayed(problem: { code: string; detail: string }): AppError {
  const code = (Object.hasOwn(ERROR_CODES, problem.code) ? problem.code : "INTERNAL") as ErrorCode;
  return new AppError(code, problem.detail, { relayed: true });
}

/** Stage the deck on the server; its handoff record, or the AppError that says why not. */
export async function presentToServer(server: RemoteServer, source: DeckSource, options: PresentOptions): Promise<HandoffRecord> {
  const { body, length, boundary } = multipartBody(source, options.filename, options.notes);
  let response: Response;
  try {
    response = await fetch(`${server.serverUrl}/api/present`, {
      method: "POST",
      body,
      headers: {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(length),
        ...(server.token ? { authorization: `Bearer ${server.token}` } : {}),
      },
    });
  } catch (cause) {
    throw new AppError(
      "SERVER_UNAVAILABLE",
      `No deckhand server answers at ${server.serverUrl}. Start one with \`deckhand serve\` (or point --server at one), then try again.`,
      { cause },
    );
  }
  const payload = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.ok && payload && typeof payload.url === "string") return payload as unknown as HandoffRecord;
  if (payload && typeof payload.code === "string" && typeof payload.detail === "string") throw relayed({ code: payload.code, detail: payload.detail });
  // A proxy (or Bun itself) answers an over-long body with a bare 413 before deckhand sees it.
  if (response.status === 413 && options.maxUploadBytes) throw fileTooLarge(options.maxUploadBytes);
  throw new AppError(
    "SERVER_UNAVAILABLE",
    `The server at ${server.serverUrl} answered ${response.status} without a deckhand problem document; check that it is a deckhand server.`,
  );
}
