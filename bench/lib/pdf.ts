/**
 * @module bench/lib/pdf
 * Benchmark decks of an exact size: a small pdf-lib deck (a few real pages) followed by an
 * incremental update holding one large padding stream, written in chunks so the benchmark
 * process never holds the file in memory. mupdf opens it as an ordinary PDF (the update's
 * xref section chains to the original one through /Prev).
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { PDFDocument, StandardFonts } from "pdf-lib";

const CHUNK = 1024 * 1024;

/** A pseudo-random 1 MiB block (xorshift32): incompressible, and cheap to produce. */
function noiseBlock(seed: number): Uint8Array {
  const block = new Uint8Array(CHUNK);
  const words = new Uint32Array(block.buffer);
  let x = seed >>> 0 || 0x9e3779b9;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    words[i] = x >>> 0;
  }
  return block;
}

/** The small, real deck the padding is appended to. */
async function smallDeck(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle("deckhand benchmark deck");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([960, 540]);
    page.drawText(`Benchmark slide ${i}`, { x: 60, y: 260, size: 48, font });
  }
  return doc.save({ useObjectStreams: false });
}

/** Find `startxref N` at the end of a PDF, and the highest object number + 1 from the trailer. */
function trailerFacts(pdf: Uint8Array): { startxref: number; size: number; root: string; info: string | null } {
  const tail = new TextDecoder("latin1").decode(pdf.subarray(Math.max(0, pdf.length - 4096)));
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  const size = /\/Size\s+(\d+)/.exec(tail);
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(tail);
  const info = /\/Info\s+(\d+\s+\d+\s+R)/.exec(tail);
  if (!startxref || !size || !root) throw new Error("bench/lib/pdf: unexpected pdf-lib trailer");
  return { startxref: Number(startxref[1]), size: Number(size[1]), root: root[1]!, info: info ? info[1]! : null };
}

/**
 * Write a valid PDF of exactly `bytes` bytes (at least ~4 KB) with `pages` pages to `path`.
 * Returns the byte count written.
 */
export async function writeBenchPdf(path: string, bytes: number, pages = 3): Promise<number> {
  const deck = await smallDeck(pages);
  const facts = trailerFacts(deck);
  const objNum = facts.size;
  const objStart = deck.length + 1; // after the "\n" separator below
  const head = (len: number) => `\n${objNum} 0 obj\n<< /Length ${len} >>\nstream\n`;
  const tail = (xrefAt: number) =>
    `\nendstream\nendobj\n` +
    `xref\n0 1\n0000000000 65535 f \n${objNum} 1\n${String(objStart).padStart(10, "0")} 00000 n \n` +
    `trailer\n<< /Size ${objNum + 1} /Root ${facts.root}${facts.info ? ` /Info ${facts.info}` : ""} /Prev ${facts.startxref} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  // The padding length decides the header and trailer lengths (digits); settle it by iterating.
  let padding = 0;
  for (let i = 0; i < 4; i++) {
    const headLen = head(padding).length;
    const xrefAt = deck.length + headLen + padding + "\nendstream\nendobj\n".length;
    padding = bytes - deck.length - headLen - tail(xrefAt).length;
    if (padding < 0) throw new Error(`bench/lib/pdf: ${bytes} bytes is too small for a ${pages}-page deck`);
  }
  const headText = head(padding);
  const xrefAt = deck.length + headText.length + padding + "\nendstream\nendobj\n".length;
  const tailText = tail(xrefAt);

  const fd = openSync(path, "w");
  let written = 0;
  try {
    written += writeSync(fd, deck);
    written += writeSync(fd, Buffer.from(headText, "latin1"));
    const block = noiseBlock(bytes);
    let left = padding;
    while (left > 0) {
      const n = Math.min(left, block.length);
      written += writeSync(fd, block, 0, n);
      left -= n;
    }
    written += writeSync(fd, Buffer.from(tailText, "latin1"));
  } finally {
    closeSync(fd);
  }
  if (written !== bytes) throw new Error(`bench/lib/pdf: wrote ${written} bytes, wanted ${bytes}`);
  return written;
}
