/**
 * @module sidecar/md5
 * Incremental MD5 (RFC 1321) for `/Params /CheckSum` of embedded files. Pure JS because the
 * browser's `crypto.subtle` has no MD5 (and no `crypto.subtle` at all on plain http). MD5 is
 * used only to compare with what the PDF declares, never for security.
 */

const S = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21];
const K = new Int32Array(64);
for (let i = 0; i < 64; i++) K[i] = Math.floor(Math.abs(Math.sin(i + 1)) * 0x100000000) | 0;

export class Md5 {
  private a = 0x67452301;
  private b = 0xefcdab89 | 0;
  private c = 0x98badcfe | 0;
  private d = 0x10325476;
  private readonly block = new Uint8Array(64);
  private readonly words = new Int32Array(16);
  private blockLength = 0;
  private total = 0;

  update(data: Uint8Array): this {
    let i = 0;
    this.total += data.length;
    if (this.blockLength > 0) {
      const take = Math.min(64 - this.blockLength, data.length);
      this.block.set(data.subarray(0, take), this.blockLength);
      this.blockLength += take;
      i = take;
      if (this.blockLength < 64) return this;
      this.compress(this.block, 0);
      this.blockLength = 0;
    }
    for (; i + 64 <= data.length; i += 64) this.compress(data, i);
    if (i < data.length) {
      this.block.set(data.subarray(i), 0);
      this.blockLength = data.length - i;
    }
    return this;
  }

  /** The 16-byte digest. The hasher must not be used afterwards. */
  digest(): Uint8Array {
    const bitLength = this.total * 8;
    const padLength = this.blockLength < 56 ? 56 - this.blockLength : 120 - this.blockLength;
    const pad = new Uint8Array(padLength + 8);
    pad[0] = 0x80;
    // Length in bits, little-endian 64-bit (split because JS bit operators are 32-bit).
    const low = bitLength >>> 0;
    const high = Math.floor(bitLength / 0x100000000) >>> 0;
    for (let j = 0; j < 4; j++) {
      pad[padLength + j] = (low >>> (8 * j)) & 0xff;
      pad[padLength + 4 + j] = (high >>> (8 * j)) & 0xff;
    }
    this.total -= pad.length; // update() counts the padding otherwise
    this.update(pad);
    const out = new Uint8Array(16);
    [this.a, this.b, this.c, this.d].forEach((word, w) => {
      for (let j = 0; j < 4; j++) out[w * 4 + j] = (word >>> (8 * j)) & 0xff;
    });
    return out;
  }

  hex(): string {
    return toHex(this.digest());
  }

  private compress(data: Uint8Array, offset: number): void {
    const m = this.words;
    for (let j = 0; j < 16; j++) {
      const p = offset + j * 4;
      m[j] = (data[p] as number) | ((data[p + 1] as number) << 8) | ((data[p + 2] as number) << 16) | ((data[p + 3] as number) << 24);
    }
    let a = this.a, b = this.b, c = this.c, d = this.d;
    for (let j = 0; j < 64; j++) {
      let f: number, g: number;
      if (j < 16) { f = (b & c) | (~b & d); g = j; }
      else if (j < 32) { f = (d & b) | (~d & c); g = (5 * j + 1) & 15; }
      else if (j < 48) { f = b ^ c ^ d; g = (3 * j + 5) & 15; }
      else { f = c ^ (b | ~d); g = (7 * j) & 15; }
      const sum = (a + f + (K[j] as number) + (m[g] as number)) | 0;
      const shift = S[j] as number;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) | 0;
    }
    this.a = (this.a + a) | 0;
    this.b = (this.b + b) | 0;
    this.c = (this.c + c) | 0;
    this.d = (this.d + d) | 0;
  }
}

export function md5Hex(data: Uint8Array): string {
  return new Md5().update(data).hex();
}

export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
