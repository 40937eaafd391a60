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
 *
 * Under a crowd: a message is only queued; the next animation frame reduces what came and
 * draws once, each part of the panel only when what it shows changed, the questions as keyed
 * rows in a window of 50 (./question-window.ts) in a steady order (./question-order.ts); the
 * record is merged when it is written, at most once a second. A slide change only asks for
 * that frame: nothing of the audience runs on its way to the viewers.
 */
import type { LiveServerMessageT } from "../../../src/shared/live-protocol.ts";
import type { LiveReactionCountsT } from "../../../src/shared/live-audience-protocol.ts";
import { h, replace } from "../lib/dom.ts";
import { safeFilename, saveFile } from "../lib/download.ts";
import { browserFrames, FrameQueue, type FrameClock } from "../lib/frame-task.ts";
import type { Channel } from "../presenter/channel.ts";
import type { DeckStore } from "../storage/deck-store.ts";
import { emptyAudience, isAudienceMessage, reduceAudienceAll, type AudienceState } from "./audience-state.ts";
import { placePanel } from "./panel-place.ts";
import { floatReactions } from "./reaction-floats.ts";
import type { Outgoing } from "./socket.ts";
import { SteadyOrder, type QuestionOrder } from "./question-order.ts";
import { QuestionWindow } from "./question-window.ts";
import { emptyTalk, forgetsHistory, mergeTalk, talkCsv, talkJson, type TalkRecord } from "./talk-export.ts";
import { checkPollDraft, panelQuestions, projectedTalk, questionRow, reactionTotal, sameProjection, sameRow, sidecarPollToOpen, toggleTopShown, withOpenedSource, NOTHING_PROJECTED, type ProjectedTalk, type QuestionButton, type QuestionRow, type SidecarPoll } from "./talk-model.ts";
import { exportView, patchQuestionRow, pollForm, pollView, questionRowView, questionsSection, reactionsView, switchesView, type QuestionsSection, type TalkHandlers } from "./talk-panel-view.ts";

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
  /** Frames and timers (the browser's; a test's by hand). */
  frames?: FrameClock;
  /** Milliseconds, for the order's re-sorts (performance.now). */
  now?: () => number;
}

/** The record is written at most this often while messages stream in (votes, reactions); it is brought up to date then, not at every message. */
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
  /** The audience changed since the record was last brought up to date. */
  private unkept = false;
  /** Cancels the write that waits (null: none waits). */
  private saveTimer: (() => void) | null = null;
  private readonly clock: FrameClock;
  /** The slide changed since the last frame: its poll sidecar and its reactions are looked at then. */
  private pageDue = false;
  /** Audience messages since the last frame, reduced together then (./audience-state.ts reduceAudienceAll). */
  private readonly frame: FrameQueue<LiveServerMessageT>;
  private readonly now: () => number;
  private readonly steady = new SteadyOrder();
  private readonly pollStatus = h("p", { class: "key-status", id: "talk-poll-status", role: "status" });
  private readonly exportStatus = h("p", { class: "key-status", id: "talk-export-status", role: "status" });
  private readonly form: HTMLFormElement;
  /** The live part of the panel (all but the form), in parts each drawn anew only when what it shows changed. */
  private readonly live = h("div", { class: "talk-live" });
  private readonly parts = { switches: part(), reactions: part(), poll: part() };
  /** What each part was drawn from: the same again draws nothing. */
  private drawn = { switches: "", reactions: "", poll: null as unknown[] | null };
  private readonly section: QuestionsSection;
  private readonly questions: QuestionWindow<QuestionRow>;
  private built = false;
  private readonly handlers: TalkHandlers;

  constructor(private readonly deps: TalkBackDeps) {
    this.now = deps.now ?? (() => performance.now());
    this.clock = deps.frames ?? browserFrames;
    this.frame = new FrameQueue((batch) => this.drain(batch), this.clock);
    this.handlers = {
      qa: (open, moderated) => this.deps.send({ type: "qa", open, moderated }),
      openByDefault: (on) => {
        this.deps.setOpenByDefault(on);
        this.frame.now();
      },
      reactionsShown: (show) => this.deps.send({ type: "reactionsShow", show }),
      order: (order) => {
        this.order = order;
        this.steady.reset();
        this.frame.now();
      },
      question: (id, button) => this.question(id, button),
      pollStart: (draft) => this.startPoll(draft),
      pollClose: (pollId) => this.deps.send({ type: "pollClose", pollId }),
      pollShow: (pollId) => this.deps.send({ type: "pollShow", pollId }),
      exportTalk: (kind) => void this.exportTalk(kind),
    };
    this.form = pollForm(this.handlers, this.pollStatus);
    this.section = questionsSection(this.handlers);
    this.questions = new QuestionWindow<QuestionRow>({
      list: this.section.list,
      empty: this.section.empty,
      id: "talk-questions-more",
      row: { key: (row) => row.id, create: (row) => questionRowView(row, this.handlers), update: (li, row, before) => patchQuestionRow(li, row, before, this.handlers), same: sameRow },
      redraw: (now) => (now ? this.frame.now() : this.frame.request()),
    });
    this.live.append(this.parts.switches, this.parts.reactions, this.parts.poll, this.section.section);
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
    this.frame.clear();
    this.opened = new Set();
    this.record = null;
    this.unkept = false;
    this.steady.reset();
    this.questions.reset();
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
    this.frame.now();
  }

  /**
   * A server message on the presenter's socket. Only queued: the socket's handler returns at
   * once (a slide change waits for no question), and the next frame reduces and draws what came.
   */
  onMessage(message: LiveServerMessageT): void {
    if (isAudienceMessage(message)) this.frame.push(message);
  }

  /** The slide changed: at the next frame, the deck's poll for it opens if it is time (./talk-model.ts), and its reactions are shown. */
  pageChanged(_page: number): void {
    this.pageDue = true;
    this.frame.request();
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
    this.frame.now();
  }

  /** The key `Shift+Q`: the top question on the projector, or the shown one taken away. */
  toggleTopQuestion(): void {
    this.frame.now();
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
    // What came meanwhile first: is a poll open now?
    this.frame.now();
    if (this.audience.poll?.status === "open") {
      this.pollStatus.textContent = "Close the open poll first: one poll at a time.";
      return;
    }
    const sent = this.deps.send({ type: "pollStart", question: checked.poll.question, options: [...checked.poll.options], multiple: checked.poll.multiple });
    this.pollStatus.textContent = sent ? "Poll started." : "Not connected: try again when the talk is back online.";
    if (sent) this.form.reset();
  }

  // ---- the frame: what came, reduced and drawn at once -----------------------------------

  /** Everything the messages since the last frame change, once: the state, the record's due, the projector, the panel. */
  private drain(batch: LiveServerMessageT[]): void {
    let hello = false;
    this.audience = reduceAudienceAll(this.audience, batch, {
      picks: (m) => m.type === "hello" || m.type === "poll" || m.type === "reactions",
      // A hello or a new poll replaces what the state knew: the record takes it first (both are rare).
      before: (state, m) => {
        if (!forgetsHistory(state, m)) return;
        this.unkept = true;
        this.keepNow(state);
      },
      after: (state, m) => {
        if (m.type === "reactions") {
          floatReactions(this.deps.floats, m.counts as LiveReactionCountsT);
          // The projector hears that reactions are on (a reactionsShow of the same frame) before it gets some.
          this.project(state);
          if (state.reactionsShown) this.deps.channel()?.post({ type: "talk-reactions", counts: m.counts as LiveReactionCountsT });
          return;
        }
        // A deck poll opened by a remote (or before a reload) counts as opened in this talk too.
        this.opened = withOpenedSource(this.opened, state);
        if (m.type === "hello") hello = true;
        if (m.type === "poll" && m.poll.status === "open") this.pollStatus.textContent = "";
      },
    }).state;
    if (hello && this.audience.known) {
      if (this.fresh && this.deps.openByDefault() && !this.audience.qa.open) this.deps.send({ type: "qa", open: true, moderated: this.audience.qa.moderated });
      this.fresh = false;
      this.pageDue = true;
    }
    if (this.pageDue) {
      this.pageDue = false;
      this.openSidecarPoll(this.deps.page());
    }
    if (batch.length) {
      this.markUnkept();
      this.project();
    }
    this.render();
  }

  private openSidecarPoll(page: number): void {
    const poll = sidecarPollToOpen(page, this.deps.polls(), this.opened, this.audience, !!this.code);
    if (!poll) return;
    if (this.deps.send({ type: "pollStart", question: poll.question, options: poll.options, multiple: poll.multiple, source: { slide: poll.slide } })) this.opened.add(page);
  }

  private project(audience = this.audience): void {
    const next = this.code ? projectedTalk(audience) : NOTHING_PROJECTED;
    if (sameProjection(next, this.projected)) return;
    this.projected = next;
    this.deps.channel()?.post({ type: "talk", talk: next });
  }

  // ---- the record kept with the deck ---------------------------------------------------

  /** The audience moved: the record is brought up to date and written within SAVE_MS (not at every message: at 2,000 questions a merge is a sort of them all). */
  private markUnkept(): void {
    if (!this.audience.known) return;
    this.unkept = true;
    this.saveTimer ??= this.clock.later(() => this.flush(), SAVE_MS);
  }

  /** The record with what the audience state knows (now, or just before a message that replaces some of it). */
  private keepNow(audience = this.audience): void {
    if (!this.record || !this.unkept || !audience.known) return;
    this.record = mergeTalk(this.record, audience, Date.now());
    this.unkept = false;
  }

  /** Write the record now (the talk ends or changes: its last second is not lost). */
  private flush(): void {
    this.frame.now();
    this.saveTimer?.();
    this.saveTimer = null;
    const changed = this.unkept;
    this.keepNow();
    if (this.record && changed) void this.deps.store.putTalk(this.record).catch(() => {});
  }

  /** The talk in progress, or after it the deck's last one (kept in IndexedDB). */
  private async exportTalk(kind: "csv" | "json"): Promise<void> {
    this.frame.now();
    this.keepNow();
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

  /** The panel as the state says; each part drawn only when what it shows changed, the questions patched row by row. */
  private render(): void {
    document.body.dataset.talkPanel = this.open ? "open" : "closed";
    if (!this.open) return;
    const a = this.audience;
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
    // The form stays put (what is typed, and the focus in it, stay); the parts change in place.
    if (!this.built) {
      this.built = true;
      replace(this.deps.body, this.live, this.form, exportView(this.handlers), this.exportStatus);
    }
    const switches = { open: a.qa.open, moderated: a.qa.moderated, openByDefault: this.deps.openByDefault(), reactionsShown: a.reactionsShown };
    const switchesKey = JSON.stringify(switches);
    if (switchesKey !== this.drawn.switches) {
      this.drawn.switches = switchesKey;
      this.redrawPart(this.parts.switches, switchesView(switches, this.handlers));
    }
    const page = this.deps.page();
    const total = [...a.slides.values()].reduce((sum, counts) => sum + reactionTotal(counts), 0);
    const label = this.deps.label(page);
    const counts = a.slides.get(page);
    const reactionsKey = `${label} ${JSON.stringify(counts ?? {})} ${total}`;
    if (reactionsKey !== this.drawn.reactions) {
      this.drawn.reactions = reactionsKey;
      replace(this.parts.reactions, reactionsView(label, counts, total));
    }
    // The poll first: while it runs, its chart is what moves.
    const results = a.poll && a.results?.pollId === a.poll.id ? a.results : null;
    if (!this.drawn.poll || this.drawn.poll[0] !== a.poll || this.drawn.poll[1] !== results) {
      this.drawn.poll = [a.poll, results];
      this.redrawPart(this.parts.poll, pollView(a.poll, results?.counts ?? null, results?.voters ?? 0, this.handlers));
    }
    this.drawQuestions();
  }

  private drawQuestions(): void {
    const a = this.audience;
    const held = this.questions.held;
    // "Newest" does not sort by votes: the votes of the last re-sort stay as they are meanwhile.
    const { votesOf, due } = this.steady.votes(a.questions.values(), this.now(), held || this.order !== "votes");
    const list = panelQuestions(a, this.order, votesOf);
    const title = `Questions (${list.length})`;
    if (this.section.title.textContent !== title) this.section.title.textContent = title;
    this.section.setOrder(this.order);
    this.questions.show(list, (q) => questionRow(a, q));
    if (due !== null) this.frame.requestIn(due);
  }

  /** A part drawn anew, the focus back on the same control (without scrolling): a vote or a question arriving must not move the panel. */
  private redrawPart(host: HTMLElement, content: HTMLElement | null): void {
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.focus;
    replace(host, content);
    if (focused) host.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  }
}

/** A part of the panel: its box lays out as if its content stood in the panel itself. */
function part(): HTMLElement {
  return h("div", { class: "talk-part" });
}
