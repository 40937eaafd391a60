/**
 * @module deck/mupdf-types
 * Type-only names for mupdf objects. Browser-safe modules take the mupdf module and document
 * as parameters (the browser loads mupdf's WASM itself, in a Web Worker) and import only
 * these types, which the compiler erases.
 */
import type * as MupdfModuleNamespace from "mupdf";

export type MupdfModule = typeof MupdfModuleNamespace;
export type PdfDoc = MupdfModuleNamespace.PDFDocument;
export type PdfObj = MupdfModuleNamespace.PDFObject;
