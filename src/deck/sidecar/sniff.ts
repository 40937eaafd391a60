/**
 * @module deck/sidecar/sniff
 * MIME type from the first bytes of a file (the bytes decide, never the name). Browser-safe.
 * `SNIFF_BYTES` is how many leading bytes the sniffer wants.
 */

/** Enough for every signature below, including an HTML tag after a long BOM/whitespace run. */
export const SNIFF_BYTES = 512;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[offset + i] !== signature[i]) return false;
  return true;
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  let text = "";
  for (let i = start; i < Math.min(end, bytes.length); i++) text += String.fromCharCode(bytes[i] as number);
  return text;
}

/** ISO BMFF brands that are QuickTime rather than MP4. */
const QUICKTIME_BRANDS = new Set(["qt  "]);

function sniffIsoBmff(bytes: Uint8Array): string | null {
  if (ascii(bytes, 4, 8) !== "ftyp") return null;
  const brand = ascii(bytes, 8, 12);
  if (QUICKTIME_BRANDS.has(brand)) return "video/quicktime";
  if (brand.startsWith("M4A") || brand === "M4B ") return "audio/mp4";
  if (brand === "avif" || brand === "avis") return "image/avif";
  if (brand === "heic" || brand === "heix" || brand === "mif1") return "image/heic";
  return "video/mp4";
}

function sniffEbml(bytes: Uint8Array): string | null {
  if (!startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return null;
  // The DocType element (0x4282) names the flavour: "webm" or "matroska".
  const head = ascii(bytes, 0, Math.min(bytes.length, 64));
  if (head.includes("webm")) return "video/webm";
  return "video/x-matroska";
}

function sniffText(bytes: Uint8Array): string | null {
  let i = 0;
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) i = 3;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  const head = ascii(bytes, i, i + 256).toLowerCase();
  if (head.startsWith("#!")) return "text/x-shellscript";
  if (head.startsWith("<!doctype html") || head.startsWith("<html") || head.startsWith("<script") || head.startsWith("<head") || head.startsWith("<body") || head.startsWith("<iframe")) return "text/html";
  if (head.startsWith("<svg") || (head.startsWith("<?xml") && head.includes("<svg"))) return "image/svg+xml";
  if (head.startsWith("<?xml")) return "application/xml";
  if (head.startsWith("{") || head.startsWith("[")) return "application/json";
  return null;
}

/** The sniffed MIME type, or null when nothing is recognised. */
export function sniffMime(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return null;
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return "image/gif"; // GIF8
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46])) {
    const form = ascii(bytes, 8, 12);
    if (form === "WEBP") return "image/webp";
    if (form === "WAVE") return "audio/wav";
    if (form === "AVI ") return "video/x-msvideo";
    return null;
  }
  const iso = sniffIsoBmff(bytes);
  if (iso) return iso;
  const ebml = sniffEbml(bytes);
  if (ebml) return ebml;
  if (startsWith(bytes, [0x4f, 0x67, 0x67, 0x53])) {
    // OggS: the first page's codec header says audio or video.
    const head = ascii(bytes, 0, Math.min(bytes.length, 128));
    return head.includes("theora") ? "video/ogg" : "audio/ogg";
  }
  if (startsWith(bytes, [0x66, 0x4c, 0x61, 0x43])) return "audio/flac"; // fLaC
  if (startsWith(bytes, [0x49, 0x44, 0x33])) return "audio/mpeg"; // ID3 tag
  if (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] as number) & 0xe0) === 0xe0 && ((bytes[1] as number) & 0x06) !== 0) return "audio/mpeg";
  if (startsWith(bytes, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])) return "video/x-ms-asf";
  if (startsWith(bytes, [0x46, 0x4c, 0x56, 0x01])) return "video/x-flv";
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0xba])) return "video/mpeg";
  if (startsWith(bytes, [0x46, 0x57, 0x53]) || startsWith(bytes, [0x43, 0x57, 0x53]) || startsWith(bytes, [0x5a, 0x57, 0x53])) return "application/x-shockwave-flash";
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf";
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return "application/zip";
  if (startsWith(bytes, [0x4d, 0x5a])) return "application/vnd.microsoft.portable-executable"; // MZ
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return "application/x-elf";
  if (startsWith(bytes, [0xcf, 0xfa, 0xed, 0xfe]) || startsWith(bytes, [0xce, 0xfa, 0xed, 0xfe]) || startsWith(bytes, [0xfe, 0xed, 0xfa, 0xcf]) || startsWith(bytes, [0xfe, 0xed, 0xfa, 0xce])) return "application/x-mach-binary";
  if (startsWith(bytes, [0xca, 0xfe, 0xba, 0xbe])) return "application/x-mach-binary"; // fat binary (also Java class)
  if (startsWith(bytes, [0x00, 0x61, 0x73, 0x6d])) return "application/wasm";
  return sniffText(bytes);
}

/** Sniffed types that run code when opened. */
const EXECUTABLE_MIMES = new Set([
  "application/vnd.microsoft.portable-executable",
  "application/x-elf",
  "application/x-mach-binary",
  "application/wasm",
  "text/x-shellscript",
  "text/html",
]);

/** Extensions that run code when opened (by a shell, a browser, an OS). */
const EXECUTABLE_EXTENSIONS = new Set([
  "exe", "dll", "com", "scr", "msi", "bat", "cmd", "ps1", "psm1", "vbs", "vbe", "wsf", "hta", "cpl", "jar",
  "js", "mjs", "cjs", "jse", "sh", "bash", "zsh", "command", "app", "apk", "dmg", "pkg", "deb", "rpm",
  "html", "htm", "xhtml", "shtml", "svgz", "php", "py", "pl", "rb", "lnk", "reg", "wasm",
]);

export function isExecutable(base: string, sniffed: string | null): boolean {
  if (sniffed && EXECUTABLE_MIMES.has(sniffed)) return true;
  const dot = base.lastIndexOf(".");
  return dot >= 0 && EXECUTABLE_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}

/** Types a browser plays in <video>/<audio>/<img> without plug-ins. */
export const PLAYABLE_MIMES = new Set([
  "image/gif", "image/png", "image/jpeg", "image/webp", "image/avif",
  "video/mp4", "video/webm", "video/ogg",
  "audio/mpeg", "audio/ogg", "audio/wav", "audio/mp4", "audio/flac", "audio/webm",
]);

/** Containers that exist as media but that most browsers cannot play. */
export const UNPLAYABLE_CONTAINERS = new Set([
  "video/x-msvideo", "video/quicktime", "video/x-ms-asf", "video/x-flv", "video/mpeg", "video/x-matroska",
]);

export function isMediaMime(mime: string | null): boolean {
  return !!mime && (PLAYABLE_MIMES.has(mime) || UNPLAYABLE_CONTAINERS.has(mime));
}

/** MIME type implied by a media extension, for the extension-versus-bytes check. */
export const EXTENSION_MIME: Record<string, string> = {
  gif: "image/gif", png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp",
  mp4: "video/mp4", m4v: "video/mp4", webm: "video/webm", ogv: "video/ogg", ogg: "audio/ogg", oga: "audio/ogg",
  mp3: "audio/mpeg", wav: "audio/wav", m4a: "audio/mp4", flac: "audio/flac",
  mov: "video/quicktime", avi: "video/x-msvideo", wmv: "video/x-ms-asf", flv: "video/x-flv", mkv: "video/x-matroska", mpg: "video/mpeg", mpeg: "video/mpeg",
};

/** Normalise a declared MIME type: lower case, parameters dropped, common aliases folded. */
export function normalizeMime(mime: string): string {
  const bare = (mime.split(";")[0] ?? "").trim().toLowerCase();
  const aliases: Record<string, string> = {
    "audio/mp3": "audio/mpeg", "audio/x-wav": "audio/wav", "audio/wave": "audio/wav", "audio/vnd.wave": "audio/wav",
    "image/jpg": "image/jpeg", "video/x-m4v": "video/mp4", "audio/x-m4a": "audio/mp4", "video/avi": "video/x-msvideo",
    "video/x-ms-wmv": "video/x-ms-asf", "audio/x-flac": "audio/flac", "application/ogg": "audio/ogg",
  };
  return aliases[bare] ?? bare;
}

/**
 * True when a declared type agrees with the sniffed one. Ogg and MP4 carry audio or video,
 * so `video/ogg` versus `audio/ogg` (and mp4 likewise) is not a disagreement.
 */
export function mimeAgrees(declared: string, sniffed: string): boolean {
  const a = normalizeMime(declared);
  const b = normalizeMime(sniffed);
  if (a === b) return true;
  const family = (m: string) => (m.endsWith("/ogg") ? "ogg" : m.endsWith("/mp4") ? "mp4" : m.endsWith("/webm") ? "webm" : m);
  return family(a) === family(b);
}
