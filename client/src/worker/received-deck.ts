/**
 * @module client/worker/received-deck
 * A deck's bytes as the claim downloads them, kept by the render worker chunk by chunk
 * (`receive` messages) so it can open the deck the moment the last byte came, without the page
 * copying 20 MB to it afterwards. Chunks come in order; one out of order (a download resumed
 * into a worker that missed its start) drops what was kept, and `take` then refuses.
 */
export class ReceivedDeck {
  private bytes: Uint8Array | null = null;
  private length = 0;

  /** Keep `chunk`, which starts at byte `at` of the file (0 starts a new deck); `total`: the announced length. */
  receive(chunk: ArrayBuffer, at: number, total: number | null): void {
    if (at === 0) {
      this.bytes = new Uint8Array(Math.max(total ?? 0, chunk.byteLength));
      this.length = 0;
    }
    if (!this.bytes || at !== this.length) {
      this.bytes = null;
      return;
    }
    const end = at + chunk.byteLength;
    if (end > this.bytes.byteLength) {
      // More than announced (or nothing was): grow by doubling.
      const grown = new Uint8Array(Math.max(end, this.bytes.byteLength * 2));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(new Uint8Array(chunk), at);
    this.length = end;
  }

  /** Every byte kept, which must be `expected` bytes in all, and forget them; throws otherwise. */
  take(expected: number): Uint8Array {
    const bytes = this.bytes;
    const length = this.length;
    this.bytes = null;
    this.length = 0;
    if (!bytes || length !== expected) throw new Error("The deck's bytes did not all arrive here.");
    return bytes.subarray(0, length);
  }
}
