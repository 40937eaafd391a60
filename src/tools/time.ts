/**
 * @module tools/time
 * Time as the API writes it: ISO-8601 UTC to the second (`2026-11-25T23:05:10Z`), with no
 * milliseconds, in every record, log line and CLI table alike.
 */

export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
