/**
 * @module upload/digest-worker
 * The thread behind upload/digest-thread: SHA-256 of files that are still being written,
 * read back from the page cache through the descriptor the upload writes with (threads share
 * the process's descriptors). Messages are handled in order, so a job's reads never pass its
 * `to`, which the receiving thread only moves past bytes already written. A whole upload in
 * memory comes as its buffer (transferred, not copied) and goes back with its digest.
 *
 * Started by src/binary/threads.ts (the compiled binary carries it as an entrypoint of its own).
 */
import { readSync } from "node:fs";
import type { DigestReply, DigestRequest } from "./digest-thread.ts";

declare const self: Worker;

/** Bytes read per call: one reused buffer, so memory stays flat whatever the uploads. */
const READ_BYTES = 1024 * 1024;
const buffer = new Uint8Array(READ_BYTES);

interface Job {
  fd: number;
  hash: Bun.CryptoHasher;
  /** Bytes hashed so far: the file position of the next read. */
  done: number;
  /** The first read error; the job answers it at its end. */
  failure: string | null;
}

const jobs = new Map<number, Job>();

function catchUp(job: Job, to: number): void {
  while (!job.failure && job.done < to) {
    let read: number;
    try {
      read = readSync(job.fd, buffer, 0, Math.min(READ_BYTES, to - job.done), job.done);
    } catch (error) {
      job.failure = (error as Error).message;
      return;
    }
    if (read === 0) {
      job.failure = `the file ended at ${job.done} bytes, before the ${to} written`;
      return;
    }
    job.hash.update(buffer.subarray(0, read));
    job.done += read;
  }
}

self.onmessage = (event: MessageEvent<DigestRequest>) => {
  const message = event.data;
  if (message.op === "bytes") {
    const hash = new Bun.CryptoHasher("sha256");
    hash.update(new Uint8Array(message.buffer, message.offset, message.length));
    // The buffer goes back to its owner, which reuses it.
    self.postMessage({ id: message.id, sha256: hash.digest("hex"), buffer: message.buffer } satisfies DigestReply, [message.buffer]);
    return;
  }
  if (message.op === "drop") {
    jobs.delete(message.id);
    self.postMessage({ id: message.id, dropped: true } satisfies DigestReply);
    return;
  }
  let job = jobs.get(message.id);
  if (!job) {
    job = { fd: message.fd, hash: new Bun.CryptoHasher("sha256"), done: 0, failure: null };
    jobs.set(message.id, job);
  }
  catchUp(job, message.to);
  if (message.op === "finish") {
    jobs.delete(message.id);
    const reply: DigestReply = job.failure ? { id: message.id, error: job.failure } : { id: message.id, sha256: job.hash.digest("hex") };
    self.postMessage(reply);
  }
};
