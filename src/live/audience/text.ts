/**
 * @module live/audience/text
 * What the audience types, as the server keeps it: NFC, control characters and
 * bidirectional overrides dropped, line breaks and tabs as one space, trimmed, and counted in
 * characters as people count them (code points), not in UTF-16 units (an emoji is one).
 * The server keeps text verbatim otherwise: it is shown as text on every surface, never HTML,
 * so escaping here would only garble `<` for the readers.
 */

// Line breaks and tabs become a space (a question typed on two lines stays two words);
// the other C0/C1 controls and the bidi embeddings/overrides/isolates (which can reverse how
// a question reads on the projector) are dropped.
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
const CONTROLS = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** The text as kept: NFC, no control characters, trimmed. */
export function cleanText(input: string): string {
  return input.normalize("NFC").replace(BREAKS, " ").replace(CONTROLS, "").trim();
}


/**
 * When each of the last `limit` events happened: admits an event while fewer than `limit`
 * fall within `windowMs` of now. Kept per viewer id and per address; bounded by `limit`.
 */
export class RecentEvents {
  private readonly times = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Whether `key` may act at `now` (nothing is recorded). */
  allows(key: string, now: number): boolean {
    const recent = (this.times.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length > 0) this.times.set(key, recent);
    else this.times.delete(key);
    return recent.length < this.limit;
  }

  record(key: string, now: number): void {
    const recent = this.times.get(key) ?? [];
    recent.push(now);
    this.times.set(key, recent.slice(-this.limit));
  }
}
