/**
 * @module live/audience
 * The audience of one live talk talking back (issue 23): questions and their up-votes,
 * moderation, the one poll and its votes, reactions per slide. Pure: no sockets, no timers,
 * the clock and the id source injected — the hub (./hub.ts) decides who may call what (roles),
 * sends what a call returns, and drains `tick()` every 100 ms on its scheduler.
 *
 * Every call answers either the messages it causes, each for `viewers` or `staff` (presenter
 * and remotes), or a refusal with a stable error code and nothing changed. A call checks the
 * rules and turns what it accepts into an event (./audience-events.ts) that `apply` — the one
 * reducer — carries out: the hub publishes the event, and the other instances serving the talk
 * apply it to their copies the same way (the PostgreSQL bus). Up-votes, votes and
 * reactions are not sent per call: they mark the talk dirty and `tick()` sends one message per
 * changed question, one poll result and one reaction sum per slide, so 2,000 votes in two
 * seconds are 20 result messages, not 2,000 × every socket.
 *
 * Bounds: questions per talk, per viewer id and per address per minute, up-votes per talk;
 * one vote per poll per viewer id and per-address caps (the hub passes the seats one address
 * may hold), so a script on one machine cannot stuff a poll by inventing viewer ids.
 */
import type { LiveErrorCodeT, LiveServerMessageT } from "../shared/live-protocol.ts";
import {
  LIVE_REACTIONS,
  type LiveAudienceViewT,
  type LivePollT,
  type LiveQuestionT,
  type LiveReactionCountsT,
  MAX_QUESTION_CHARS,
  MAX_QUESTION_NAME_CHARS,
} from "../shared/live-audience-protocol.ts";
import { charCount, cleanText, RecentEvents } from "./audience-text.ts";
import { type AudienceSnapshot, type AudienceState, readSnapshot, type Voted, writeSnapshot } from "./audience-snapshot.ts";
import { type AudienceEvent, preferVote, STAFF_EVENTS } from "./audience-events.ts";
import { mergeAudience } from "./audience-merge.ts";

export const AUDIENCE_LIMITS = {
  questions: 2_000,
  questionsPerViewerPerMinute: 5,
  questionsPerAddressPerMinute: 20,
  /** Up-votes a talk keeps (each is a viewer id in the saved row). */
  upvotes: 100_000,
  /** Slides whose reaction sums a talk keeps. */
  slides: 2_000,
  /**
   * Questions one `hello` carries: 2,000 questions of 280 emoji would be a 2 MB hello to every
   * late joiner, four times what a socket may have waiting (SOCKET_LIMITS.backpressureLimit).
   */
  helloQuestions: 200,
};

export interface AudienceDeps {
  clock: () => number;
  /** A fresh id for a question or a poll: random, so two instances never give the same one. */
  newId: () => string;
  limits?: Partial<typeof AUDIENCE_LIMITS>;
}

/** Who is acting: the hub knows the socket's viewer id (or a per-socket stand-in) and address. */
export interface Actor {
  viewerId: string;
  addressKey: string;
  /** How many votes one address may cast per poll and per question (--max-viewers-per-address). */
  perAddress: number;
}

export interface Outgoing {
  to: "viewers" | "staff";
  message: LiveServerMessageT;
}
/**
 * What a call did: the messages for this instance's sockets, whether the next tick has more,
 * and the accepted change for the other instances (absent for reactions: they go per tick).
 */
export type AudienceResult = { ok: true; out: Outgoing[]; tick?: true; event?: AudienceEvent } | { ok: false; code: LiveErrorCodeT; message: string };

/** A poll as the presenter composes it or a deck's `poll-slide-{N}.json` sidecar carries it. */
export interface PollSpec {
  question: string;
  options: string[];
  multiple: boolean;
}

interface Question extends LiveQuestionT {
  upvoters: Set<string>;
  /** Moderations applied to it (./audience-merge.ts). */
  mods: number;
}
type Counts = Record<string, number>;

const refuse = (code: LiveErrorCodeT, message: string): AudienceResult => ({ ok: false, code, message });
const both = (message: LiveServerMessageT): Outgoing[] => [
  { to: "staff", message },
  { to: "viewers", message },
];
const visible = (q: LiveQuestionT) => q.status === "open" || q.status === "answered";
const wire = ({ upvoters: _, mods: __, ...q }: Question): LiveQuestionT => q;
const counted = (actor: Actor) => ({ viewerId: actor.viewerId, addressKey: actor.addressKey });
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

export class Audience {
  private readonly limits: typeof AUDIENCE_LIMITS;
  private qa = { open: false, moderated: false };
  private readonly questions = new Map<string, Question>();
  private shownId: string | null = null;
  private poll: LivePollT | null = null;
  private votes: Voted = new Map();
  private reactionsShown = false;
  private readonly slides = new Map<number, Counts>();
  private upvoteCount = 0;
  /** The presenter's changes applied to this copy (./audience-merge.ts). */
  private rev = 0;
  // Memory only (addresses are not written to the row): a restart forgets them.
  private readonly voteAddresses = new Map<string, number>();
  private readonly upvoteAddresses = new Map<string, number>();
  private readonly byViewer: RecentEvents;
  private readonly byAddress: RecentEvents;
  // What the next tick sends.
  private readonly dirtyQuestions = new Set<string>();
  private dirtyResults = false;
  private readonly pending = new Map<number, Counts>();
  // Taps this instance took that the other instances have not been sent yet.
  private readonly unpublished = new Map<number, Counts>();

  constructor(
    private readonly deps: AudienceDeps,
    /** A snapshot from the row (parsed JSON): restored when it matches, ignored otherwise. */
    saved?: unknown,
  ) {
    this.limits = { ...AUDIENCE_LIMITS, ...deps.limits };
    this.byViewer = new RecentEvents(this.limits.questionsPerViewerPerMinute, 60_000);
    this.byAddress = new RecentEvents(this.limits.questionsPerAddressPerMinute, 60_000);
    if (saved !== undefined && saved !== null) this.restore(saved);
  }

  // ---- viewers ------------------------------------------------------------------------------

  ask(actor: Actor, rawText: string, rawName?: string): AudienceResult {
    if (!this.qa.open) return refuse("QA_CLOSED", "Questions are closed for this talk.");
    const text = cleanText(rawText);
    const name = rawName === undefined ? "" : cleanText(rawName);
    if (text === "" || charCount(text) > MAX_QUESTION_CHARS) return refuse("BAD_TEXT", `A question is 1 to ${MAX_QUESTION_CHARS} characters.`);
    if (charCount(name) > MAX_QUESTION_NAME_CHARS) return refuse("BAD_TEXT", `A name is at most ${MAX_QUESTION_NAME_CHARS} characters.`);
    if (this.questions.size >= this.limits.questions) return refuse("QA_FULL", `This talk holds ${this.limits.questions} questions, as many as one talk may.`);
    const now = this.deps.clock();
    if (!this.byViewer.allows(actor.viewerId, now) || !this.byAddress.allows(actor.addressKey, now)) {
      return refuse("QUESTION_RATE", "Too many questions in the last minute; wait a little.");
    }
    const question: LiveQuestionT = { id: this.deps.newId(), text, ...(name ? { name } : {}), votes: 0, at: now, status: this.qa.moderated ? "pending" : "open" };
    return this.accept({ type: "ask", question, ...counted(actor) });
  }

  upvote(actor: Actor, questionId: string): AudienceResult {
    const question = this.questions.get(questionId);
    if (!question || !visible(question)) return refuse("NO_QUESTION", "There is no such question.");
    if (!this.qa.open) return refuse("QA_CLOSED", "Questions are closed for this talk.");
    if (question.upvoters.has(actor.viewerId)) return refuse("ALREADY_VOTED", "You up-voted this question already.");
    if ((this.upvoteAddresses.get(`${questionId} ${actor.addressKey}`) ?? 0) >= actor.perAddress) return refuse("ADDRESS_LIMIT", "Your network address has up-voted this question as often as one address may.");
    if (this.upvoteCount >= this.limits.upvotes) return refuse("QA_FULL", "This talk holds as many up-votes as one talk may.");
    return this.accept({ type: "upvote", questionId, ...counted(actor) });
  }

  vote(actor: Actor, pollId: string, choices: number[]): AudienceResult {
    const poll = this.poll;
    if (!poll || poll.id !== pollId || poll.status !== "open") return refuse("NO_POLL", "This poll is not open.");
    const valid = choices.length >= 1 && (poll.multiple || choices.length === 1) && new Set(choices).size === choices.length && choices.every((c) => Number.isInteger(c) && c >= 0 && c < poll.options.length);
    if (!valid) return refuse("BAD_CHOICE", poll.multiple ? `Choose 1 to ${poll.options.length} different options.` : "Choose one option.");
    if (this.votes.has(actor.viewerId)) return refuse("ALREADY_VOTED", "You voted in this poll already.");
    if ((this.voteAddresses.get(actor.addressKey) ?? 0) >= actor.perAddress) return refuse("ADDRESS_LIMIT", "Your network address has voted in this poll as often as one address may.");
    return this.accept({ type: "vote", pollId, choices: [...choices], ...counted(actor) });
  }

  /**
   * Taps on `page` (the slide shown now); summed until the next tick. No event per call: the
   * taps of a tick go to the other instances as one sum (`takeReactions`).
   */
  react(page: number, counts: LiveReactionCountsT): AudienceResult {
    const taps: Counts = {};
    for (const emoji of LIVE_REACTIONS) {
      const n = counts[emoji];
      if (n && Number.isInteger(n) && n >= 1) taps[emoji] = n;
    }
    this.addTaps(page, taps);
    const unpublished = this.unpublished.get(page) ?? {};
    for (const [emoji, n] of Object.entries(taps)) unpublished[emoji] = (unpublished[emoji] ?? 0) + n;
    this.unpublished.set(page, unpublished);
    return { ok: true, out: [], tick: true };
  }

  // ---- presenter (and remotes, where the hub lets them) -------------------------------------

  setQa(open: boolean, moderated: boolean): AudienceResult {
    return this.accept({ type: "qa", open, moderated });
  }

  moderate(questionId: string, action: "answer" | "unanswer" | "hide" | "approve"): AudienceResult {
    if (!this.questions.has(questionId)) return refuse("NO_QUESTION", "There is no such question.");
    return this.accept({ type: "moderate", questionId, action });
  }

  show(questionId: string | null): AudienceResult {
    if (questionId !== null) {
      const question = this.questions.get(questionId);
      if (!question || !visible(question)) return refuse("NO_QUESTION", "Only a question viewers can see can be shown.");
    }
    return this.accept({ type: "show", questionId });
  }

  pollStart(spec: PollSpec, source?: { slide: number }): AudienceResult {
    if (this.poll?.status === "open") return refuse("POLL_OPEN", "A poll is open already; close it first.");
    const poll: LivePollT = { id: this.deps.newId(), question: cleanText(spec.question), options: spec.options.map(cleanText), multiple: spec.multiple, status: "open", shown: false, ...(source ? { source } : {}) };
    if (poll.question === "" || poll.options.some((o) => o === "")) return refuse("BAD_TEXT", "A poll's question and options cannot be blank.");
    return this.accept({ type: "pollStart", poll });
  }

  pollClose(pollId: string): AudienceResult {
    if (!this.poll || this.poll.id !== pollId || this.poll.status !== "open") return refuse("NO_POLL", "This poll is not open.");
    return this.accept({ type: "pollClose", pollId });
  }

  pollShow(pollId: string | null): AudienceResult {
    if (!this.poll || (pollId !== null && this.poll.id !== pollId)) return refuse("NO_POLL", "There is no such poll.");
    return this.accept({ type: "pollShow", pollId });
  }

  setReactionsShown(show: boolean): AudienceResult {
    return this.accept({ type: "reactionsShow", show });
  }

  // ---- the reducer: this instance's accepted changes and the other instances' ---------------

  /**
   * Apply an accepted change (./audience-events.ts), whichever instance accepted it: what this
   * instance's sockets should hear now, and whether the next tick has something to send.
   * Never refuses: the accepting instance checked the rules; an event about a question or a
   * poll this copy does not hold changes nothing.
   */
  apply(event: AudienceEvent): { out: Outgoing[]; tick?: true } {
    // `rev` counts the presenter's changes that changed something: a repeated one is not counted.
    const staffBefore = STAFF_EVENTS.has(event.type) ? this.staffKey() : null;
    const result = this.reduce(event);
    if (staffBefore !== null && this.staffKey() !== staffBefore) this.rev++;
    return result;
  }

  private reduce(event: AudienceEvent): { out: Outgoing[]; tick?: true } {
    switch (event.type) {
      case "ask": {
        const { question: q, viewerId, addressKey } = event;
        if (this.questions.has(q.id)) return { out: [] };
        // The rate limits count questions accepted anywhere: shared once the event arrives.
        this.byViewer.record(viewerId, q.at);
        this.byAddress.record(addressKey, q.at);
        const question: Question = { id: q.id, text: q.text, ...(q.name ? { name: q.name } : {}), votes: 0, at: q.at, status: q.status, upvoters: new Set(), mods: 0 };
        this.questions.set(q.id, question);
        return { out: this.questionChanged(question, false) };
      }
      case "upvote": {
        const question = this.questions.get(event.questionId);
        if (!question || question.upvoters.has(event.viewerId)) return { out: [] };
        question.upvoters.add(event.viewerId);
        question.votes = question.upvoters.size;
        this.upvoteCount++;
        bump(this.upvoteAddresses, `${event.questionId} ${event.addressKey}`);
        this.dirtyQuestions.add(question.id);
        return { out: [], tick: true };
      }
      case "vote": {
        const poll = this.poll;
        // Counted even if this copy closed the poll meanwhile: the accepting instance took it
        // while the poll was open there, and every copy must count the same votes.
        if (!poll || poll.id !== event.pollId || !event.choices.every((c) => Number.isInteger(c) && c >= 0 && c < poll.options.length)) return { out: [] };
        const before = this.votes.get(event.viewerId);
        if (before) {
          if (preferVote(before, event.choices) === before) return { out: [] };
        } else {
          bump(this.voteAddresses, event.addressKey);
        }
        this.votes.set(event.viewerId, [...event.choices]);
        this.dirtyResults = true;
        return { out: [], tick: true };
      }
      case "reactions":
        for (const [page, counts] of event.slides) this.addTaps(page, counts as Counts);
        return { out: [], tick: true };
      case "qa":
        this.qa = { open: event.open, moderated: event.moderated };
        return { out: both({ v: 1, type: "qa", ...this.qa }) };
      case "moderate": {
        const question = this.questions.get(event.questionId);
        // Un-answering a question that is not answered leaves it as it is (a held one stays held).
        if (!question || (event.action === "unanswer" && question.status !== "answered")) return { out: [] };
        const wasVisible = visible(question);
        const next = { answer: "answered", unanswer: "open", hide: "hidden", approve: "open" } as const;
        // Answering a held question approves it too.
        if (question.status !== next[event.action]) question.mods++;
        question.status = next[event.action];
        return { out: this.questionChanged(question, wasVisible) };
      }
      case "show":
        this.shownId = event.questionId;
        return { out: both(this.shownMessage()) };
      case "pollStart": {
        const poll = event.poll;
        if (this.poll?.id === poll.id) return { out: [] };
        this.poll = poll;
        this.votes = new Map();
        this.voteAddresses.clear();
        this.dirtyResults = false;
        return { out: [...both({ v: 1, type: "poll", poll }), { to: "staff", message: this.resultsMessage(poll) }] };
      }
      case "pollClose":
        if (!this.poll || this.poll.id !== event.pollId) return { out: [] };
        this.poll = { ...this.poll, status: "closed" };
        this.dirtyResults = false;
        return { out: [...both({ v: 1, type: "poll", poll: this.poll }), ...this.resultsOut(this.poll)] };
      case "pollShow":
        if (!this.poll || (event.pollId !== null && this.poll.id !== event.pollId)) return { out: [] };
        this.poll = { ...this.poll, shown: event.pollId !== null };
        return { out: [...both({ v: 1, type: "poll", poll: this.poll }), ...(this.poll.shown ? this.resultsOut(this.poll) : [])] };
      case "reactionsShow":
        this.reactionsShown = event.show;
        return { out: both({ v: 1, type: "reactionsShow", show: event.show }) };
    }
  }

  /** The taps this instance took since the last call, as one event for the other instances (null: none). */
  takeReactions(): AudienceEvent | null {
    if (this.unpublished.size === 0) return null;
    const slides = [...this.unpublished];
    this.unpublished.clear();
    return { type: "reactions", slides };
  }

  private accept(event: AudienceEvent): AudienceResult {
    const { out, tick } = this.apply(event);
    return { ok: true, out, ...(tick ? { tick } : {}), event };
  }

  /** Taps into the slide's total (while the talk keeps fewer than its bound of slides) and into the next tick's sum. */
  private addTaps(page: number, taps: Counts): void {
    const pending = this.pending.get(page) ?? {};
    const total = this.slides.get(page) ?? (this.slides.size < this.limits.slides ? {} : null);
    for (const emoji of LIVE_REACTIONS) {
      const n = taps[emoji];
      if (!n || !Number.isInteger(n) || n < 1) continue;
      pending[emoji] = (pending[emoji] ?? 0) + n;
      if (total) total[emoji] = (total[emoji] ?? 0) + n;
    }
    this.pending.set(page, pending);
    if (total) this.slides.set(page, total);
  }

  // ---- the hub's tick, hello and the row ----------------------------------------------------

  /** What changed since the last tick: one message per up-voted question, the poll's results, reaction sums per slide. */
  tick(): Outgoing[] {
    const out: Outgoing[] = [];
    for (const id of this.dirtyQuestions) {
      const question = this.questions.get(id);
      if (question) out.push(...this.questionChanged(question, visible(question)));
    }
    this.dirtyQuestions.clear();
    if (this.dirtyResults && this.poll) out.push(...this.resultsOut(this.poll));
    this.dirtyResults = false;
    for (const [page, counts] of this.pending) {
      const message: LiveServerMessageT = { v: 1, type: "reactions", page, counts };
      out.push({ to: "staff", message }, ...(this.reactionsShown ? [{ to: "viewers" as const, message }] : []));
    }
    this.pending.clear();
    return out;
  }

  /** `hello.audience` for a socket: viewers never see held or hidden questions, nor results the presenter has not shown. */
  hello(role: "presenter" | "control" | "viewer", viewerId?: string): LiveAudienceViewT {
    const staff = role !== "viewer";
    const all = [...this.questions.values()];
    // Past the bound, what matters most: held ones for the presenter to moderate, then the most up-voted, then the newest.
    const rank = (q: Question) => (q.status === "pending" ? 1 : 0);
    const questions = (staff ? all : all.filter(visible))
      .sort((a, b) => rank(b) - rank(a) || b.votes - a.votes || b.at - a.at)
      .slice(0, this.limits.helloQuestions)
      .map(wire);
    const poll = this.poll;
    const results = poll && (staff || poll.shown) ? this.resultsMessage(poll) : null;
    const view: LiveAudienceViewT = {
      qa: { ...this.qa },
      questions,
      shown: this.shown(),
      poll,
      results: results ? { pollId: results.pollId, counts: results.counts, voters: results.voters } : null,
      reactionsShown: this.reactionsShown,
    };
    if (staff) view.slides = [...this.slides].map(([page, counts]) => ({ page, counts: { ...counts } }));
    else if (viewerId !== undefined) view.mine = { upvoted: all.filter((q) => visible(q) && q.upvoters.has(viewerId)).map((q) => q.id), voted: poll && this.votes.has(viewerId) ? [poll.id] : [] };
    return view;
  }

  /** What the live session's row keeps (bounded by the limits above); `new Audience(deps, snapshot)` restores it. */
  snapshot(): AudienceSnapshot {
    return writeSnapshot(this.state());
  }

  /**
   * Another instance's copy, as it wrote it to the row, merged into this one (./audience-merge.ts):
   * what this instance's sockets should hear of what was new to it. A snapshot that does not
   * match is ignored.
   */
  merge(saved: unknown): { out: Outgoing[]; tick?: true } {
    const other = readSnapshot(saved);
    if (!other) return { out: [] };
    const before = new Map([...this.questions].map(([id, q]) => [id, { status: q.status, votes: q.votes, visible: visible(q) }]));
    const staff = (): string => JSON.stringify([this.qa, this.shownId, this.poll, this.reactionsShown]);
    const staffBefore = staff();
    const votesBefore = JSON.stringify([...this.votes]);
    this.install(mergeAudience(this.state(), other));
    const out: Outgoing[] = [];
    for (const q of this.questions.values()) {
      const was = before.get(q.id);
      if (!was || was.status !== q.status || was.votes !== q.votes) out.push(...this.questionChanged(q, was?.visible ?? false));
    }
    if (staff() !== staffBefore) {
      out.push(...both({ v: 1, type: "qa", ...this.qa }), ...both(this.shownMessage()), ...both({ v: 1, type: "reactionsShow", show: this.reactionsShown }));
      if (this.poll) out.push(...both({ v: 1, type: "poll", poll: this.poll }));
    }
    if (this.poll && (staff() !== staffBefore || JSON.stringify([...this.votes]) !== votesBefore)) this.dirtyResults = true;
    return this.dirtyResults ? { out, tick: true } : { out };
  }

  /** The presenter's settings, to tell whether a change changed them. */
  private staffKey(): string {
    return JSON.stringify([this.qa, this.shownId, this.poll, this.reactionsShown, [...this.questions.values()].reduce((n, q) => n + q.mods, 0)]);
  }

  private state(): AudienceState {
    return { qa: this.qa, questions: [...this.questions.values()], shownId: this.shownId, poll: this.poll, votes: this.votes, reactionsShown: this.reactionsShown, slides: this.slides, rev: this.rev };
  }

  private restore(saved: unknown): void {
    const state = readSnapshot(saved);
    if (state) this.install(state);
  }

  private install(state: AudienceState): void {
    this.qa = state.qa;
    this.questions.clear();
    this.upvoteCount = 0;
    for (const q of state.questions) {
      this.questions.set(q.id, q);
      this.upvoteCount += q.upvoters.size;
    }
    this.shownId = state.shownId;
    this.poll = state.poll;
    this.votes = state.votes;
    this.reactionsShown = state.reactionsShown;
    this.slides.clear();
    for (const [page, counts] of state.slides) this.slides.set(page, counts);
    this.rev = state.rev;
  }

  // ---- messages -----------------------------------------------------------------------------

  /** Staff always hear of a question; viewers when they can see it, or that it went if they could. */
  private questionChanged(question: Question, wasVisible: boolean): Outgoing[] {
    const message: LiveServerMessageT = { v: 1, type: "question", question: wire(question) };
    const out: Outgoing[] = [{ to: "staff", message }];
    if (visible(question)) out.push({ to: "viewers", message });
    else if (wasVisible) out.push({ to: "viewers", message: { v: 1, type: "questionGone", id: question.id } });
    if (this.shownId === question.id && !visible(question)) {
      this.shownId = null;
      out.push(...both(this.shownMessage()));
    }
    return out;
  }

  private shown(): LiveQuestionT | null {
    const question = this.shownId === null ? undefined : this.questions.get(this.shownId);
    return question ? wire(question) : null;
  }

  private shownMessage(): LiveServerMessageT {
    return { v: 1, type: "shown", question: this.shown() };
  }

  private resultsMessage(poll: LivePollT): { v: 1; type: "pollResults"; pollId: string; counts: number[]; voters: number } {
    const counts = poll.options.map(() => 0);
    for (const choices of this.votes.values()) for (const c of choices) counts[c] = (counts[c] ?? 0) + 1;
    return { v: 1, type: "pollResults", pollId: poll.id, counts, voters: this.votes.size };
  }

  private resultsOut(poll: LivePollT): Outgoing[] {
    const message = this.resultsMessage(poll);
    return poll.shown ? both(message) : [{ to: "staff", message }];
  }
}
