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

/**
 * The state after `message`, and whether the message was an audience one (so a page can
 * re-render only then). The input is not changed: a new state is returned when anything moved.
 */
export function reduceAudience(state: AudienceState, message: LiveServerMessageT): { state: AudienceState; changed: boolean } {
  const next = (patch: Partial<AudienceState>) => ({ state: { ...state, ...patch }, changed: true });
  switch (message.type) {
    case "hello":
      return message.audience ? { state: fromHello(message.audience), changed: true } : { state: emptyAudience(), changed: state.known };
    case "qa":
      return next({ qa: { open: message.open, moderated: message.moderated } });
    case "question": {
      const questions = new Map(state.questions);
      questions.set(message.question.id, message.question);
      const shown = state.shown?.id === message.question.id ? message.question : state.shown;
      return next({ questions, shown });
    }
    case "questionGone": {
      const questions = new Map(state.questions);
      questions.delete(message.id);
      return next({ questions, shown: state.shown?.id === message.id ? null : state.shown });
    }
    case "shown":
      return next({ shown: message.question });
    case "poll": {
      // A new poll's results start empty; the same poll keeps the ones it has.
      const results = state.results?.pollId === message.poll.id ? state.results : null;
      return next({ poll: message.poll, results });
    }
    case "pollResults":
      return next({ results: { pollId: message.pollId, counts: message.counts, voters: message.voters } });
    case "reactionsShow":
      return next({ reactionsShown: message.show });
    case "reactions": {
      const slides = new Map(state.slides);
      slides.set(message.page, addCounts(slides.get(message.page) ?? {}, message.counts as LiveReactionCountsT));
      return next({ slides });
    }
    default:
      return { state, changed: false };
  }
}

/** The questions to list: newest first, or most up-voted first (ties: newest first). */
export function sortedQuestions(state: AudienceState, order: "newest" | "votes"): LiveQuestionT[] {
  const list = [...state.questions.values()];
  return list.sort((a, b) => (order === "votes" ? b.votes - a.votes : 0) || b.at - a.at);
}

/** After this viewer's own up-vote or vote was sent: remember it (the server refuses a second one anyway). */
export function markMine(state: AudienceState, kind: "upvoted" | "voted", id: string): AudienceState {
  const set = new Set(state[kind]);
  set.add(id);
  return { ...state, [kind]: set };
}
