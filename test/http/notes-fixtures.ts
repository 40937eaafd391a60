/**
 * Notes files beside a PDF (issue 19), built by code for the API tests: `.pdfpc` documents and
 * PowerPoint `.pptx` files (a zip of the minimal OOXML parts, made with fflate), good and
 * hostile. The notes reader's own tests (test/pdf, test/fixtures/pptx.ts) go deeper; these are
 * what a client sends over the wire.
 */
import { zipSync } from "fflate";

const enc = new TextEncoder();

const NS_P = "http://schemas.openxmlformats.org/presentationml/2006/main";
const NS_A = "http://schemas.openxmlformats.org/drawingml/2006/main";
const NS_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A .pdfpc document (format 2) with `notes` by 1-based slide. */
export function pdfpcFile(notes: Record<number, string>, extra: Record<string, unknown> = {}): Uint8Array {
  const pages = Object.entries(notes).map(([slide, note]) => ({ idx: Number(slide) - 1, label: slide, overlay: 0, forcedOverlay: false, hidden: false, note }));
  return enc.encode(JSON.stringify({ pdfpcFormat: 2, disableMarkdown: false, noteFontSize: 20, pages, ...extra }));
}

function notesSlideXml(text: string, prolog = ""): string {
  const paragraphs = text
    .split("\n")
    .map((line) => `<a:p><a:r><a:rPr lang="en-US" dirty="0"/><a:t>${escape(line)}</a:t></a:r></a:p>`)
    .join("");
  return (
    `${XML_HEAD}${prolog}<p:notes xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:cSld><p:spTree>` +
    `<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>` +
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>` +
    `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/>` +
    `<p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs}</p:txBody></p:sp>` +
    `</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:notes>`
  );
}

export interface PptxOptions {
  /** Notes text of each slide in order; null: a slide without a notes slide. */
  slides: Array<string | null>;
  /** Replace notes slide 1's XML (hostile XML). */
  notesSlide1Xml?: string;
  /** Extra zip entries, by name. */
  extra?: Record<string, Uint8Array>;
}

/** A .pptx: presentation.xml's slide list, each slide's relationships to its notes slide. */
export function pptxFile(options: PptxOptions): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const put = (name: string, text: string) => {
    files[name] = enc.encode(text);
  };
  const n = options.slides.length;
  put(
    "[Content_Types].xml",
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>` +
      options.slides
        .map(
          (notes, i) =>
            `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>` +
            (notes === null ? "" : `<Override PartName="/ppt/notesSlides/notesSlide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml"/>`),
        )
        .join("") +
      `</Types>`,
  );
  put("_rels/.rels", `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="ppt/presentation.xml"/></Relationships>`);
  put(
    "ppt/presentation.xml",
    `${XML_HEAD}<p:presentation xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:sldIdLst>` +
      options.slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 2}"/>`).join("") +
      `</p:sldIdLst><p:sldSz cx="12192000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
  );
  put(
    "ppt/_rels/presentation.xml.rels",
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      options.slides.map((_, i) => `<Relationship Id="rId${i + 2}" Type="${REL}/slide" Target="slides/slide${i + 1}.xml"/>`).join("") +
      `</Relationships>`,
  );
  for (let i = 0; i < n; i++) {
    const notes = options.slides[i];
    put(
      `ppt/slides/slide${i + 1}.xml`,
      `${XML_HEAD}<p:sld xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree></p:cSld></p:sld>`,
    );
    put(
      `ppt/slides/_rels/slide${i + 1}.xml.rels`,
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        (notes === null ? "" : `<Relationship Id="rId2" Type="${REL}/notesSlide" Target="../notesSlides/notesSlide${i + 1}.xml"/>`) +
        `</Relationships>`,
    );
    if (notes !== null && notes !== undefined) {
      put(`ppt/notesSlides/notesSlide${i + 1}.xml`, i === 0 && options.notesSlide1Xml !== undefined ? options.notesSlide1Xml : notesSlideXml(notes));
      put(
        `ppt/notesSlides/_rels/notesSlide${i + 1}.xml.rels`,
        `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="${REL}/slide" Target="../slides/slide${i + 1}.xml"/></Relationships>`,
      );
    }
  }
  Object.assign(files, options.extra ?? {});
  return zipSync(files, { level: 6 });
}

/** A notes slide whose XML declares entities that expand a billion-fold (billion laughs). */
export function billionLaughsPptx(): Uint8Array {
  const doctype =
    '<!DOCTYPE p:notes [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
    '<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">' +
    '<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;"><!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">' +
    '<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;"><!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">' +
    '<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;"><!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]>';
  const xml = notesSlideXml("LOLS", doctype).replace("<a:t>LOLS</a:t>", "<a:t>&lol9;</a:t>");
  return pptxFile({ slides: ["x", "second"], notesSlide1Xml: xml });
}

/** A notes slide that inflates from a few KB to `megabytes` MB: a zip bomb. */
export function zipBombPptx(megabytes = 24): Uint8Array {
  const padding = " ".repeat(megabytes * 1024 * 1024);
  return pptxFile({ slides: ["x", "second"], notesSlide1Xml: notesSlideXml("boom").replace("<a:t>boom</a:t>", `<a:t>boom${padding}</a:t>`) });
}

/** A presentation with `count` slides, each with a (tiny) notes slide. */
export function manySlidesPptx(count = 10_000): Uint8Array {
  return pptxFile({ slides: Array.from({ length: count }, (_, i) => `n${i + 1}`) });
}

/** A zip that is not a presentation (a word-processing document's parts). */
export function notAPptxZip(): Uint8Array {
  return zipSync({
    "[Content_Types].xml": enc.encode(`${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`),
    "word/document.xml": enc.encode(`${XML_HEAD}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>`),
  });
}
