/**
 * Read back a QR code that uqr's renderUnicodeCompact drew with block characters (two
 * modules per character: █ both light, ▀ top light, ▄ bottom light, space both dark), so a
 * test can compare it with the matrix the library encodes for a given text.
 */
import { encode } from "uqr";

const TOP_BOTTOM_LIGHT: Record<string, [boolean, boolean]> = { "█": [true, true], "▀": [true, false], "▄": [false, true], " ": [false, false] };

/** The QR block in `text`: the longest run of lines made only of the four block characters. */
export function qrLines(text: string): string[] {
  let best: string[] = [];
  let run: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.length > 10 && /^[█▀▄ ]+$/.test(line)) run.push(line);
    else run = [];
    if (run.length > best.length) best = [...run];
  }
  return best;
}

/** Does the drawn QR show exactly the modules uqr encodes for `data` (dark = true)? */
export function drawsQrOf(lines: string[], data: string): boolean {
  const { data: matrix, size } = encode(data);
  if (lines.length !== Math.ceil(size / 2)) return false;
  for (let row = 0; row < size; row += 2) {
    const line = [...lines[row / 2]!];
    if (line.length !== size) return false;
    for (let col = 0; col < size; col++) {
      const [top, bottom] = TOP_BOTTOM_LIGHT[line[col]!]!;
      if (top !== !matrix[row]![col]) return false;
      // Past the last row the renderer draws dark.
      if (row + 1 < size && bottom !== !matrix[row + 1]![col]) return false;
    }
  }
  return true;
}

/**
 * Does an SVG drawn by uqr's renderSVG (one `Mx,yh…` square per dark module) show exactly the
 * modules uqr encodes for `data`, at some error-correction level? Reads the modules back from
 * the path, so a test checks what the picture encodes, not how the page asked for it.
 */
export function svgDrawsQrOf(svg: string, data: string): boolean {
  const box = /viewBox="0 0 (\d+) \d+"/.exec(svg);
  const squares = [...svg.matchAll(/M(\d+),(\d+)h(\d+)/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]), w: Number(m[3]) }));
  if (!box || squares.length === 0) return false;
  const unit = squares[0]!.w;
  const border = Math.min(...squares.map((s) => s.x)) / unit;
  const size = Number(box[1]) / unit - 2 * border;
  const dark = new Set(squares.map((s) => `${s.x / unit - border},${s.y / unit - border}`));
  return (["L", "M", "Q", "H"] as const).some((ecc) => {
    const { data: matrix, size: n } = encode(data, { ecc, border: 0 });
    if (n !== size) return false;
    for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) if (matrix[row]![col] !== dark.has(`${col},${row}`)) return false;
    return true;
  });
}
