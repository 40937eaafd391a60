/**
 * @module client/lib/download
 * Hand bytes the browser already has to the user as a file: a blob URL and a download link,
 * nothing sent anywhere. The URL is revoked a minute later (a download reads it at once;
 * revoking at once cancels it in some engines).
 */

/** Kept this long for the browser to read the blob: generous on a slow disk. */
const REVOKE_AFTER_MS = 60_000;

/** A file name without characters that file systems refuse. */
export function safeFilename(name: string, fallback = "deck"): string {
  const clean = name.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 150);
  return clean || fallback;
}

export function saveFile(data: BlobPart, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.rel = "noopener";
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
