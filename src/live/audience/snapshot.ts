/**
 * @module live/audience/snapshot
 * The audience's part of a live talk as the session's row keeps it, so Q&A and an
 * open poll survive a restart. Bounded by the model's limits (2,000 questions, 100,000
 * up-votes, one poll): viewer ids are written once each in a table and referred to by index,
 * which keeps 100,000 up-votes near 0.7 MB instead of 3 MB of repeated ids. Addresses are not
 * written (the row keeps no addresses): per-address caps start again after a restart.
 *
 * A saved snapshot is checked against its schema when read: a damaged or older one is dropped
 * (the talk goes on without its questions) rather than trusted.
 */
import { type Static, Type } from "@sinclair/typebox";
import { compiledOnFirstUse } from "../../tools/compiled-check.ts";
import { LIVE_REACTIONS, LivePoll, LiveQuestion, type LivePollT, type LiveQuestionT } from "../../shared/live-audience-protocol.ts";

/** Votes of the current poll by viewer id: the chosen options. */
export type Voted = Map<string, number[]>;

const Index = Type.Integer({ minimum: 0 });
const SavedSnapshot = Type.Object({
  v: Type.Literal(1),
  qa: Type.Object({ open: Type.Boolean(), moderated: Type.Boolean() }),
  viewers: Type.Array(Type.String({ maxLength: 64 })),
  questions: Type.Array(Type.Object({ question: LiveQuestion, upvoters: Type.Array(Index), mods: Type.Optional(Index) })),
  shownId: Type.Union([Type.String(), Type.Null()]),
  poll: Type.Union([LivePoll, Type.Null()]),
  votes: Type.Array(Type.Tuple([Index, Type.Array(Index)])),
  reactionsShown: Type.Boolean(),
  slides: Type.Array(Type.Tuple([Type.Integer({ minimum: 1 }), Type.Record(Type.String(), Type.Integer({ minimum: 0 }))])),
  /** The presenter's changes this copy has applied (./merge.ts); absent in rows written before. */
  rev: Type.Optional(Index),
});
export type AudienceSnapshot = Static<typeof SavedSnapshot>;
const checkSnapshot = compiledOnFirstUse(SavedSnapshot);

/**
 * The audience as the model holds it. `mods` (per question) and `rev` count the moderations
 * and the presenter's changes a copy has applied: of two copies, the one with more has seen
 * the later ones (./merge.ts).
 */
export interface AudienceState {
  qa: { open: boolean; moderated: boolean };
  questions: Array<LiveQuestionT & { upvoters: Set<string>; mods: number }>;
  shownId: string | null;
  poll: LivePollT | null;
  votes: Voted;
  reactionsShown: boolean;
  slides: Map<number, Record<string, number>>;
  rev: number;
}

export function writeSnapshot(live: AudienceState): AudienceSnapshot {
  const viewers: string[] = [];
  const index = new Map<string, number>();
  const ref = (id: string) => {
    let i = index.get(id);
    if (i === undefined) {
      i = viewers.push(id) - 1;
      index.set(id, i);
    }
    return i;
  };
  return {
    v: 1,
    qa: { ...live.qa },
    questions: live.questions.map(({ upvoters, mods, ...question }) => ({ question, upvoters: [...upvoters].map(ref), mods })),
    shownId: live.shownId,
    poll: live.poll,
    votes: [...live.votes].map(([id, choices]) => [ref(id), choices] as [number, number[]]),
    reactionsShown: live.reactionsShown,
    slides: [...live.slides].map(([page, counts]) => [page, { ...counts }] as [number, Record<string, number>]),
    viewers,
    rev: live.rev,
  };
}

/** The snapshot as the model holds it, or null when it does not match (damaged, older, forged). */
export function readSnapshot(saved: unknown): AudienceState | null {
  if (!checkSnapshot().Check(saved)) return null;
  const viewerAt = (i: number) => saved.viewers[i];
  if ([...saved.questions.flatMap((q) => q.upvoters), ...saved.votes.map(([i]) => i)].some((i) => viewerAt(i) === undefined)) return null;
  const poll = saved.poll;
  if (poll && saved.votes.some(([, choices]) => choices.some((c) => c >= poll.options.length))) return null;
  return {
    qa: saved.qa,
    // The count is the set's size: a saved count that disagrees is not believed.
    questions: saved.questions.map(({ question, upvoters, mods }) => {
      const ids = new Set(upvoters.map((i) => saved.viewers[i]!));
      return { ...question, votes: ids.size, upvoters: ids, mods: mods ?? 0 };
    }),
    shownId: saved.shownId,
    poll,
    votes: new Map(saved.votes.map(([i, choices]) => [saved.viewers[i]!, choices])),
    reactionsShown: saved.reactionsShown,
    slides: new Map(saved.slides.map(([page, counts]) => [page, Object.fromEntries(LIVE_REACTIONS.filter((e) => counts[e] !== undefined).map((e) => [e, counts[e]!]))])),
    rev: saved.rev ?? 0,
  };
}
