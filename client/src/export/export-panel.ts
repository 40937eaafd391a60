/**
 * @module client/export/export-panel
 * *Save video* and *Save audio* for one recording: the two buttons, a progress bar with what
 * the export does (reading the recording, converting its sound, opening the deck, then saving
 * with the time left) and Cancel while an export runs, then what was saved — or, where this browser
 * has no video encoder, a sentence under *Save video* that says so (Save audio still works).
 * The library's list of recordings and the player mount it (`mountExportPanel`); it reads the
 * recording through a RecordingSource and the deck through a callback, so it works on any page.
 *
 * Where the browser can write a file in place (`showSaveFilePicker`) the user picks it first
 * and the export writes it as it goes; elsewhere the file is assembled as a Blob and handed
 * over as a download at the end.
 */
import type { NotesPosition } from "../../../src/deck/notes-layout.ts";
import { h } from "../lib/dom.ts";
import { safeFilename, saveFile } from "../lib/download.ts";
import { formatBytes } from "../lib/format.ts";
import { ExportProblem, exportStatus, startExport, type ExportDone, type ExportProgress, type RunningExport } from "./export-client.ts";
import type { ExportKind } from "./export-protocol.ts";
import type { RecordingSource } from "./recording-source.ts";
import { chooseVideoCodec } from "./video-codec.ts";

/** The deck a recording was made of, as the export needs it. */
export interface ExportDeck {
  bytes: ArrayBuffer;
  notesPosition?: NotesPosition;
  notesFile?: string;
}

/** Where a file goes: a handle to write in place, or null to assemble a Blob and download it; throws AbortError when the user declines. */
export type PickFile = (suggestedName: string, kind: ExportKind) => Promise<FileSystemFileHandle | null>;

export interface ExportPanelOptions {
  recording: RecordingSource;
  /** The recording's deck (null: it is no longer stored). */
  deck: () => Promise<ExportDeck | null>;
  /** Default: the browser's save dialog where it has one, else a download. */
  pickFile?: PickFile;
  /** Told of every file saved (the page may list it; tests read it). */
  onSaved?: (saved: { kind: ExportKind; name: string; file: Blob | null; result: ExportDone }) => void;
  /** Draw every frame but encode and save nothing: the benchmark's baseline (bench/export.ts); asked at each export. */
  dryRun?: () => boolean;
}

export interface ExportPanel {
  element: HTMLElement;
  /** Cancel a running export and take the panel away. */
  destroy(): void;
}

type SavePicker = (options: { suggestedName: string; types: { description: string; accept: Record<string, string[]> }[] }) => Promise<FileSystemFileHandle>;

/** The save dialog of browsers that have one (Chromium); elsewhere a download. */
export const pickWithDialog: PickFile = async (suggestedName, kind) => {
  const picker = (globalThis as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  if (!picker) return null;
  return picker({ suggestedName, types: [{ description: kind === "video" ? "WebM video" : "WebM audio", accept: { [kind === "video" ? "video/webm" : "audio/webm"]: [".webm"] } }] });
};

const LABEL: Record<ExportKind, string> = { video: "Save video", audio: "Save audio" };

export function mountExportPanel(host: HTMLElement, options: ExportPanelOptions): ExportPanel {
  const { recording } = options;
  const meta = recording.meta;
  const pickFile = options.pickFile ?? pickWithDialog;
  const buttons: Record<ExportKind, HTMLButtonElement> = {
    video: h("button", { type: "button", class: "btn btn-small", "data-export-kind": "video" }, LABEL.video),
    audio: h("button", { type: "button", class: "btn btn-small", "data-export-kind": "audio" }, LABEL.audio),
  };
  const notes: Record<ExportKind, HTMLElement> = {
    video: h("p", { class: "export-note muted", "data-export-note": "video", hidden: true }),
    audio: h("p", { class: "export-note muted", "data-export-note": "audio", hidden: true }),
  };
  const bar = h("div", { class: "progress-bar" });
  const track = h("div", { class: "progress", role: "progressbar", "aria-label": "Export", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0" }, bar);
  const status = h("span", { class: "export-status", role: "status" });
  const cancel = h("button", { type: "button", class: "btn btn-small btn-ghost", "data-export-cancel": "" }, "Cancel");
  const progress = h("div", { class: "export-progress", hidden: true }, track, h("div", { class: "export-progress-line" }, status, cancel));
  const result = h("p", { class: "export-result", role: "status", "aria-live": "polite" });
  const element = h("section", { class: "export-panel", "data-export": "idle", "aria-label": `Save “${meta.title}”` }, h("div", { class: "export-actions" }, buttons.video, buttons.audio), notes.video, notes.audio, progress, result);
  host.append(element);

  let running: RunningExport | null = null;
  /** Cancel was pressed while the recording was still being read (before the worker started). */
  let cancelled = false;
  let picked: FileSystemFileHandle | null = null;
  const unavailable: Record<ExportKind, string | null> = { video: null, audio: null };

  const setState = (state: "idle" | "running" | "done" | "failed") => {
    element.dataset.export = state;
    for (const kind of ["video", "audio"] as const) buttons[kind].disabled = state === "running" || unavailable[kind] !== null;
    progress.hidden = state !== "running";
  };
  const unavailableBecause = (kind: ExportKind, why: string) => {
    unavailable[kind] = why;
    notes[kind].textContent = why;
    notes[kind].hidden = false;
    buttons[kind].disabled = true;
    buttons[kind].setAttribute("aria-describedby", `${kind}-note-${meta.id}`);
    notes[kind].id = `${kind}-note-${meta.id}`;
  };
  const showProgress = (kind: ExportKind, progress: ExportProgress) => {
    const { percent, text } = exportStatus(kind, progress);
    // A step that cannot tell how far it is leaves the bar empty and indeterminate; the line says what it does.
    bar.style.width = `${percent ?? 0}%`;
    if (percent === null) track.removeAttribute("aria-valuenow");
    else track.setAttribute("aria-valuenow", String(percent));
    track.setAttribute("aria-valuetext", text);
    status.textContent = text;
  };

  if (!meta.audioMime) unavailableBecause("audio", "This recording has no sound (it was made without a microphone): there is nothing to save as audio.");
  void chooseVideoCodec().then((choice) => {
    if (!choice) unavailableBecause("video", "This browser cannot encode video (it has no VP9 or VP8 encoder), so Save video is not available here. Save audio works, and the recording plays in deckhand.");
    element.dataset.videoCodec = choice?.codec ?? "none";
  });

  const run = async (kind: ExportKind) => {
    const name = `${safeFilename(meta.title, "recording")}${kind === "audio" ? " (audio)" : ""}.webm`;
    // The dialog first, while the click still counts as the user's gesture.
    try {
      picked = await pickFile(name, kind);
    } catch (error) {
      if ((error as { name?: string })?.name === "AbortError") return;
      picked = null;
    }
    setState("running");
    cancelled = false;
    result.textContent = "";
    delete result.dataset.code;
    showProgress(kind, { step: "reading", fraction: null, leftMs: null });
    const dryRun = options.dryRun?.() ?? false;
    try {
      const deck = await options.deck();
      if (!deck) throw new ExportProblem("DECK_UNREADABLE", "The deck of this recording is no longer stored in this browser: add the same PDF again to export the recording.");
      running = startExport(
        {
          kind,
          title: meta.title,
          deck: { bytes: deck.bytes, ...(deck.notesPosition ? { notesPosition: deck.notesPosition } : {}), ...(deck.notesFile ? { notesFile: deck.notesFile } : {}) },
          recording: { durationMs: meta.durationMs, labels: meta.labels, source: await recording.take() },
          file: picked,
          ...(dryRun ? { dryRun: true } : {}),
        },
        (p) => showProgress(kind, p),
      );
      if (cancelled) running.cancel();
      const done = await running.done;
      running = null;
      if (done.file) saveFile(done.file, name, kind === "video" ? "video/webm" : "audio/webm");
      const converted = done.audioConverted ? " The sound was converted to Opus (this browser recorded it in another format)." : "";
      result.textContent = dryRun ? `Dry run: ${done.frames} frames drawn, nothing saved.` : `Saved “${picked?.name ?? name}” (${formatBytes(done.bytes)}, ${done.chapters} chapter${done.chapters === 1 ? "" : "s"}).${converted}`;
      setState("done");
      options.onSaved?.({ kind, name: picked?.name ?? name, file: done.file, result: done });
    } catch (error) {
      running = null;
      // A cancelled or failed export leaves no half-written file behind where the browser can remove it.
      if (picked) await (picked as FileSystemFileHandle & { remove?: () => Promise<void> }).remove?.().catch(() => {});
      const problem = error instanceof ExportProblem ? error : new ExportProblem("EXPORT_FAILED", `The export stopped: ${error instanceof Error ? error.message : String(error)}.`);
      result.textContent = problem.message;
      result.dataset.code = problem.code;
      setState(problem.code === "CANCELLED" ? "idle" : "failed");
    }
  };

  for (const kind of ["video", "audio"] as const) buttons[kind].addEventListener("click", () => void run(kind));
  cancel.addEventListener("click", () => {
    cancelled = true;
    running?.cancel();
  });
  setState("idle");
  return {
    element,
    destroy: () => {
      running?.cancel();
      element.remove();
    },
  };
}
