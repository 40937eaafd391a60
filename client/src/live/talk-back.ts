/**
 * @module client/live/talk-back
 * The presenter's side of the audience talking back on a live talk (issue 23): keeps the
 * audience state from the presenter socket's messages (./audience-state.ts), draws the
 * *Questions and polls* panel (./talk-panel-view.ts) and sends the presenter's `qa`,
 * `moderate`, `show`, `pollStart`, `pollClose`, `pollShow` and `reactionsShow`. It opens a
 * deck's poll sidecar when its slide is reached (once per talk per slide), floats reactions
 * over the current slide and counts them per slide, tells the audience window the little it
 * may show (`ProjectedTalk`, over the channel), and keeps the talk's record with the deck
 * (IndexedDB, ./talk-export.ts) for the CSV and JSON downloads.
 */
import type { LiveServerMessageT } from "../../../src/shared/live-protocol.ts";
import type { LiveReactionCountsT } from "../../../src/shared/live-audience-protocol.ts";
import { h, replace } from "../lib/dom.ts";
import { safeFilename, saveFile } from "../lib/download.ts";
import type { Channel } from "../presenter/channel.ts";
import type { DeckStore } from "../storage/deck-store.ts";
import { emptyAudience, reduceAudience, type AudienceState } from "./audience-state.ts";
import { placePanel } from "./panel-place.ts";
import { floatReactions } from "./reaction-floats.ts";
import type { Outgoing } from "./socket.ts";
import { emptyTalk, mergeTalk, talkCsv, talkJson, type TalkRecord } from "./talk-export.ts";
import { checkPollDraft, holdOrder, projectedTalk, questionRows, reactionTotal, sameProjection, sidecarPollToOpen, toggleTopShown, withOpenedSource, NOTHING_PROJECTED, type ProjectedTalk, type QuestionButton, type QuestionOrder, type SidecarPoll } from "./talk-model.ts";
import { exportView, pollForm, pollView, questionsView, reactionsView, switchesView, type TalkHandlers } from "./talk-panel-view.ts";

export interface TalkBackDeps {
  store: DeckStore;
  deckId: () => string;
  deckTitle: () => string;
  send: (message: Outgoing) => boolean;
  channel: () => Channel | null;
  panel: HTMLElement;
  body: HTMLElement;
  /** Over the current slide: reactions float here. */
  floats: HTMLElement;
  anchor?: HTMLElement;
  page: () => number;
  label: (page: number) => string;
  /** The deck's poll sidecars (they arrive with the extras, after the first slide). */
  polls: () => readonly SidecarPoll[] | undefined;
  /** The deck's setting: open Q&A whenever it goes live. */
  openByDefault: () => boolean;
  setOpenByDefault: (on: boolean) => void;
}

/** The record is written at most this often while messages stream in (votes, reactions). */
const SAVE_MS = 1000;

export class TalkBack {
  private audience: AudienceState = emptyAudience();
  private code: string | null = null;
  /** A talk that just started here: the deck's Q&A default applies at its first hello. */
  private fresh = false;
  private order: QuestionOrder = "votes";
  private open = false;
  /** Slides whose poll sidecar was opened in this talk. */
  private opened = new Set<number>();
  private projected: ProjectedTalk = NOTHING_PROJECTED;
  private record: TalkRecord | null = null;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly pollStatus = h("p", { class: "key-status", id: "talk-poll-status", role: "status" });
  private readonly exportStatus = h("p", { class: "key-status", id: "talk-export-status", role: "status" });
  private readonly form: HTMLFormElement;
  /** What is drawn anew at each change (all but the form). */
  private readonly live = h("div", { class: "talk-live" });
  private built = false;
  /** The pointer is over the questions: their order holds still (./talk-model.ts holdOrder). */
  private holding = false;
  private drawnIds: string[] = [];
  private readonly handlers: TalkHandlers;

  constructor(private readonly deps: TalkBackDeps) {
    this.handlers = {
      qa: (open, moderated) => this.deps.send({ type: "qa", open, moderated }),
      openByDefault: (on) => {
        this.deps.setOpenByDefault(on);
        this.render();
      },
      reactionsShown: (show) => this.deps.send({ type: "reactionsShow", show }),
      order: (order) => {
        this.order = order;
        this.render();
      },
      question: (id, button) => this.question(id, button),
      pollStart: (draft) => this.startPoll(draft),
      pollClose: (pollId) => this.deps.send({ type: "pollClose", pollId }),
      pollShow: (pollId) => this.deps.send({ type: "pollShow", pollId }),
      exportTalk: (kind) => void this.exportTalk(kind),
    };
    this.form = pollForm(this.handlers, this.pollStatus);
    const hold = (on: boolean) => {
      if (on === this.holding) return;
      this.holding = on;
      if (!on) this.render();
    };
    this.live.addEventListener("pointermove", (event) => hold(!!(event.target as Element | null)?.closest?.("#talk-questions")));
    this.live.addEventListener("pointerleave", () => hold(false));
    if (deps.anchor) {
      const place = () => {
        if (this.open && deps.anchor) placePanel(deps.panel, deps.anchor);
      };
      new ResizeObserver(place).observe(deps.anchor);
      window.addEventListener("resize", place);
    }
  }

  /** A live talk started (`fresh`: here, now) or reconnected; null: it ended. */
  setTalk(code: string | null, fresh = false): void {
    if (code === this.code) return;
    this.flush();
    this.code = code;
    this.fresh = fresh;
    this.audience = emptyAudience();
    this.opened = new Set();
    this.record = null;
    if (code) {
      const deckId = this.deps.deckId();
      void this.deps.store
        .getTalk(deckId, code)
        .catch(() => undefined)
        .then((kept) => {
          if (this.code !== code) return;
          this.record = kept ? { ...kept } : (this.record ?? emptyTalk(deckId, code, Date.now()));
          for (const poll of this.record.polls) if (poll.slide) this.opened.add(poll.slide);
        });
    }
    this.project();
    this.render();
  }

  onMessage(message: LiveServerMessageT): void {
    const { state, changed } = reduceAudience(this.audience, message);
    if (!changed) return;
    this.audience = state;
    // A deck poll opened by a remote (or before a reload) counts as opened in this talk too.
    this.opened = withOpenedSource(this.opened, state);
    if (message.type === "hello" && state.known) {
      if (this.fresh && this.deps.openByDefault() && !state.qa.open) this.deps.send({ type: "qa", open: true, moderated: state.qa.moderated });
      this.fresh = false;
      this.pageChanged(this.deps.page());
    }
    if (message.type === "reactions") {
      floatReactions(this.deps.floats, message.counts as LiveReactionCountsT);
      if (this.audience.reactionsShown) this.deps.channel()?.post({ type: "talk-reactions", counts: message.counts as LiveReactionCountsT });
    }
    if (message.type === "poll" && message.poll.status === "open") this.pollStatus.textContent = "";
    this.keep();
    this.project();
    this.render();
  }

  /** The slide changed: the deck's poll for it opens if it is time (./talk-model.ts). */
  pageChanged(page: number): void {
    const poll = sidecarPollToOpen(page, this.deps.polls(), this.opened, this.audience, !!this.code);
    if (!poll) return this.render();
    if (this.deps.send({ type: "pollStart", question: poll.question, options: poll.options, multiple: poll.multiple, source: { slide: poll.slide } })) this.opened.add(page);
    this.render();
  }

  /** The key `q` and the panel's Hide: show or hide the panel (before going live it says how to start). */
  toggle(): void {
    this.show(!this.open);
  }

  close(): void {
    if (this.open) this.show(false);
  }

  private show(open: boolean): void {
    this.open = open;
    this.deps.panel.hidden = !open;
    if (open && this.deps.anchor) placePanel(this.deps.panel, this.deps.anchor);
    this.render();
  }

  /** The key `Shift+Q`: the top question on the projector, or the shown one taken away. */
  toggleTopQuestion(): void {
    const id = toggleTopShown(this.audience);
    if (id !== undefined) this.deps.send({ type: "show", questionId: id });
  }

  /** An audience window (re)opened: it gets what it may show. */
  audienceHello(): void {
    this.deps.channel()?.post({ type: "talk", talk: this.projected });
  }

  private question(id: string, button: QuestionButton): void {
    if (button === "show" || button === "dismiss") this.deps.send({ type: "show", questionId: button === "show" ? id : null });
    else this.deps.send({ type: "moderate", questionId: id, action: button });
  }

  private startPoll(draft: { question: string; options: string[]; multiple: boolean }): void {
    const checked = checkPollDraft(draft);
    if (!checked.ok) {
      this.pollStatus.textContent = checked.problem;
      return;
    }
    if (this.audience.poll?.status === "open") {
      this.pollStatus.textContent = "Close the open poll first: one poll at a time.";
      return;
    }
    const sent = this.deps.send({ type: "pollStart", question: checked.poll.question, options: [...checked.poll.options], multiple: checked.poll.multiple });
    this.pollStatus.textContent = sent ? "Poll started." : "Not connected: try again when the talk is back online.";
    if (sent) this.form.reset();
  }

  private project(): void {
    const next = this.code ? projectedTalk(this.audience) : NOTHING_PROJECTED;
    if (sameProjection(next, this.projected)) return;
    this.projected = next;
    this.deps.channel()?.post({ type: "talk", talk: next });
  }

  // ---- the record kept with the deck ---------------------------------------------------

  private keep(): void {
    if (!this.record || !this.audience.known) return;
    this.record = mergeTalk(this.record, this.audience, Date.now());
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.flush(), SAVE_MS);
  }

  /** Write the record now (the talk ends or changes: its last second is not lost). */
  private flush(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.record) void this.deps.store.putTalk(this.record).catch(() => {});
  }

  /** The talk in progress, or after it the deck's last one (kept in IndexedDB). */
  private async exportTalk(kind: "csv" | "json"): Promise<void> {
    const record = this.record ?? (await this.deps.store.latestTalk(this.deps.deckId()).catch(() => undefined));
    if (!record) {
      this.exportStatus.textContent = "Nothing to export yet: no live talk of this deck is recorded in this browser.";
      return;
    }
    this.exportStatus.textContent = "";
    const name = safeFilename(`${this.deps.deckTitle()} audience ${record.code}`);
    if (kind === "csv") saveFile(talkCsv(record, this.deps.label), `${name}.csv`, "text/csv;charset=utf-8");
    else saveFile(talkJson(record), `${name}.json`, "application/json");
  }

  // ---- rendering ------------------------------------------------------------------------

  private render(): void {
    document.body.dataset.talkPanel = this.open ? "open" : "closed";
    if (!this.open) return;
    const a = this.audience;
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.focus;
    const page = this.deps.page();
    const total = [...a.slides.values()].reduce((sum, counts) => sum + reactionTotal(counts), 0);
    const results = a.poll && a.results?.pollId === a.poll.id ? a.results : null;
    if (!this.code || !a.known) {
      this.built = false;
      // After a talk its record can still be exported (it is kept with the deck).
      replace(
        this.deps.body,
        h("p", { class: "muted" }, this.code ? "Connecting to the live talk…" : "Go live first: questions, polls and reactions come from the live talk's viewers."),
        this.code ? null : h("p", { class: "muted" }, "Export the deck's last talk:"),
        this.code ? null : exportView(this.handlers),
        this.exportStatus,
      );
      return;
    }
    // The form stays put (what is typed, and the focus in it, stay); the rest is drawn anew.
    if (!this.built) {
      this.built = true;
      replace(this.deps.body, this.live, this.form, exportView(this.handlers), this.exportStatus);
    }
    const live = questionRows(a, this.order);
    const rows = this.holding ? holdOrder(live, this.drawnIds) : live;
    this.drawnIds = rows.map((r) => r.id);
    replace(
      this.live,
      switchesView({ open: a.qa.open, moderated: a.qa.moderated, openByDefault: this.deps.openByDefault(), reactionsShown: a.reactionsShown }, this.handlers),
      reactionsView(this.deps.label(page), a.slides.get(page), total),
      // The poll first: while it runs, its chart is what moves.
      pollView(a.poll, results?.counts ?? null, results?.voters ?? 0, this.handlers),
      questionsView(rows, this.order, this.handlers),
    );
    // Back on the same control, without scrolling: a vote or a question arriving must not move the panel.
    if (focused) this.live.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  }
}
