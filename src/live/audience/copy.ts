/**
 * @module live/audience/copy
 * One instance's copy of a live talk's audience: the questions and their up-voters,
 * the Q&A settings, the one poll and its votes, reactions per slide — and the one reducer,
 * `apply`, that carries out every accepted change (./events.ts), whether this
 * instance accepted it (./model.ts checks the rules first) or another instance serving the
 * talk did (the PostgreSQL bus). Also what a copy sends: each change's messages for `viewers`
 * or `staff` (presenter and remotes), the 100 ms `tick()` of coalesced up-votes, poll results
 * and reaction sums, each role's `hello`, the row's snapshot, and the merge of another
 * instance's copy (./merge.ts). Pure: no sockets, no timers.
 */
import type { LiveServerMessageT } from "../../shared/live-protocol.ts";
import { LIVE_REACTIONS, type LiveAudienceViewT, type LivePollT, type LiveQuestionT } from "../../shared/live-audience-protocol.ts";
import { RecentEvents } from "./text.ts";
import { type AudienceSnapshot, type AudienceState, readSnapshot, type Voted, writeSnapshot } from "./snapshot.ts";
import { type AudienceEvent, preferVote, STAFF_EVENTS } from "./events.ts";
import { mergeAudience } from "./merge.ts";

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

export interface Outgoing {
  to: "viewers" | "staff";
  message: LiveServerMessageT;
}

interface Question extends LiveQuestionT {
  upvoters: Set<string>;
  /** Moderations applied to it (./merge.ts). */
  mods: number;
}
export type Counts = Record<string, number>;

const both = (message: LiveServerMessageT): Outgoing[] => [
  { to: "staff", message },
  { to: "viewers", message },
];
export const visible = (q: LiveQuestionT) => q.status === "open" || q.status === "answered";
const wire = ({ upvoters: _, mods: __, ...q }: Question): LiveQuestionT => q;
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

export class AudienceCopy {
  protected readonly limits: typeof AUDIENCE_LIMITS;
  protected qa = { open: false, moderated: false };
  protected readonly questions = new Map<string, Question>();
  protected shownId: string | null = null;
  protected poll: LivePollT | null = null;
  protected votes: Voted = new Map();
  protected reactionsShown = false;
  protected readonly slides = new Map<number, Counts>();
  protected upvoteCount = 0;
  /** The presenter's changes applied to this copy (./merge.ts). */
  protected rev = 0;
  // Memory only (addresses are not written to the row): a restart forgets them.
  protected readonly voteAddresses = new Map<string, number>();
  protected readonly upvoteAddresses = new Map<string, number>();
  protected readonly byViewer: RecentEvents;
  protected readonly byAddress: RecentEvents;
  // What the next tick sends.
  protected readonly dirtyQuestions = new Set<string>();
  protected dirtyResults = false;
  protected readonly pending = new Map<number, Counts>();
  // Taps this instance took that the other instances have not been sent yet.
  protected readonly unpublished = new Map<number, Counts>();

  constructor(
    protected readonly deps: AudienceDeps,
    /** A snapshot from the row (parsed JSON): restored when it matches, ignored otherwise. */
    saved?: unknown,
  ) {
    this.limits = { ...AUDIENCE_LIMITS, ...deps.limits };
    this.byViewer = new RecentEvents(this.limits.questionsPerViewerPerMinute, 60_000);
    this.byAddress = new RecentEvents(this.limits.questionsPerAddressPerMinute, 60_000);
    if (saved !== undefined && saved !== null) this.restore(saved);
  }

  // ---- the reducer: this instance's accepted changes and the other instances' ---------------

  /**
   * Apply an accepted change (./events.ts), whichever instance accepted it: what this
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


  /** Taps into the slide's total (while the talk keeps fewer than its bound of slides) and into the next tick's sum. */
  protected addTaps(page: number, taps: Counts): void {
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
  /**
   * Messages built earlier and sent only now (a presenter's change waits for its row write)
   * may carry counts a tick has since overtaken: what they are about is marked for the next
   * tick, so the current counts follow them. True when a tick is needed.
   */
  refresh(sent: readonly Outgoing[]): boolean {
    let marked = false;
    for (const { message } of sent) {
      if (message.type === "question" && this.questions.has(message.question.id)) {
        this.dirtyQuestions.add(message.question.id);
        marked = true;
      } else if (message.type === "pollResults" && this.poll?.id === message.pollId) {
        this.dirtyResults = true;
        marked = true;
      }
    }
    return marked;
  }

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
   * Another instance's copy, as it wrote it to the row, merged into this one (./merge.ts):
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
