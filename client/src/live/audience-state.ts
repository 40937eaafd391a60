/**
 * @module client/live/audience-state
 * What a live socket knows of the audience's part of a talk (issue 23): the Q&A settings, the
 * questions, the question over the slide, the poll and its results, reactions. One pure
 * reducer for every surface (the viewer page, the presenter, the remote): `hello.audience`
 * replaces the whole state (a reconnect takes the snapshot), each audience message updates it.
 * The server decides what each role may see; this only keeps what arrived.
 */
import type { LiveAudienceViewT, LivePollT, LiveQuestionT, LiveReactionCountsT } from "../../../src/shared/live-audience-protocol.ts";
import type { LiveServerMessageT } from "../../../src/shared/live-protocol.ts";

type Results = NonNullable<LiveAudienceViewT["results"]>;

export interface AudienceState {
  /** Whether the server has an audience at all (servers before issue 23 send no `hello.audience`). */
  known: boolean;
  qa: { open: boolean; moderated: boolean };
  /** By id, in arrival order; a hidden one is dropped for viewers (`questionGone`). */
  questions: Map<string, LiveQuestionT>;
  shown: LiveQuestionT | null;
  poll: LivePollT | null;
  results: Results | null;
  reactionsShown: boolean;
  /** Reactions per slide (page) so far: the presenter's and the remote's count per slide. */
  slides: Map<number, LiveReactionCountsT>;
  /** This viewer's own up-votes and votes (viewers only). */
  upvoted: Set<string>;
  voted: Set<string>;
}

export function emptyAudience(): AudienceState {
  return {
    known: false,
    qa: { open: false, moderated: false },
    questions: new Map(),
    shown: null,
    poll: null,
    results: null,
    reactionsShown: false,
    slides: new Map(),
    upvoted: new Set(),
    voted: new Set(),
  };
}

function fromHello(view: LiveAudienceViewT): AudienceState {
  const slides = new Map<number, LiveReactionCountsT>();
  for (const s of view.slides ?? []) slides.set(s.page, { ...(s.counts as LiveReactionCountsT) });
  return {
    known: true,
    qa: { ...view.qa },
    questions: new Map(view.questions.map((q) => [q.id, q])),
    shown: view.shown,
    poll: view.poll,
    results: view.results,
    reactionsShown: view.reactionsShown,
    slides,
    upvoted: new Set(view.mine?.upvoted ?? []),
    voted: new Set(view.mine?.voted ?? []),
  };
}

/** Add tick sums to a slide's running counts. */
export function addCounts(into: LiveReactionCountsT, counts: LiveReactionCountsT): LiveReactionCountsT {
  const sum: LiveReactionCountsT = { ...into };
  for (const [emoji, n] of Object.entries(counts) as [keyof LiveReactionCountsT, number | undefined][]) if (n) sum[emoji] = (sum[emoji] ?? 0) + n;
  return sum;
}

/** The server messages this reducer takes (a page queues these for its next frame and ignores the rest). */
const AUDIENCE_TYPES: ReadonlySet<string> = new Set(["hello", "qa", "question", "questionGone", "shown", "poll", "pollResults", "reactionsShow", "reactions"]);

export function isAudienceMessage(message: LiveServerMessageT): boolean {
  return AUDIENCE_TYPES.has(message.type);
}

/**
 * The state after `message`, and whether the message was an audience one (so a page can
 * re-render only then). The input is not changed: a new state is returned when anything moved.
 */
export function reduceAudience(state: AudienceState, message: LiveServerMessageT): { state: AudienceState; changed: boolean } {
  return reduceAudienceAll(state, [message]);
}

/**
 * A look at the state around the few messages a page acts on (a hello, a poll, a tick of
 * reactions): `before` gets the state just before such a message, `after` the state just
 * after it. Each state handed out stays as it is (a later message of the batch copies again).
 */
export interface AudienceVisit {
  picks(message: LiveServerMessageT): boolean;
  before?(state: AudienceState, message: LiveServerMessageT): void;
  after?(state: AudienceState, message: LiveServerMessageT): void;
}

/**
 * The state after `messages`, in order — a frame's worth at once. Pure like `reduceAudience`,
 * but a collection the messages change (the questions, the reactions per slide) is copied once
 * for the whole batch, not once per message: a frame that brings a hundred up-vote updates to a
 * talk of 2,000 questions copies the 2,000 once.
 */
export function reduceAudienceAll(state: AudienceState, messages: readonly LiveServerMessageT[], visit?: AudienceVisit): { state: AudienceState; changed: boolean } {
  let next = state;
  let changed = false;
  /** The collections of `next` this batch made (and may change in place). */
  let ownQuestions = false;
  let ownSlides = false;
  const questions = () => {
    if (!ownQuestions) next = { ...next, questions: new Map(next.questions) };
    ownQuestions = true;
    return next.questions;
  };
  const slides = () => {
    if (!ownSlides) next = { ...next, slides: new Map(next.slides) };
    ownSlides = true;
    return next.slides;
  };
  const patch = (fields: Partial<AudienceState>) => {
    next = { ...next, ...fields };
    changed = true;
  };
  for (const message of messages) {
    const visited = visit?.picks(message) ?? false;
    if (visited) {
      visit!.before?.(next, message);
      ownQuestions = ownSlides = false;
    }
    reduceOne(message);
    if (visited) {
      visit!.after?.(next, message);
      ownQuestions = ownSlides = false;
    }
  }
  return changed ? { state: next, changed } : { state, changed };

  function reduceOne(message: LiveServerMessageT): void {
    switch (message.type) {
      case "hello":
        if (!message.audience && !next.known) return;
        next = message.audience ? fromHello(message.audience) : emptyAudience();
        // Fresh collections: this batch owns them.
        ownQuestions = ownSlides = true;
        changed = true;
        break;
      case "qa":
        patch({ qa: { open: message.open, moderated: message.moderated } });
        break;
      case "question":
        questions().set(message.question.id, message.question);
        patch({ shown: next.shown?.id === message.question.id ? message.question : next.shown });
        break;
      case "questionGone":
        questions().delete(message.id);
        patch({ shown: next.shown?.id === message.id ? null : next.shown });
        break;
      case "shown":
        patch({ shown: message.question });
        break;
      case "poll":
        // A new poll's results start empty; the same poll keeps the ones it has.
        patch({ poll: message.poll, results: next.results?.pollId === message.poll.id ? next.results : null });
        break;
      case "pollResults":
        patch({ results: { pollId: message.pollId, counts: message.counts, voters: message.voters } });
        break;
      case "reactionsShow":
        patch({ reactionsShown: message.show });
        break;
      case "reactions": {
        const bySlide = slides();
        bySlide.set(message.page, addCounts(bySlide.get(message.page) ?? {}, message.counts as LiveReactionCountsT));
        changed = true;
        break;
      }
      default:
        break;
    }
  }
}

/**
 * The questions to list: newest first, or most up-voted first (ties: newest first; questions of
 * the same millisecond by arrival, the later first). `votesOf` is what "most up-voted" counts
 * (./question-order.ts passes the votes of the last re-sort, so rows do not jump at every vote).
 */
export function sortedQuestions(state: AudienceState, order: "newest" | "votes", votesOf: (q: LiveQuestionT) => number = (q) => q.votes): LiveQuestionT[] {
  const list = [...state.questions.values()].map((q, arrival) => ({ q, arrival, votes: order === "votes" ? votesOf(q) : 0 }));
  list.sort((a, b) => b.votes - a.votes || b.q.at - a.q.at || b.arrival - a.arrival);
  return list.map((x) => x.q);
}

/** After this viewer's own up-vote or vote was sent: remember it (the server refuses a second one anyway). */
export function markMine(state: AudienceState, kind: "upvoted" | "voted", id: string): AudienceState {
  const set = new Set(state[kind]);
  set.add(id);
  return { ...state, [kind]: set };
}
