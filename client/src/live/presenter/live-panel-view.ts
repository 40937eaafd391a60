/**
 * @module client/live/presenter/live-panel-view
 * The live panel's elements for a running session: the talk code (never broken across
 * lines), *Show join code on the projector*, the viewer link with its QR code (the link may
 * break only before the code), the remote's QR code, the counts, the download setting, the
 * status line and the actions — *Rotate remote link* and *End live*, or, once *End live* was
 * pressed, the question that names what ending does (the code dies for good) with *Keep live*
 * and *End live for everyone*; and the status line's text. Markup only: ./presenter-live.ts
 * owns the behaviour.
 */
import { h } from "../../lib/dom.ts";
import type { LiveSessionRecord } from "../../storage/deck-store.ts";
import { linkText, qrImage } from "../talk/join-card.ts";

/** Where going live stands: the socket's states, and the upload before it. */
export type LiveStatus = "idle" | "uploading" | "connecting" | "open" | "waiting" | "stopped";

/** The panel's status line when no message overrides it. */
export function liveStatusText(status: LiveStatus, live: boolean): string {
  if (status === "uploading") return "Uploading the deck for viewers…";
  if (!live) return "Not live. Going live uploads this deck so viewers can follow on their own screens.";
  if (status === "open") return "Live: viewers follow this window.";
  if (status === "waiting" || status === "connecting") return "Reconnecting to the server… viewers see “paused” meanwhile.";
  return "";
}

export interface PanelHandlers {
  project(): void;
  allowDownload(allow: boolean): void;
  rotate(): void;
  /** `true`: End live was pressed (ask); `false`: Keep live. */
  askEnd(asking: boolean): void;
  end(): void;
}

function qr(text: string, alt: string): HTMLImageElement {
  const img = qrImage(text, alt, "live-qr");
  img.width = img.height = 180;
  return img;
}

/** The actions row, or the question before ending. */
function actions(session: LiveSessionRecord, confirmingEnd: boolean, on: PanelHandlers): HTMLElement {
  if (!confirmingEnd) {
    return h("div", { class: "actions" },
      h("button", { type: "button", class: "btn", id: "live-rotate", onclick: () => on.rotate() }, "Rotate remote link"),
      h("button", { type: "button", class: "btn btn-danger", id: "live-end", onclick: () => on.askEnd(true) }, "End live"),
    );
  }
  return h("div", { class: "live-end-ask", id: "live-end-ask", role: "group", "aria-labelledby": "live-end-question" },
    h("p", { id: "live-end-question" }, "End the live talk for everyone? Viewers see the end screen, remotes stop, the server deletes its copy of the deck, and the code ", h("span", { class: "code-nowrap" }, session.code), " stops working for good."),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "btn", id: "live-end-keep", onclick: () => on.askEnd(false) }, "Keep live"),
      h("button", { type: "button", class: "btn btn-danger", id: "live-end-confirm", onclick: () => on.end() }, "End live for everyone"),
    ),
  );
}

/** The panel's children for `session`; `status` is the status line the caller keeps writing to. */
export function sessionPanel(session: LiveSessionRecord, state: { confirmingEnd: boolean; projecting: boolean }, status: HTMLElement, on: PanelHandlers): HTMLElement[] {
  const allow = h("input", { type: "checkbox", id: "live-allow-download" }) as HTMLInputElement;
  allow.addEventListener("change", () => on.allowDownload(allow.checked));
  return [
    h("p", { class: "live-code-label" }, "Talk code"),
    h("p", { class: "live-code code-nowrap", id: "live-code" }, session.code),
    h("button", { type: "button", class: "btn btn-small", id: "live-project", "aria-pressed": String(state.projecting), onclick: () => on.project() }, "Show join code on the projector"),
    h("div", { class: "live-links" },
      h("figure", { class: "live-link" }, qr(session.viewerUrl, "QR code of the viewer link"), h("figcaption", {}, h("a", { href: session.viewerUrl, id: "live-viewer-url", target: "_blank", rel: "noopener" }, ...linkText(session.viewerUrl, session.code)))),
      h("figure", { class: "live-link" }, qr(session.controlUrl, "QR code of the remote link"), h("figcaption", {}, "Use your phone as a remote: ", h("a", { href: session.controlUrl, id: "live-control-url", target: "_blank", rel: "noopener" }, "remote link"))),
    ),
    h("p", { class: "live-counts", id: "live-counts", "aria-live": "polite" }),
    h("label", { class: "setting" }, allow, " Allow viewers to save the PDF"),
    status,
    actions(session, state.confirmingEnd, on),
  ];
}
