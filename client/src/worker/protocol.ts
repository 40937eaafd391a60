/**
 * @module client/worker/protocol
 * Messages between pages and the render worker. Slides are 1-based, sizes in PDF points.
 */
import type { DeckExtras } from "../../../src/deck/sidecar/types.ts";

export interface OpenResult {
  pageCount: number;
  title: string | null;
  /** Size of page 1, so layouts can be sized before the first render. */
  firstPage: { w: number; h: number };
  extras: DeckExtras;
}

export interface RenderResult {
  page: number;
  /** Page size in points. */
  w: number;
  h: number;
  bitmap: ImageBitmap;
  /** Milliseconds the worker spent rendering. */
  ms: number;
}

export type WorkerRequest =
  | { id: number; type: "open"; data: ArrayBuffer }
  | { id: number; type: "render"; page: number; width: number; priority: number }
  | { id: number; type: "attachment"; name: string };

export type WorkerResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string };


