/**
 * @module client/live/remote-audience
 * The phone remote's part of the audience (issue 23): the questions viewers can see, most
 * up-voted first, each with *Show on projector* (and *Dismiss* for the one shown); the open
 * poll's live results with *Close poll*; and, while no poll is open, the deck's own polls
 * (`poll-slide-{N}.json` sidecars, read by this remote's worker like the notes) to start. A
 * remote may `show`, `pollStart` and `pollClose` (the server checks it); moderating and showing
 * results are the presenter's. Text goes in as text (./audience-view.ts). Messages are drawn at
 * the next frame, the list as keyed rows, 50 at a time (./question-window.ts).
 */
import type { SlidePoll } from "../../../src/deck/sidecar/types.ts";
import type { LiveServerMessageT } from "../../../src/shared/live-protocol.ts";
import type { LiveQuestionT } from "../../../src/shared/live-audience-protocol.ts";
import { $, h, replace } from "../lib/dom.ts";
import { FrameQueue, type FrameClock } from "../lib/frame-task.ts";
import { emptyAudience, isAudienceMessage, reduceAudienceAll, sortedQuestions, type AudienceState } from "./audience-state.ts";
import { patchQuestionItem, questionItem } from "./audience-view.ts";
import { SteadyOrder } from "./question-order.ts";
import { questionItems, type QuestionWindow } from "./question-window.ts";
import { pollChart } from "./poll-chart-view.ts";
import { audienceErrorText } from "./audience-errors.ts";
import type { Outgoing as SocketOutgoing } from "./socket.ts";

/** What a remote may send of the audience's messages. */
type Outgoing = Extract<SocketOutgoing, { type: "show" | "pollStart" | "pollClose" }>;

/** A question as the remote lists it: with Show on projector, or Dismiss for the one shown. */
interface Item {
  q: LiveQuestionT;
  shown: boolean;
}

export class RemoteAudience {
  private state: AudienceState = emptyAudience();
  private polls: SlidePoll[] = [];
  /** The command this remote sent last: a refusal is shown only for its own audience commands. */
  private asked: Outgoing["type"] | null = null;
  private readonly els = {
    section: $("#remote-audience") as HTMLDetailsElement,
    summary: $("#remote-audience-count"),
    shown: $("#remote-shown"),
    poll: $("#remote-poll"),
    list: $("#remote-questions"),
    held: $("#remote-held"),
    error: $("#remote-audience-error"),
  };

  /** Audience messages since the last frame, reduced and drawn together then. */
  private readonly frame: FrameQueue<LiveServerMessageT>;
  private readonly steady = new SteadyOrder();
  private readonly questions: QuestionWindow<Item>;
  private readonly empty = h("li", { class: "question-empty muted" }, "No questions to show yet.");
  private drawnShown: LiveQuestionT | null | undefined = undefined;
  private drawnPoll: unknown[] = [];

  constructor(
    private readonly send: (message: Outgoing) => boolean,
    frames?: FrameClock,
  ) {
    this.frame = new FrameQueue((batch) => this.drain(batch), frames);
    this.questions = questionItems<Item>({
      list: this.els.list,
      empty: this.empty,
      id: "remote-more",
      make: (item) => this.item(item),
      patch: (li, item, before) => item.shown === before.shown && patchQuestionItem(li, item.q, before.q),
      same: (a, b) => a.q === b.q && a.shown === b.shown,
      redraw: (now) => (now ? this.frame.now() : this.frame.request()),
    });
  }

  /** The deck's poll sidecars (valid ones), offered to start while no poll is open. */
  setPolls(polls: SlidePoll[] | undefined): void {
    this.polls = polls ?? [];
    this.render();
  }

  receive(message: LiveServerMessageT): void {
    if (message.type === "error") {
      if (!this.asked) return;
      const action = this.asked;
      this.asked = null;
      this.els.error.hidden = false;
      replace(this.els.error, audienceErrorText(message.code, action));
      return;
    }
    // Queued for the next frame: the socket's handler returns at once (a slide change waits for nothing).
    if (isAudienceMessage(message)) this.frame.push(message);
  }

  private drain(batch: LiveServerMessageT[]): void {
    // Nothing came (a re-sort's turn, the pointer leaving the list): drawn all the same.
    this.state = reduceAudienceAll(this.state, batch).state;
    this.render();
  }

  private command(message: Outgoing): void {
    this.els.error.hidden = true;
    this.asked = message.type;
    if (!this.send(message)) {
      this.asked = null;
      this.els.error.hidden = false;
      replace(this.els.error, "Not connected: try again when the remote is back online.");
    }
  }

  private render(): void {
    const { section, summary, shown, held } = this.els;
    section.hidden = !this.state.known;
    document.body.dataset.audience = this.state.known ? "on" : "off";
    // Only what viewers see can go on the projector; held ones wait for the presenter.
    const { votesOf, due } = this.steady.votes(this.state.questions.values(), performance.now(), this.questions.held);
    const all = sortedQuestions(this.state, "votes", votesOf);
    const visible = all.filter((q) => q.status === "open" || q.status === "answered");
    const waiting = all.filter((q) => q.status === "pending").length;
    const open = this.state.poll?.status === "open";
    // Drawn at every frame a crowd's message brings: only what changed is written.
    const says = [visible.length ? `${visible.length} ${visible.length === 1 ? "question" : "questions"}` : this.state.qa.open ? "no questions yet" : "Q&A closed", open ? "poll open" : ""].filter(Boolean).join(" · ");
    if (summary.textContent !== says) replace(summary, says);
    if (document.body.dataset.questions !== String(visible.length)) document.body.dataset.questions = String(visible.length);

    const current = this.state.shown;
    shown.hidden = current === null;
    if (current !== this.drawnShown) {
      this.drawnShown = current;
      replace(shown, current ? h("p", { class: "remote-shown-line" }, h("span", { class: "muted" }, "On the projector: "), h("span", { class: "remote-shown-text" }, current.text)) : null, current ? h("button", { type: "button", class: "btn btn-small", id: "remote-dismiss", onclick: () => this.command({ type: "show", questionId: null }) }, "Dismiss") : null);
    }
    this.questions.show(visible, (q) => ({ q, shown: q.id === current?.id }));
    if (due !== null) this.frame.requestIn(due);
    held.hidden = waiting === 0;
    const heldText = waiting ? `${waiting} waiting for the presenter's approval.` : "";
    if (held.textContent !== heldText) replace(held, heldText);
    this.renderPoll();
  }

  private item({ q, shown }: Item): HTMLElement {
    return questionItem(q, {
      actions: [
        shown
          ? h("button", { type: "button", class: "btn btn-small", "data-focus": `${q.id} dismiss`, onclick: () => this.command({ type: "show", questionId: null }) }, "Dismiss")
          : h("button", { type: "button", class: "btn btn-small remote-show", "data-id": q.id, "data-focus": `${q.id} show`, onclick: () => this.command({ type: "show", questionId: q.id }) }, "Show on projector"),
      ],
    });
  }

  private renderPoll(): void {
    const current = this.state.poll;
    document.body.dataset.poll = current ? current.status : "none";
    // A frame that changed neither the poll, its results nor the deck's polls leaves the card (and a finger on its button) be.
    const from = [current, this.state.results, this.polls];
    if (from.every((x, i) => x === this.drawnPoll[i])) return;
    this.drawnPoll = from;
    if (current?.status === "open") {
      const results = this.state.results?.pollId === current.id ? this.state.results : null;
      replace(this.els.poll, pollChart(current, results, { caption: true }), h("button", { type: "button", class: "btn btn-small", id: "remote-poll-close", onclick: () => this.command({ type: "pollClose", pollId: current.id }) }, "Close poll"));
      return;
    }
    const last = current ? pollChart(current, this.state.results?.pollId === current.id ? this.state.results : null, { caption: true }) : null;
    const starts = this.polls.map((p) =>
      h(
        "li",
        {},
        h(
          "button",
          { type: "button", class: "btn btn-small remote-poll-start", "data-slide": String(p.slide), onclick: () => this.command({ type: "pollStart", question: p.question, options: p.options, multiple: p.multiple, source: { slide: p.slide } }) },
          h("span", { class: "remote-poll-slide" }, `Start the poll of slide ${p.slide}`),
          h("span", {}, p.question),
        ),
      ),
    );
    replace(this.els.poll, last, starts.length ? h("ul", { class: "remote-poll-starts" }, ...starts) : current ? null : h("p", { class: "muted audience-note" }, "No poll open. The deck has no polls of its own to start from here."));
  }
}
