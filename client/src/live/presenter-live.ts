/**
 * @module client/live/presenter-live
 * Going live from the presenter window: upload this browser's copy of the deck to
 * `POST /api/live` (with the live grant from the claim, or an access token the speaker types,
 * when the server asks for a credential), keep the session's code and presenter secret with
 * the deck (IndexedDB, never a URL) so a reload reconnects, send the audience's state over
 * the socket whenever it changes — the very value the audience window gets — and carry out
 * the remotes' commands. The panel shows the code, the viewer link and its QR code, the
 * remote's QR code, how many viewers and remotes are connected, the download setting,
 * "Show join code on the projector", "Rotate remote link" and "End live" — which asks first,
 * since the code dies for good (markup: ./live-panel-view.ts). The panel opens over the current slide's pane
 * (./panel-place.ts), so the timer, the notes and the toolbars stay in view; a code is never
 * broken across lines. The join card goes to the audience window only (./join-card.ts: code
 * and viewer link, never the remote link) and leaves at the next slide change. The upload,
 * the session record and the token prompt are in ./go-live.ts.
 */
import { MAX_LIVE_MESSAGE_BYTES_IN, type LiveServerMessageT, type LiveStateT } from "../../../src/shared/live-protocol.ts";
import type { Channel } from "../presenter/channel.ts";
import { h, replace } from "../lib/dom.ts";
import { readProblem } from "../lib/problem.ts";
import type { ActionName } from "../presenter/actions.ts";
import { audienceChanged, audienceView, onlyOverlaysChanged } from "../presenter/audience.ts";
import type { PresenterState } from "../presenter/state.ts";
import type { DeckRecord, DeckStore, LiveSessionRecord } from "../storage/deck-store.ts";
import { clockOffset, shiftMedia } from "./clock.ts";
import { liveGrantOf, promptToken, sessionRecordOf, uploadDeck } from "./go-live.ts";
import { commandActions } from "./commands.ts";
import { fitLiveState, fitStroke } from "./fit-state.ts";
import type { JoinCard } from "./join-card.ts";
import { liveStatusText, sessionPanel, type LiveStatus } from "./live-panel-view.ts";
import { placePanel } from "./panel-place.ts";
import { LiveSocket, type Outgoing, type SocketStatus, type Stopped } from "./socket.ts";
import type { TalkBack } from "./talk-back.ts";

export interface PresenterLiveDeps {
  store: DeckStore;
  deck: () => DeckRecord;
  state: () => PresenterState;
  dispatch: (name: ActionName, arg?: unknown) => void;
  /** The label of a page, as the counter shows it. */
  label: (page: number) => string;
  panel: HTMLElement;
  body: HTMLElement;
  button: HTMLElement;
  tokenForm: HTMLFormElement;
  tokenInput: HTMLInputElement;
  /** To the audience window (the join card). */
  channel?: () => Channel | null;
  /** The current slide's pane: the panel opens over it. */
  anchor?: HTMLElement;
  /** Says in the presenter window that the projector shows the join card; its button hides it. */
  joinBanner?: HTMLElement;
  /** The audience's questions, polls and reactions on this talk (issue 23). */
  talk?: TalkBack;
}


/** A state message over this many UTF-8 bytes goes without its ink; the strokes follow one message each (the server takes up to 64 KiB). */
const STATE_BYTES = MAX_LIVE_MESSAGE_BYTES_IN - 1024;


export class PresenterLive {
  private session: LiveSessionRecord | null = null;
  private socket: LiveSocket | null = null;
  private status: LiveStatus = "idle";
  private counts = { viewers: 0, controls: 0 };
  private message = "";
  private pointerFrame = 0;
  private open = false;
  /** Server clock minus this device's (media times travel in the server's clock). */
  private offset = 0;
  /** "End live" was pressed once: the panel asks before ending. */
  private confirmingEnd = false;
  /** The audience window shows the join card. */
  private projecting = false;

  constructor(private readonly deps: PresenterLiveDeps) {
    const place = () => {
      if (this.open && deps.anchor) placePanel(deps.panel, deps.anchor);
    };
    if (deps.anchor) {
      new ResizeObserver(place).observe(deps.anchor);
      window.addEventListener("resize", place);
    }
    deps.joinBanner?.querySelector("button")?.addEventListener("click", () => this.project(false));
    // Esc closes the token dialog like its Cancel button.
    deps.tokenForm.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      event.preventDefault();
      deps.tokenForm.reset();
    });
  }

  /** After a reload: a session this deck has is reconnected at once. */
  async resume(): Promise<void> {
    const saved = await this.deps.store.getLiveSession(this.deps.deck().id).catch(() => undefined);
    if (!saved) return;
    this.session = saved;
    this.deps.talk?.setTalk(saved.code);
    this.connect();
    this.render();
  }

  /** The button and the key: go live, or show/hide the panel of the session. */
  toggle(): void {
    if (this.open) return this.show(false);
    this.show(true);
    if (!this.session && this.status !== "uploading") void this.goLive();
  }

  /** Hide the panel (the Questions panel opens in its place). */
  close(): void {
    if (this.open) this.show(false);
  }

  private show(open: boolean): void {
    this.open = open;
    this.deps.panel.hidden = !open;
    this.deps.button.setAttribute("aria-expanded", String(open));
    if (open) {
      if (this.deps.anchor) placePanel(this.deps.panel, this.deps.anchor);
      this.built = "";
      this.render();
    }
  }

  // ---- the join card on the projector ------------------------------------------------------

  private card(): JoinCard | null {
    return this.projecting && this.session ? { code: this.session.code, viewerUrl: this.session.viewerUrl } : null;
  }

  /** Show or take away the join card on the audience window. */
  private project(on: boolean): void {
    const was = this.projecting;
    this.projecting = on && !!this.session;
    if (was || this.projecting) this.deps.channel?.()?.post({ type: "join-card", card: this.card() });
    this.render();
  }

  /** An audience window (re)opened: it gets the card too while one is shown. */
  audienceHello(): void {
    if (this.projecting) this.deps.channel?.()?.post({ type: "join-card", card: this.card() });
    this.deps.talk?.audienceHello();
  }

  /** A message to the server on the presenter's socket; false when it is not connected. */
  send(message: Outgoing): boolean {
    return this.socket?.send(message) ?? false;
  }

  // ---- going live -----------------------------------------------------------------------

  private async goLive(token?: string): Promise<void> {
    this.status = "uploading";
    this.message = "Uploading the deck for viewers…";
    this.render();
    const deck = this.deps.deck();
    const grant = liveGrantOf(deck);
    try {
      let response = await uploadDeck(this.deps.store, deck, token ? `Bearer ${token}` : grant ? `Grant ${grant}` : null);
      // A grant the server does not take (another server, or past its time): try without it.
      if (!token && grant && response.status === 403) response = await uploadDeck(this.deps.store, deck, null);
      if (response.status === 401) {
        this.status = "idle";
        this.message = token ? "That access token was refused. Check it and try again." : "This server asks for an access token to go live.";
        this.render();
        return this.askToken();
      }
      if (!response.ok) {
        const problem = await readProblem(response);
        throw new Error(problem.detail ?? `The server refused to go live (${problem.status}).`);
      }
      this.session = await sessionRecordOf(deck, response);
      await this.deps.store.putLiveSession(this.session).catch(() => {});
      this.message = "";
      this.deps.talk?.setTalk(this.session.code, true);
      this.connect();
    } catch (error) {
      this.status = "idle";
      this.message = error instanceof TypeError ? "The server cannot be reached: going live needs the network." : String((error as Error).message ?? error);
    }
    this.render();
  }

  private askToken(): void {
    promptToken(this.deps.tokenForm, this.deps.tokenInput, (token) => void this.goLive(token), () => this.render());
  }

  // ---- the socket -----------------------------------------------------------------------

  private connect(): void {
    const session = this.session;
    if (!session) return;
    this.socket?.close();
    this.socket = new LiveSocket({
      code: session.code,
      role: "presenter",
      secret: () => this.session?.presenterSecret,
      onMessage: (message) => this.onMessage(message),
      onStatus: (status: SocketStatus) => {
        this.status = status;
        this.render();
      },
      onStop: (stopped) => this.onStop(stopped),
    });
  }

  private onMessage(message: LiveServerMessageT): void {
    this.deps.talk?.onMessage(message);
    if (message.type === "hello") {
      this.offset = clockOffset(message.serverTime);
      this.counts = { viewers: message.counts.viewers, controls: message.counts.controls };
      // This window is the source of truth: the server (and viewers) take its state now.
      this.sendState();
      if (this.session && message.session.allowDownload !== this.session.allowDownload) this.socket?.send({ type: "settings", allowDownload: this.session.allowDownload });
      this.render();
    } else if (message.type === "counts") {
      this.counts = { viewers: message.counts.viewers, controls: message.counts.controls };
      this.render();
    } else if (message.type === "command") this.command(message);
    else if (message.type === "error" && (message.code === "TOO_LARGE" || message.code === "RATE_LIMITED")) {
      this.message = message.code === "TOO_LARGE" ? "Some ink was too large to send to viewers." : "Too many changes at once: viewers catch up at the next one.";
      this.render();
    }
    else if (message.type === "ended") void this.forget("This live session ended.");
  }

  private command(message: Extract<LiveServerMessageT, { type: "command" }>): void {
    for (const { name, arg } of commandActions(message, this.deps.state().blank)) this.deps.dispatch(name, arg);
  }

  private onStop(stopped: Stopped): void {
    if (stopped.reason === "REPLACED") {
      this.status = "stopped";
      this.message = "Another presenter window took over this live session. Reload to take it back.";
      this.render();
      return;
    }
    void this.forget(stopped.reason === "AUTH_FAILED" ? "The server no longer knows this window as the presenter: go live again." : "This live session ended.");
  }

  private async forget(message: string): Promise<void> {
    this.project(false);
    this.confirmingEnd = false;
    this.socket?.close();
    this.socket = null;
    this.session = null;
    this.deps.talk?.setTalk(null);
    this.status = "idle";
    this.message = message;
    this.counts = { viewers: 0, controls: 0 };
    await this.deps.store.deleteLiveSession(this.deps.deck().id).catch(() => {});
    this.render();
  }

  private liveState(state: PresenterState): LiveStateT {
    // The timer rides along for the phone remote (viewers do not show it).
    const seen = audienceView(state);
    return fitLiveState({ ...seen, media: shiftMedia(seen.media, this.offset), label: this.deps.label(state.page), timer: state.timer } as LiveStateT);
  }

  private sendState(): void {
    const state = this.liveState(this.deps.state());
    if (new TextEncoder().encode(JSON.stringify(state)).byteLength <= STATE_BYTES) {
      this.socket?.send({ type: "state", state });
      return;
    }
    // A page with a lot of ink: the server merges the strokes into its snapshot one by one.
    this.socket?.send({ type: "state", state: { ...state, ink: [] } });
    for (const stroke of state.ink) this.socket?.send({ type: "ink", ink: { op: "add", page: state.page, stroke } });
  }

  /**
   * Every change of the presenter state: viewers get what the audience window gets — first,
   * before anything else this window does about it. The audience's part of a slide change
   * (the deck's poll for it, its reactions) only asks for the next frame (./talk-back.ts).
   */
  changed(state: PresenterState, previous: PresenterState): void {
    this.relay(state, previous);
    if (state.page === previous.page) return;
    // The join card leaves at the next slide change (the audience window drops it too).
    if (this.projecting) this.project(false);
    this.deps.talk?.pageChanged(state.page);
  }

  private relay(state: PresenterState, previous: PresenterState): void {
    if (!this.socket?.open) return;
    const seen = audienceView(state);
    const before = audienceView(previous);
    if (state.timer !== previous.timer && !audienceChanged(seen, before)) return this.sendState();
    if (!audienceChanged(seen, before)) return;
    if (!onlyOverlaysChanged(seen, before)) {
      cancelAnimationFrame(this.pointerFrame);
      this.pointerFrame = 0;
      return this.sendState();
    }
    // The pointer and the stroke being drawn: at most one message a frame.
    if (this.pointerFrame) return;
    this.pointerFrame = requestAnimationFrame(() => {
      this.pointerFrame = 0;
      const overlays = audienceView(this.deps.state()).overlays;
      const pointer = overlays.pointer && { x: overlays.pointer.x, y: overlays.pointer.y, r: overlays.pointer.r };
      this.socket?.send({ type: "pointer", pointer, live: overlays.live && fitStroke(overlays.live) });
    });
  }

  // ---- the panel's buttons ----------------------------------------------------------------

  private async post(path: "end" | "rotate"): Promise<Response | null> {
    const session = this.session;
    if (!session) return null;
    try {
      return await fetch(`/api/live/${encodeURIComponent(session.code)}/${path}`, { method: "POST", headers: { "x-presenter-secret": session.presenterSecret }, credentials: "omit", cache: "no-store" });
    } catch {
      this.message = "The server cannot be reached. Try again when the network is back.";
      this.render();
      return null;
    }
  }

  /** First press of "End live": ask (the code dies for good); the safe answer takes the focus. */
  private askEnd(asking: boolean): void {
    this.confirmingEnd = asking;
    this.render();
    this.deps.body.querySelector<HTMLElement>(asking ? "#live-end-keep" : "#live-end")?.focus();
  }

  private async end(): Promise<void> {
    this.confirmingEnd = false;
    const response = await this.post("end");
    if (!response) return;
    if (response.ok || response.status === 404 || response.status === 410) return this.forget("Live ended. Viewers see the end screen; the server deleted its copy of the deck.");
    this.message = (await readProblem(response)).detail ?? "The server could not end the session.";
    this.render();
  }

  private async rotate(): Promise<void> {
    const response = await this.post("rotate");
    if (!response || !this.session) return;
    if (!response.ok) {
      this.message = (await readProblem(response)).detail ?? "The remote link could not be changed.";
      return this.render();
    }
    const { controlUrl } = (await response.json()) as { controlUrl: string };
    this.session = { ...this.session, controlUrl };
    await this.deps.store.putLiveSession(this.session).catch(() => {});
    this.message = "New remote link: remotes with the old one are cut off.";
    this.render();
  }

  private setAllowDownload(allow: boolean): void {
    if (!this.session) return;
    this.session = { ...this.session, allowDownload: allow };
    void this.deps.store.putLiveSession(this.session).catch(() => {});
    this.socket?.send({ type: "settings", allowDownload: allow });
  }

  // ---- rendering ------------------------------------------------------------------------

  /** What the panel's structure was built for: rebuilt only when it changes, so focus stays put. */
  private built = "";

  private render(): void {
    const { body, button } = this.deps;
    const session = this.session;
    button.textContent = session ? `Live · ${session.code}` : "Go live";
    button.classList.toggle("is-live", !!session);
    document.body.dataset.live = session ? this.status : "off";
    const viewers = this.counts.viewers;
    const controls = this.counts.controls;
    document.body.dataset.liveViewers = String(viewers);
    document.body.dataset.liveControls = String(controls);
    if (this.deps.joinBanner) this.deps.joinBanner.hidden = !this.projecting;
    if (!this.open) return;
    const key = session ? `${session.code} ${session.controlUrl} ${this.confirmingEnd}` : `off ${this.status === "uploading"}`;
    if (key !== this.built) {
      this.built = key;
      this.build();
    }
    const text = this.message || liveStatusText(this.status, !!this.session);
    const status = body.querySelector("#live-status");
    if (status && status.textContent !== text) status.textContent = text;
    const counts = body.querySelector("#live-counts");
    const countText = `${viewers} viewer${viewers === 1 ? "" : "s"} · ${controls} remote${controls === 1 ? "" : "s"}`;
    if (counts && counts.textContent !== countText) counts.textContent = countText;
    const allow = body.querySelector<HTMLInputElement>("#live-allow-download");
    if (allow && session) allow.checked = session.allowDownload;
    const project = body.querySelector("#live-project");
    project?.setAttribute("aria-pressed", String(this.projecting));
  }

  /** The panel's elements for the current session (or for none). */
  private build(): void {
    const { body } = this.deps;
    const session = this.session;
    const status = h("p", { class: "live-status", role: "status", id: "live-status" });
    if (!session) {
      const again = this.status === "uploading" ? null : h("button", { type: "button", class: "btn btn-primary", id: "live-start", onclick: () => void this.goLive() }, "Go live");
      replace(body, status, again);
      return;
    }
    replace(body, ...sessionPanel(session, { confirmingEnd: this.confirmingEnd, projecting: this.projecting }, status, {
      project: () => this.project(!this.projecting),
      allowDownload: (allow) => this.setAllowDownload(allow),
      rotate: () => void this.rotate(),
      askEnd: (asking) => this.askEnd(asking),
      end: () => void this.end(),
    }));
  }
}
