/**
 * @module deck/sidecar/findings
 * The catalogue of check findings. Each finding has a stable SCREAMING_SNAKE `code` that
 * tools branch on, a fixed level, and a message written for the deck's author (what is wrong
 * and what to do). Never rename a code: add a new one instead. Browser-safe.
 */

export type FindingLevel = "error" | "warning";

/** code → level and a one-line meaning (the meaning is what docs/decks/check-report.md lists). */
export const FINDING_CODES = {
  // Names and slide numbers
  NAME_PATTERN_INVALID: { level: "warning", meaning: "An attachment looks like a sidecar but its name does not follow the convention, so it is ignored." },
  SLIDE_OUT_OF_RANGE: { level: "error", meaning: "A sidecar names a slide outside 1..pageCount." },
  SLIDE_MISMATCH: { level: "error", meaning: "The `slide` field of a sidecar disagrees with the slide number in its filename." },
  MEDIA_ID_MISMATCH: { level: "error", meaning: "The `id` field of a media sidecar disagrees with the id in its filename." },
  ATTACHMENT_PAGE_MISMATCH: { level: "warning", meaning: "A sidecar attached to a page names another slide; the filename wins." },
  DUPLICATE_ATTACHMENT_NAME: { level: "error", meaning: "Two attachments share a base name; only the first is used." },
  DUPLICATE_NOTES_SIDECAR: { level: "error", meaning: "Two notes sidecars name the same slide (e.g. notes-slide-2.json and notes-slide-02.json); only the first is used." },
  UNKNOWN_ATTACHMENT: { level: "warning", meaning: "An attachment follows no convention; it is listed as an orphan and ignored." },
  // Text and JSON
  INVALID_UTF8: { level: "error", meaning: "A sidecar is not valid UTF-8." },
  INVALID_JSON: { level: "error", meaning: "A sidecar is not valid JSON." },
  SIDECAR_TOO_LARGE: { level: "error", meaning: "A sidecar is larger than the sidecar size limit (1 MiB)." },
  MISSING_FIELD: { level: "error", meaning: "A required field is missing." },
  INVALID_FIELD: { level: "error", meaning: "A field has the wrong type or an invalid value." },
  UNKNOWN_FIELD: { level: "warning", meaning: "A field is not part of the format (often a typo); it is ignored." },
  // Notes
  NOTES_EMPTY: { level: "warning", meaning: "A notes sidecar renders to empty text." },
  TYPST_ELEMENT_UNSUPPORTED: { level: "warning", meaning: "A Typst content element has no markdown equivalent; only its text is kept." },
  NOTES_MULTIPLE_SOURCES: { level: "warning", meaning: "Several sources give notes for one slide; the presenter uses the first by priority (notes sidecar, notes file beside the PDF, attached pdfpc, notes half of the page, in-page annotation)." },
  // Media
  MEDIA_RECT_INVALID: { level: "error", meaning: "A media rectangle has a non-positive or non-finite size or position." },
  MEDIA_RECT_OUTSIDE_PAGE: { level: "error", meaning: "A media rectangle lies entirely outside the page box." },
  MEDIA_RECT_CLIPPED: { level: "warning", meaning: "A media rectangle extends past the page box; the overflow is clipped." },
  MEDIA_FILE_MISSING: { level: "error", meaning: "A kind:\"file\" media sidecar references a binary attachment that is not in the PDF." },
  MEDIA_FILE_UNREFERENCED: { level: "warning", meaning: "A media-{id}.{ext} binary is referenced by no media sidecar." },
  MEDIA_NOT_IN_DECK: { level: "warning", meaning: "A movie of the PDF (Beamer's \\movie, a Launch or run: link, a Screen annotation) names a file beside the PDF that the deck neither embeds nor attaches nor plays through a media sidecar: it cannot play, and the audience sees the poster drawn on the slide." },
  MEDIA_FILENAME_PATTERN: { level: "warning", meaning: "A media sidecar's `filename` does not follow media-{id}.{gif|mp4|webm}." },
  MIME_MISMATCH: { level: "error", meaning: "The declared MIME type (sidecar `mime` or file extension) disagrees with the sniffed bytes." },
  EMBEDDED_MIME_MISMATCH: { level: "warning", meaning: "The MIME type recorded in the PDF (/Subtype of the embedded file) disagrees with the sniffed bytes." },
  MEDIA_TYPE_UNSUPPORTED: { level: "error", meaning: "A media binary is not audio, video or an animated/still image a browser shows." },
  UNPLAYABLE_CONTAINER: { level: "warning", meaning: "A media container most browsers cannot play (AVI, QuickTime, WMV, FLV, MPEG-PS, Matroska)." },
  URL_INVALID: { level: "error", meaning: "A media URL cannot be parsed." },
  URL_SCHEME_NOT_ALLOWED: { level: "error", meaning: "A media URL uses a scheme other than http or https." },
  VIDEO_ID_UNRECOGNIZED: { level: "error", meaning: "No YouTube/Vimeo video id can be extracted from `video_id`/`url`." },
  // Polls
  DUPLICATE_POLL_SIDECAR: { level: "error", meaning: "Two poll sidecars name the same slide (e.g. poll-slide-2.json and poll-slide-02.json); only the first is used." },
  POLL_OPTIONS_DUPLICATE: { level: "error", meaning: "A poll sidecar lists the same option more than once." },
  // pdfpc
  PDFPC_FORMAT_UNSUPPORTED: { level: "error", meaning: "A .pdfpc file has a `pdfpcFormat` other than 1 or 2 (or is the old text format)." },
  PDFPC_MULTIPLE: { level: "warning", meaning: "Several .pdfpc files are attached; only the first is used." },
  // pdfpc's LaTeX package (XMP metadata)
  XMP_UNREADABLE: { level: "warning", meaning: "The PDF's XMP metadata cannot be decoded or is not well-formed XML (or is larger than 4 MiB); the pdfpc settings in it are not read." },
  PDFPC_METADATA_INVALID: { level: "warning", meaning: "A pdfpc: field of the PDF's XMP metadata (Duration, StartTime, EndTime, LastMinutes, EndUserSlide, NotesPosition, DisableMarkdown) has a value of the wrong form; it is ignored." },
  XML_DOCTYPE_REFUSED: { level: "error", meaning: "XML (the PDF's XMP metadata or a part of a .pptx notes file) declares a DOCTYPE or entities; deckhand never expands entities, so it is not read." },
  // Notes layouts in the pages (Beamer's notes on a second screen)
  NOTES_LAYOUT_MISMATCH: { level: "warning", meaning: "The notes position pdfpc's LaTeX package wrote (pdfpc:NotesPosition) disagrees with the page geometry or the notes pages found; the position the pages show is used, or none." },
  NOTES_LAYOUT_UNSPLITTABLE: { level: "warning", meaning: "The deck looks like slides with notes on a second screen, but its pages differ in size (some doubled, some not), so no page is split; the audience would see the notes half." },
  NOTES_LAYOUT_UNCERTAIN: { level: "warning", meaning: "Every page is two slides side by side, but no Beamer notes page or navigation was recognised; the right half is taken as the notes (pgfpages' default). Set the notes position to none in the presenter if the slides are meant to be that wide." },
  // A notes file beside the PDF (.pdfpc or .pptx)
  NOTES_FILE_UNRECOGNIZED: { level: "error", meaning: "The notes file is neither a pdfpc JSON file nor a PowerPoint .pptx; it is not used." },
  NOTES_FILE_TOO_LARGE: { level: "error", meaning: "The notes file is larger than the notes file limit (32 MiB); it is not read." },
  NOTES_FILE_TRUNCATED: { level: "warning", meaning: "The notes of a slide in the notes file are longer than 64 Ki characters, or all notes together pass 8 MiB; the rest is left out." },
  NOTES_FILE_EMPTY: { level: "warning", meaning: "The notes file gives no notes for any slide." },
  NOTES_FILE_SLIDE_COUNT_MISMATCH: { level: "warning", meaning: "The notes file has a different number of (visible) slides than the PDF has pages; notes are matched to pages in order and may be on the wrong slides." },
  PPTX_ZIP_INVALID: { level: "error", meaning: "The .pptx file is not a readable zip archive (damaged or truncated)." },
  PPTX_ZIP_BOMB: { level: "error", meaning: "A part of the .pptx file inflates past its cap (more than 200 times its compressed size, or 64 MiB in all): a zip bomb; it is not read." },
  PPTX_PART_TOO_LARGE: { level: "error", meaning: "An XML part of the .pptx file is larger than the per-part cap (8 MiB); the file is not read." },
  PPTX_PART_MALFORMED: { level: "error", meaning: "An XML part of the .pptx file that the notes need (presentation, relationships, slide, notes slide) is missing or not well-formed." },
  PPTX_TOO_MANY_SLIDES: { level: "error", meaning: "The .pptx file has more slides or notes slides (or zip entries) than deckhand reads (3,000 slides); it is not read." },
  // Attachment bytes
  ATTACHMENT_STREAM_MISSING: { level: "error", meaning: "A file specification has no embedded file stream (/EF /F)." },
  STREAM_DECODE_FAILED: { level: "error", meaning: "An embedded file stream cannot be decoded." },
  ATTACHMENT_TOO_LARGE: { level: "error", meaning: "An attachment decodes to more than the per-attachment cap (a decompression bomb or an oversized file); it is not read." },
  DECODE_BUDGET_EXCEEDED: { level: "error", meaning: "The attachments together decode to more than the per-document budget; the rest are not read." },
  CHECKSUM_MISMATCH: { level: "error", meaning: "/Params /CheckSum (MD5) does not match the decoded bytes." },
  SIZE_MISMATCH: { level: "error", meaning: "/Params /Size does not match the decoded byte count." },
  EXECUTABLE_ATTACHMENT: { level: "error", meaning: "An attachment is an executable or script (exe, ELF, Mach-O, shell, JavaScript, HTML, …)." },
  // PDF structure
  NAME_TREE_LOOP: { level: "error", meaning: "The EmbeddedFiles name tree has a Kids entry that loops back; the loop is skipped." },
  NAME_TREE_TOO_DEEP: { level: "error", meaning: "The EmbeddedFiles name tree is deeper than the depth cap; deeper nodes are skipped." },
  NAME_TREE_TOO_LARGE: { level: "error", meaning: "The EmbeddedFiles name tree has more nodes than the node cap; the rest are skipped." },
  NAME_TREE_MALFORMED: { level: "warning", meaning: "A name tree node is malformed (missing or odd Names, non-string keys); the bad entries are skipped." },
  TOO_MANY_ATTACHMENTS: { level: "error", meaning: "The PDF has more attachments than the attachment cap; the rest are not checked." },
  ANNOTATION_MALFORMED: { level: "warning", meaning: "A FileAttachment/Screen/RichMedia/Movie annotation lacks what it needs (file specification, movie file, rectangle); it is skipped." },
  ANNOTATIONS_TOO_MANY: { level: "error", meaning: "The PDF has more annotations than the annotation cap; the annotations after it are not checked." },
  NOTES_TOO_LONG: { level: "warning", meaning: "The in-page notes of a slide are longer than the per-slide cap (64 Ki characters); the rest is left out." },
  REPORT_TRUNCATED: { level: "warning", meaning: "The notes text of the report reached its size cap; the text of further notes is left out of the report (their findings are kept)." },
  PAGE_UNREADABLE: { level: "error", meaning: "A page object cannot be read; its annotations are not checked." },
  STRUCTURE_UNREADABLE: { level: "error", meaning: "Part of the PDF's object structure cannot be read; what depends on it is not checked." },
} as const satisfies Record<string, { level: FindingLevel; meaning: string }>;

export type FindingCode = keyof typeof FINDING_CODES;

export interface Finding {
  code: FindingCode;
  level: FindingLevel;
  /** Plain sentence for the author: what is wrong and how to fix it. Never a server path. */
  message: string;
  /** 1-based slide the finding is about, when there is one. */
  slide?: number;
  /** Base name of the attachment the finding is about, when there is one. */
  attachment?: string;
}

export function finding(code: FindingCode, message: string, where: { slide?: number | undefined; attachment?: string | undefined } = {}): Finding {
  const result: Finding = { code, level: FINDING_CODES[code].level, message };
  if (where.slide !== undefined) result.slide = where.slide;
  if (where.attachment !== undefined) result.attachment = where.attachment;
  return result;
}

/** The one wording for a slide number outside the deck, used by every convention. */
export function slideOutOfRangeMessage(slide: number, pageCount: number): string {
  return `Slide ${slide} is out of range (the deck has ${pageCount} ${pageCount === 1 ? "page" : "pages"})`;
}

/** Quote an untrusted name for a message: control characters removed, length bounded. */
export function quoteName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, "");
  return `"${clean.length > 120 ? `${clean.slice(0, 117)}…` : clean}"`;
}
