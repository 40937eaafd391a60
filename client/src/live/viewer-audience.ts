/**
 * @module client/live/viewer-audience
 * The viewer page's part of the audience (issue 23): the Ask box (while Q&A is open), the
 * question list with up-votes, the poll card (ballot, then results when the presenter shows
 * them), the question the presenter shows (a card under the slide, never over its picture),
 * the reaction bar and reactions floating over the slide when the presenter turns them on. State is ./audience-state.ts's reducer; every text
 * goes in through ./audience-view.ts as text. Refusals from the server are shown as a sentence
 * next to the control that was used (./audience-errors.ts). Messages are queued and drawn at
 * the next frame, the list as keyed rows, 50 at a time, in a steady order (./question-window.ts):
 * a page holding 2,000 questions still shows the next slide at once.
 */
import { charCount, isBlankText, LIVE_REACTIONS, MAX_QUESTION_CHARS, MAX_QUESTION_NAME_CHARS, type LiveQuestionT, type LiveReactionCountsT, type LiveReactionT } from "../../../src/shared/live-audience-protocol.ts";
import type { LiveErrorCodeT, LiveServerMessageT } from "../../../src/shared/live-protocol.ts";
import { $, h, replace } from "../lib/dom.ts";
import { audienceErrorText, type AudienceAction } from "./audience-errors.ts";
import { FrameQueue, type FrameClock } from "../lib/frame-task.ts";
import { emptyAudience, isAudienceMessage, markMine, reduceAudienceAll, sortedQuestions, type AudienceState } from "./audience-state.ts";
import { ballot, patchQuestionItem, questionItem, shownCard } from "./audience-view.ts";
import { SteadyOrder } from "./question-order.ts";
import { questionItems, type QuestionWindow } from "./question-window.ts";
import { pollChart } from "./poll-chart-view.ts";
import { ReactionBatch } from "./reaction-batch.ts";
import type { Outgoing as SocketOutgoing } from "./socket.ts";
import { floatReactions } from "./reaction-floats.ts";
import { reactionImage } from "./reaction-images.ts";

/** The display name a viewer gave last, kept in this browser. */
export const ASK_NAME_KEY = "deckhand.askName";

/** What a viewer may send of the audience's messages. */
type Outgoing = Extract<SocketOutgoing, { type: "ask" | "upvote" | "vote" | "react" }>;

export interface ViewerAudienceDeps {
  send(message: Outgoing): boolean;
  store: Pick<Storage, "getItem" | "setItem"> | null;
  /** Frames and timers (the browser's; a test's by hand). */
  frames?: FrameClock;
}

/** A question as this viewer's list draws it. */
interface Item {
  q: LiveQuestionT;
  upvoted: boolean;
  canUpvote: boolean;
}

/** Characters as the server counts them (code points), so the counter agrees with it; 0 for text that shows nothing (the server refuses it as blank). */
export function questionLength(text: string): number {
  return isBlankText(text) ? 0 : charCount(text.trim());
}

export class ViewerAudience {
  private state: AudienceState = emptyAudience();
  private order: "newest" | "votes" = "newest";
  /** Which control sent the last audience message: where a refusal is shown. */
  private lastAction: AudienceAction | null = null;
  /** The question or poll the last up-vote or vote was for: marked at once, unmarked if refused. */
  private lastTarget = "";
  /** The text of the question sent last, put back if the server refuses it. */
  private lastAsked = "";
  /** The poll whose ballot is on screen and whether it was drawn voted: a ballot being filled in is not redrawn under the thumb. */
  private ballotKey = "";
  /** The last poll the card opened itself for: a new one opens the Poll section once (a closed section stays closed). */
  private seenPoll = "";
  /** What this viewer chose in each poll it voted in from this page (a reload knows only that it voted). */
  private readonly chosen = new Map<string, number[]>();
  private readonly batch: ReactionBatch;
  /** Audience messages since the last frame, reduced and drawn together then. */
  private readonly frame: FrameQueue<LiveServerMessageT>;
  private readonly steady = new SteadyOrder();
  private readonly questions: QuestionWindow<Item>;
  private readonly empty = h("li", { class: "question-empty muted" });
  /** What the poll card and the shown question were drawn from: a frame that changed neither leaves them be. */
  private drawnPoll: unknown[] = [];
  private drawnShown: LiveQuestionT | null | undefined = undefined;
  private readonly els = {
    dock: $("#audience"),
    qaSection: $("#qa-section") as HTMLDetailsElement,
    qaCount: $("#qa-count"),
    askForm: $("#ask-form") as HTMLFormElement,
    askText: $("#ask-text") as HTMLTextAreaElement,
    askName: $("#ask-name") as HTMLInputElement,
    askCount: $("#ask-count"),
    askSend: $("#ask-send") as HTMLButtonElement,
    askStatus: $("#ask-status"),
    qaClosed: $("#qa-closed"),
    orderNewest: $("#order-newest"),
    orderVotes: $("#order-votes"),
    qaError: $("#qa-error"),
    list: $("#qa-list"),
    pollSection: $("#poll-section") as HTMLDetailsElement,
    pollCard: $("#poll-card"),
    pollError: $("#poll-error"),
    shown: $("#shown-question"),
    floats: $("#reaction-floats"),
    reactions: $("#reaction-bar"),
    reactError: $("#react-error"),
  };

  constructor(private readonly deps: ViewerAudienceDeps) {
    this.batch = new ReactionBatch({
      now: () => performance.now(),
      later: (fn, ms) => {
        const timer = setTimeout(fn, ms);
        return () => clearTimeout(timer);
      },
      send: (counts) => this.send("react", { type: "react", counts }),
    });
    this.frame = new FrameQueue((batch) => this.drain(batch), deps.frames);
    this.questions = questionItems<Item>({
      list: this.els.list,
      empty: this.empty,
      id: "qa-more",
      make: (item) => this.item(item),
      patch: (li, item, before) => patchQuestionItem(li, item.q, before.q, this.options(item)),
      same: (a, b) => a.q === b.q && a.upvoted === b.upvoted && a.canUpvote === b.canUpvote,
      redraw: (now) => (now ? this.frame.now() : this.frame.request()),
    });
    this.wire();
  }

  /**
   * Every server message: the audience's ones change what is shown, at the next frame (the
   * socket's handler returns at once: the slide change behind them waits for nothing); others
   * are ignored.
   */
  receive(message: LiveServerMessageT): void {
    if (message.type === "error") return this.refused(message.code);
    if (isAudienceMessage(message)) this.frame.push(message);
  }

  /** What came since the last frame, reduced at once and drawn once. */
  private drain(batch: LiveServerMessageT[]): void {
    let hello = false;
    const { state, changed } = reduceAudienceAll(this.state, batch, {
      picks: (m) => m.type === "reactions" || m.type === "hello",
      after: (now, m) => {
        if (m.type === "hello") hello = true;
        // Reactions the presenter lets viewers see: a few float up over the slide and go.
        else if (m.type === "reactions" && now.reactionsShown) floatReactions(this.els.floats, m.counts as LiveReactionCountsT);
      },
    });
    // Nothing came (a re-sort's turn, the pointer leaving the list): drawn all the same.
    if (changed) this.state = state;
    if (hello) {
      this.ballotKey = "";
      this.steady.reset();
    }
    this.render();
  }

  /** The talk ended or the page leaves: no more taps go out. */
  stop(): void {
    this.batch.stop();
  }

  private send(action: AudienceAction, message: Outgoing): boolean {
    this.lastAction = action;
    this.note(action, null);
    return this.deps.send(message);
  }

  // ---- input --------------------------------------------------------------------------------

  private wire(): void {
    const { askText, askName, askForm, orderNewest, orderVotes, reactions } = this.els;
    askName.maxLength = MAX_QUESTION_NAME_CHARS;
    try {
      askName.value = this.deps.store?.getItem(ASK_NAME_KEY) ?? "";
    } catch {
      // Storage refused: the name field starts empty.
    }
    askText.addEventListener("input", () => this.count());
    askForm.addEventListener("submit", (event) => {
      event.preventDefault();
      this.ask();
    });
    // Choosing again answers the "choose an option" note.
    this.els.pollCard.addEventListener("change", () => this.note("vote", null));
    orderNewest.addEventListener("click", () => this.sortBy("newest"));
    orderVotes.addEventListener("click", () => this.sortBy("votes"));
    for (const emoji of LIVE_REACTIONS) {
      reactions.append(h("button", { type: "button", class: "btn reaction", "data-reaction": emoji, "aria-label": `React ${emoji}`, onclick: (event: Event) => this.tap(emoji, event.currentTarget as HTMLElement) }, reactionImage(emoji)));
    }
    this.count();
  }

  private count(): void {
    const n = questionLength(this.els.askText.value);
    replace(this.els.askCount, `${n}/${MAX_QUESTION_CHARS}`);
    this.els.askCount.classList.toggle("over", n > MAX_QUESTION_CHARS);
    this.els.askSend.disabled = n === 0 || n > MAX_QUESTION_CHARS;
  }

  private ask(): void {
    // A person's action sees what came meanwhile (is the Q&A moderated now?).
    this.frame.now();
    const text = this.els.askText.value.trim();
    const name = this.els.askName.value.trim();
    if (questionLength(text) === 0 || questionLength(text) > MAX_QUESTION_CHARS) return;
    try {
      this.deps.store?.setItem(ASK_NAME_KEY, name);
    } catch {
      // Not kept: the name still goes with this question.
    }
    if (!this.send("ask", { type: "ask", text, ...(name ? { name } : {}) })) return this.note("ask", "Not connected: the question was not sent. Try again when the page says Live.");
    this.lastAsked = text;
    this.els.askText.value = "";
    this.count();
    this.note("ask", this.state.qa.moderated ? "Your question waits for the presenter's approval." : "Sent.", false);
  }

  private upvote(id: string): void {
    if (!this.send("upvote", { type: "upvote", questionId: id })) return this.note("upvote", "Not connected: try again when the page says Live.");
    this.lastTarget = id;
    this.state = markMine(this.state, "upvoted", id);
    // The viewer's own tap answers at once (what came meanwhile is drawn with it).
    this.frame.now();
  }

  private vote(choices: number[]): void {
    this.frame.now();
    const poll = this.state.poll;
    if (!poll) return;
    if (choices.length === 0) return this.note("vote", audienceErrorText("BAD_CHOICE", "vote", poll));
    if (!this.send("vote", { type: "vote", pollId: poll.id, choices })) return this.note("vote", "Not connected: the vote was not sent. Try again when the page says Live.");
    this.lastTarget = poll.id;
    this.chosen.set(poll.id, choices);
    this.state = markMine(this.state, "voted", poll.id);
    this.renderPoll();
  }

  private tap(emoji: LiveReactionT, button: HTMLElement): void {
    this.lastAction = "react";
    this.batch.tap(emoji);
    // A tap answers at once on the button, whatever the batch does.
    button.classList.remove("tapped");
    void button.offsetWidth;
    button.classList.add("tapped");
  }

  private sortBy(order: "newest" | "votes"): void {
    this.order = order;
    this.steady.reset();
    this.frame.now();
  }

  // ---- refusals -----------------------------------------------------------------------------

  private refused(code: LiveErrorCodeT): void {
    const action = this.lastAction;
    if (!action) return;
    // What came before the refusal first: the state it is read against is the server's.
    this.frame.now();
    if (action === "ask" && this.lastAsked && this.els.askText.value === "") {
      // The question did not go in: give it back to edit or send again.
      this.els.askText.value = this.lastAsked;
      this.lastAsked = "";
      this.count();
    }
    // An up-vote or vote that did not count is not this viewer's (one already cast stays so).
    if ((action === "upvote" || action === "vote") && code !== "ALREADY_VOTED" && this.lastTarget) {
      const kind = action === "vote" ? "voted" : "upvoted";
      const set = new Set(this.state[kind]);
      set.delete(this.lastTarget);
      this.state = { ...this.state, [kind]: set };
      if (action === "vote") this.ballotKey = "";
      this.render();
    }
    this.note(action, audienceErrorText(code, action, this.state.poll ?? undefined));
  }

  /** A line by the control `action` came from: a refusal (red), a status, or nothing. */
  private note(action: AudienceAction, text: string | null, error = true): void {
    const el = action === "ask" ? this.els.askStatus : action === "vote" ? this.els.pollError : action === "react" ? this.els.reactError : this.els.qaError;
    el.hidden = text === null;
    el.classList.toggle("audience-error", error);
    replace(el, text ?? "");
  }

  // ---- drawing ------------------------------------------------------------------------------

  private render(): void {
    const { dock, askForm, qaClosed } = this.els;
    // Drawn at every frame a crowd's message brings: only what changed is written.
    const audience = this.state.known ? "on" : "off";
    const qa = this.state.qa.open ? "open" : "closed";
    if (document.body.dataset.audience !== audience || document.body.dataset.qa !== qa) {
      dock.hidden = !this.state.known;
      document.body.dataset.audience = audience;
      document.body.dataset.qa = qa;
      askForm.hidden = !this.state.qa.open;
      qaClosed.hidden = this.state.qa.open;
      replace(qaClosed, "Questions are closed right now.");
    }
    this.renderQuestions();
    this.renderPoll();
    this.renderShown();
  }

  private renderQuestions(): void {
    const { qaCount, orderNewest, orderVotes } = this.els;
    const { votesOf, due } = this.steady.votes(this.state.questions.values(), performance.now(), this.questions.held || this.order !== "votes");
    const questions = sortedQuestions(this.state, this.order, votesOf);
    const none = this.state.qa.open ? "No questions yet. Be the first to ask." : "No questions.";
    if (this.empty.textContent !== none) replace(this.empty, none);
    this.questions.show(questions, (q) => ({ q, upvoted: this.state.upvoted.has(q.id), canUpvote: this.state.qa.open }));
    if (due !== null) this.frame.requestIn(due);
    const count = questions.length ? String(questions.length) : "";
    if (qaCount.textContent !== count) replace(qaCount, count);
    for (const [button, order] of [[orderNewest, "newest"], [orderVotes, "votes"]] as const) if (button.getAttribute("aria-pressed") !== String(this.order === order)) button.setAttribute("aria-pressed", String(this.order === order));
    if (document.body.dataset.questions !== String(questions.length)) document.body.dataset.questions = String(questions.length);
  }

  private options(item: Item) {
    return { upvoted: item.upvoted, canUpvote: item.canUpvote, onUpvote: (id: string) => this.upvote(id) };
  }

  private item(item: Item): HTMLElement {
    return questionItem(item.q, this.options(item));
  }

  private renderPoll(): void {
    const { pollSection, pollCard } = this.els;
    const poll = this.state.poll;
    // A closed poll the presenter does not show is over for viewers: the card goes.
    const visible = poll !== null && (poll.status === "open" || poll.shown);
    pollSection.hidden = !visible;
    document.body.dataset.poll = poll ? `${poll.status}${poll.shown ? "-shown" : ""}` : "none";
    if (!visible || !poll) {
      this.ballotKey = "";
      replace(pollCard);
      return;
    }
    if (poll.id !== this.seenPoll) {
      this.seenPoll = poll.id;
      pollSection.open = true;
    }
    const voted = this.state.voted.has(poll.id);
    const results = poll.shown && this.state.results?.pollId === poll.id ? this.state.results : null;
    const key = `${poll.id} ${poll.status} ${voted} ${poll.shown}`;
    if (this.drawnPoll[0] === poll && this.drawnPoll[1] === results && this.drawnPoll[2] === key && key === this.ballotKey) return;
    this.drawnPoll = [poll, results, key];
    if (poll.shown && poll.status === "open" && !voted) {
      // Results shown while the poll is still open: a viewer who has not voted yet still can.
      // The ballot stays as it is (a choice half made is kept); only the bars under it change.
      if (key !== this.ballotKey) {
        this.ballotKey = key;
        replace(pollCard, ballot(poll, { voted, onVote: (choices) => this.vote(choices) }), h("div", { class: "poll-live-results" }));
      }
      replace(pollCard.querySelector<HTMLElement>(".poll-live-results")!, pollChart(poll, results));
      return;
    }
    if (poll.shown) {
      this.ballotKey = key;
      replace(pollCard, pollChart(poll, results, { caption: true }), voted ? h("p", { class: "poll-voted" }, "Voted") : null);
      return;
    }
    if (key === this.ballotKey) return;
    this.ballotKey = key;
    replace(pollCard, ballot(poll, { voted, chosen: voted ? this.chosen.get(poll.id) : undefined, onVote: (choices) => this.vote(choices) }));
  }

  private renderShown(): void {
    const shown = this.state.shown;
    this.els.shown.hidden = shown === null;
    document.body.dataset.shown = shown?.id ?? "";
    if (shown === this.drawnShown) return;
    this.drawnShown = shown;
    replace(this.els.shown, shown ? shownCard(shown) : null);
  }
}
