/**
 * @module client/storage/storage-error
 * Why this browser's storage refused to work, in terms a screen can explain: the error every
 * store (decks, recordings) throws, and how an IndexedDB DOMException maps to it.
 */

/** Why storage refused to work, in terms a screen can explain. */
export type StorageFailure = "quota" | "unavailable" | "blocked" | "unknown";

export class StorageError extends Error {
  readonly kind: StorageFailure;
  constructor(kind: StorageFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StorageError";
    this.kind = kind;
  }
}

/** Map a DOMException from IndexedDB to what the user can do about it. */
export function classifyStorageError(error: unknown): StorageFailure {
  const name = (error as { name?: string } | null)?.name ?? "";
  if (name === "QuotaExceededError") return "quota";
  // Firefox private windows and disabled storage throw these when opening the database.
  if (name === "InvalidStateError" || name === "SecurityError" || name === "NotAllowedError") return "unavailable";
  if (name === "UnknownError" && /quota|space|disk/i.test(String((error as Error).message))) return "quota";
  return "unknown";
}
