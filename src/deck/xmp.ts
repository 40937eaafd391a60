/**
 * @module deck/xmp
 * pdfpc's LaTeX package (`\usepackage[duration=20]{pdfpc}`) writes its settings into the PDF's
 * XMP packet (through hyperxmp): `pdfpc:Duration`, `StartTime`, `EndTime`, `LastMinutes`,
 * `EndUserSlide`, `NotesPosition`, `DisableMarkdown`. They are read here like an attached
 * `.pdfpc` file's fields. hyperxmp writes them as elements of an `rdf:Description`; the RDF
 * shorthand (attributes of `rdf:Description`) is read too. The packet is the document's
 * `/Root /Metadata` stream, decoded with the capped stream decoder and parsed as untrusted XML
 * (no DOCTYPE, no entities). Browser-safe: the mupdf document comes in as a parameter.
 */
import type { PdfpcMetadata } from "./check-report.gen.ts";
import type { PdfDoc, PdfObj } from "./mupdf-types.ts";
import { isNotesPosition } from "./notes-layout.ts";
import { finding, type Finding } from "./sidecar/findings.ts";
import { normalizeEndTime } from "./sidecar/pdfpc.ts";
import { concat, decodeStream } from "./stream-decode.ts";
import { childElements, parseXml, textOf, type XmlElement } from "./xml.ts";

/**
 * The pdfpc: fields, as the check report publishes them (`pdfpcMetadata`): the type generated
 * from schemas/check-report.schema.json, so the reader and the report cannot drift apart.
 * Minutes for durations, "HH:MM" for times, `endUserSlide` 1-based (pdfpc's `enduserslide`).
 */
export type { PdfpcMetadata } from "./check-report.gen.ts";

/**
 * Decoded XMP packets larger than this are not read. hyperxmp writes ~15 KB; Adobe tools with
 * embedded thumbnails and edit history reach a few hundred KB.
 */
export const MAX_XMP_BYTES = 4 * 1024 * 1024;

const FIELDS = ["Duration", "StartTime", "EndTime", "LastMinutes", "EndUserSlide", "NotesPosition", "DisableMarkdown"] as const;
type Field = (typeof FIELDS)[number];

/** pdfpc.sty's namespace is https://github.com/pdfpc/pdfpc; any URI naming pdfpc is accepted. */
function isPdfpcNamespace(uri: string | undefined, prefix: string): boolean {
  return uri !== undefined && uri !== "" ? /pdfpc/i.test(uri) : prefix === "pdfpc";
}

/** The document's XMP packet as text, or a finding saying why it cannot be read; null when there is none. */
function readPacket(doc: PdfDoc): { text: string } | { issue: Finding } | null {
  let stream: PdfObj;
  try {
    stream = doc.getTrailer().get("Root", "Metadata");
    if (!stream || stream.isNull() || !stream.isStream()) return null;
  } catch {
    return null;
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  const outcome = decodeStream(stream, MAX_XMP_BYTES, (chunk) => {
    parts.push(chunk.slice());
    size += chunk.length;
  });
  if (outcome.status === "too-large") return { issue: finding("XMP_UNREADABLE", `The PDF's XMP metadata is larger than ${MAX_XMP_BYTES / 1024 / 1024} MiB; its pdfpc settings (duration, end time, notes position) are not read. Export the deck again without oversized metadata.`) };
  if (outcome.status !== "ok") return { issue: finding("XMP_UNREADABLE", "The PDF's XMP metadata stream cannot be decoded; its pdfpc settings are not read. Export the deck again.") };
  const bytes = concat(parts, size);
  let encoding: "utf-8" | "utf-16be" | "utf-16le" = "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) encoding = "utf-16be";
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) encoding = "utf-16le";
  return { text: new TextDecoder(encoding).decode(bytes) };
}

/**
 * The pdfpc fields of the document's XMP packet. `metadata` is null when the document has no
 * packet or no pdfpc field in it. Bad values are left out, each with a finding; a packet that
 * declares a DOCTYPE or entities is not read at all (XML_DOCTYPE_REFUSED). Never throws.
 */
export function readPdfpcMetadata(doc: PdfDoc): { metadata: PdfpcMetadata | null; issues: Finding[] } {
  const issues: Finding[] = [];
  let packet: ReturnType<typeof readPacket>;
  try {
    packet = readPacket(doc);
  } catch {
    return { metadata: null, issues: [finding("XMP_UNREADABLE", "The PDF's XMP metadata cannot be read; its pdfpc settings are not read. Export the deck again.")] };
  }
  if (packet === null) return { metadata: null, issues };
  if ("issue" in packet) return { metadata: null, issues: [packet.issue] };
  const parsed = parseXml(packet.text, MAX_XMP_BYTES);
  if (!parsed.ok) {
    if (parsed.reason === "doctype") issues.push(finding("XML_DOCTYPE_REFUSED", "The PDF's XMP metadata declares a DOCTYPE or entities, which deckhand never expands; its pdfpc settings are not read. Export the deck again with a standard tool."));
    else issues.push(finding("XMP_UNREADABLE", "The PDF's XMP metadata is not well-formed XML; its pdfpc settings (duration, end time, notes position) are not read. Export the deck again."));
    return { metadata: null, issues };
  }
  const raw = collectFields(parsed.root);
  if (raw.size === 0) return { metadata: null, issues };
  return { metadata: interpret(raw, issues), issues };
}

/** Field → its first value, from elements and from rdf:Description attributes, namespaces resolved. */
function collectFields(root: XmlElement): Map<Field, string> {
  const found = new Map<Field, string>();
  const stack: { element: XmlElement; scope: Map<string, string> }[] = [{ element: root, scope: new Map() }];
  while (stack.length > 0) {
    const { element, scope: parentScope } = stack.pop() as (typeof stack)[number];
    let scope = parentScope;
    for (const [k, v] of Object.entries(element.attrs)) {
      if (k.startsWith("xmlns:")) {
        if (scope === parentScope) scope = new Map(parentScope);
        scope.set(k.slice(6), v);
      }
    }
    const prefix = element.name.includes(":") ? element.name.slice(0, element.name.indexOf(":")) : "";
    if ((FIELDS as readonly string[]).includes(element.local) && isPdfpcNamespace(element.ns, prefix)) {
      const field = element.local as Field;
      // rdf:Alt/Seq wrappers are not used by pdfpc.sty, but take the first li's text if present.
      if (!found.has(field)) found.set(field, textOf(element).trim());
    }
    for (const [k, v] of Object.entries(element.attrs)) {
      const colon = k.indexOf(":");
      if (colon < 0) continue;
      const attrPrefix = k.slice(0, colon);
      const local = k.slice(colon + 1);
      if (attrPrefix === "xmlns" || !(FIELDS as readonly string[]).includes(local)) continue;
      if (isPdfpcNamespace(scope.get(attrPrefix), attrPrefix) && !found.has(local as Field)) found.set(local as Field, v.trim());
    }
    const kids = childElements(element);
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ element: kids[i] as XmlElement, scope });
  }
  return found;
}

function interpret(raw: Map<Field, string>, issues: Finding[]): PdfpcMetadata {
  const metadata: PdfpcMetadata = {};
  const bad = (field: Field, what: string) => issues.push(finding("PDFPC_METADATA_INVALID", `The PDF's XMP field pdfpc:${field} is ${JSON.stringify(raw.get(field)?.slice(0, 40))}; it must be ${what}. It is ignored; fix the option of \\usepackage{pdfpc}.`));
  const minutes = (field: Field): number | undefined => {
    const text = raw.get(field);
    if (text === undefined || text === "") return undefined;
    const value = Number(text);
    if (/^\d+(\.\d+)?$/.test(text) && Number.isFinite(value) && value <= 24 * 60) return value;
    bad(field, "a number of minutes");
    return undefined;
  };
  const time = (field: Field): string | undefined => {
    const text = raw.get(field);
    if (text === undefined || text === "") return undefined;
    const value = normalizeEndTime(text);
    if (value) return value;
    bad(field, 'a time of day "HH:MM"');
    return undefined;
  };
  const duration = minutes("Duration");
  if (duration !== undefined) metadata.duration = duration;
  const lastMinutes = minutes("LastMinutes");
  if (lastMinutes !== undefined) metadata.lastMinutes = lastMinutes;
  const startTime = time("StartTime");
  if (startTime !== undefined) metadata.startTime = startTime;
  const endTime = time("EndTime");
  if (endTime !== undefined) metadata.endTime = endTime;
  const endSlide = raw.get("EndUserSlide");
  if (endSlide !== undefined && endSlide !== "") {
    const value = Number(endSlide);
    if (/^\d+$/.test(endSlide) && value >= 1 && Number.isSafeInteger(value)) metadata.endUserSlide = value;
    else bad("EndUserSlide", "a slide number (1 or more)");
  }
  const position = raw.get("NotesPosition")?.toLowerCase();
  if (position !== undefined && position !== "" && position !== "auto") {
    if (isNotesPosition(position)) metadata.notesPosition = position;
    else bad("NotesPosition", "none, right, left, bottom or top");
  }
  const markdown = raw.get("DisableMarkdown")?.toLowerCase();
  if (markdown !== undefined && markdown !== "") {
    if (markdown === "true" || markdown === "false") metadata.disableMarkdown = markdown === "true";
    else bad("DisableMarkdown", "true or false");
  }
  return metadata;
}
