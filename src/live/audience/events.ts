/**
 * @module live/audience/events
 * What the audience model (./model.ts) decided, as one event per accepted change:
 * the instance that accepts a viewer's or the presenter's message checks it (roles, limits,
 * the open poll) and turns it into an event with every choice made — the id it gave a question
 * or a poll, the time, the viewer id and address it counted — then applies the event to its own
 * copy and publishes it on the talk's bus channel; every other instance serving the talk
 * applies the same event with the same reducer (`Audience.apply`). Ids are never drawn again by
 * a receiver, so all copies name things alike.
 *
 * The reducer is built so that the order events arrive in does not change the outcome where
 * two instances can race: a question is inserted once by id; an up-vote counts once per viewer
 * id; a vote counts once per viewer id per poll, and when the same viewer id's votes cross on
 * the bus (two tabs behind a load balancer, within the bus's few milliseconds) every copy keeps
 * the same one (`preferVote`); reaction sums add up. The presenter's changes (Q&A settings,
 * moderation, the shown question, the poll) come from the one presenter and apply in order.
 *
 * Small by construction, well under the bus's 7,900 bytes: the largest is a poll (200 + 6 × 100
 * characters, at most 6 bytes each as JSON) or a question (280 + 40 characters). Reactions go
 * as the sums of one tick, at most one event per instance per tick, never one per tap.
 */
import type { LivePollT, LiveQuestionT, LiveReactionCountsT } from "../../shared/live-audience-protocol.ts";

/** Who an accepted viewer change is counted for: the viewer id (dedupe) and the address key (per-address caps). */
interface Counted {
  viewerId: string;
  addressKey: string;
}

export type AudienceEvent =
  | ({ type: "ask"; question: LiveQuestionT } & Counted)
  | ({ type: "upvote"; questionId: string } & Counted)
  | ({ type: "vote"; pollId: string; choices: number[] } & Counted)
  /** Taps summed over one tick of the accepting instance, by slide. */
  | { type: "reactions"; slides: Array<[number, LiveReactionCountsT]> }
  | { type: "qa"; open: boolean; moderated: boolean }
  | { type: "moderate"; questionId: string; action: "answer" | "unanswer" | "hide" | "approve" }
  | { type: "show"; questionId: string | null }
  | { type: "pollStart"; poll: LivePollT }
  | { type: "pollClose"; pollId: string }
  | { type: "pollShow"; pollId: string | null }
  | { type: "reactionsShow"; show: boolean };

/** Events of the presenter and remotes: written to the row at once wherever they are applied. */
export const STAFF_EVENTS: ReadonlySet<AudienceEvent["type"]> = new Set(["qa", "moderate", "show", "pollStart", "pollClose", "pollShow", "reactionsShow"]);

/**
 * Of two votes by one viewer id in one poll, the one every copy keeps: the smaller choice list
 * (shorter first, then by option). Any fixed order would do; what matters is that it does not
 * depend on which vote arrived first.
 */
export function preferVote(a: readonly number[], b: readonly number[]): readonly number[] {
  if (a.length !== b.length) return a.length < b.length ? a : b;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? a : b;
  return a;
}
