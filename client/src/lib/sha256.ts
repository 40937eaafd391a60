/**
 * @module client/lib/sha256
 * SHA-256 that works in every browsing context. `crypto.subtle` exists only in secure
 * contexts (https, localhost); a handoff link opened over plain http on a LAN address has
 * none, so we fall back to @noble/hashes, hashing in slices to keep the page responsive.
 */
import { sha256 } from "@noble/hashes/sha2.js";

/** Bytes per slice for the fallback hasher; ~4 MiB keeps each slice under ~30 ms. */
const SLICE = 4 * 1024 * 1024;

export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** Decode the base64 of a `Repr-Digest: sha-256=:…:` header value to hex, or null. */
export function reprDigestToHex(header: string | null): string | null {
  if (!header) return null;
  const match = /sha-256=:([A-Za-z0-9+/=]+):/.exec(header);
  if (!match?.[1]) return null;
  try {
    const raw = atob(match[1]);
    if (raw.length !== 32) return null;
    const bytes = new Uint8Array(32);
    for (let i = 0; i < 32; i++) bytes[i] = raw.charCodeAt(i);
    return toHex(bytes);
  } catch {
    return null;
  }
}

export async function sha256Hex(data: ArrayBuffer | Uint8Array, options: { forceFallback?: boolean } = {}): Promise<string> {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const subtle = globalThis.crypto?.subtle;
  if (subtle && !options.forceFallback) {
    return toHex(new Uint8Array(await subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)));
  }
  const hasher = sha256.create();
  for (let offset = 0; offset < bytes.length; offset += SLICE) {
    hasher.update(bytes.subarray(offset, offset + SLICE));
    // Yield between slices so progress and input stay live on slow machines.
    if (offset + SLICE < bytes.length) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return toHex(hasher.digest());
}

/**
 * SHA-256 fed chunk by chunk while a download arrives, so the digest is ready the moment the
 * last byte is: hashing 20 MB afterwards would delay the first slide.
 */
export class StreamingSha256 {
  private hasher = sha256.create();
  private digest: string | undefined;

  update(chunk: Uint8Array): void {
    this.hasher.update(chunk);
  }

  /** The digest of everything so far; the hash is final once asked (a later update throws). */
  hex(): string {
    this.digest ??= toHex(this.hasher.digest());
    return this.digest;
  }
}
