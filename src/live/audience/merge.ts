/**
 * @module live/audience/merge
 * Two copies of one talk's audience made one (several instances). An instance that
 * loads a talk reads the audience from the row, which lags the instances already serving the
 * talk by up to a second of viewers' changes (and by whatever they accept while it subscribes
 * to the talk's bus channel). So, once it listens, it asks (`query`); each instance holding the
 * talk writes its copy to the row and says so, and the new instance merges the row into its
 * copy (../bus-bridge.ts, ./relay.ts). From then on the bus brings it every change.
 *
 * The merge must lose nothing either copy holds, in whatever order the copies arrive:
 * - questions: the union by id; up-voters the union by viewer id; the status of the copy that
 *   applied more moderations of that question (`mods`: the presenter's moderations arrive in
 *   order, so the copy with more has seen the later ones);
 * - the presenter's settings — Q&A open/held, the shown question, the poll, reactions shown —
 *   from the copy that applied more of the presenter's changes (`rev`), the local copy on a tie;
 * - votes of the poll that wins: the union by viewer id (two votes of one id: `preferVote`);
 * - reactions per slide: the larger count of each (both count the same taps but for those of
 *   the moment of loading, which the larger count may miss: a lower bound, never a double).
 */
import type { AudienceState } from "./snapshot.ts";
import { preferVote } from "./events.ts";

export function mergeAudience(local: AudienceState, saved: AudienceState): AudienceState {
  const staff = saved.rev > local.rev ? saved : local;

  const questions = new Map(local.questions.map((q) => [q.id, { ...q, upvoters: new Set(q.upvoters) }]));
  for (const q of saved.questions) {
    const mine = questions.get(q.id);
    if (!mine) {
      questions.set(q.id, { ...q, upvoters: new Set(q.upvoters) });
      continue;
    }
    for (const id of q.upvoters) mine.upvoters.add(id);
    mine.votes = mine.upvoters.size;
    if (q.mods > mine.mods) {
      mine.status = q.status;
      mine.mods = q.mods;
    }
  }

  const votes = new Map<string, number[]>();
  for (const side of [local, saved]) {
    if (!staff.poll || side.poll?.id !== staff.poll.id) continue;
    for (const [viewerId, choices] of side.votes) {
      const before = votes.get(viewerId);
      votes.set(viewerId, before ? [...preferVote(before, choices)] : [...choices]);
    }
  }

  const slides = new Map<number, Record<string, number>>();
  for (const side of [local, saved]) {
    for (const [page, counts] of side.slides) {
      const merged = slides.get(page) ?? {};
      for (const [emoji, n] of Object.entries(counts)) merged[emoji] = Math.max(merged[emoji] ?? 0, n);
      slides.set(page, merged);
    }
  }

  return {
    qa: { ...staff.qa },
    questions: [...questions.values()],
    shownId: staff.shownId,
    poll: staff.poll,
    votes,
    reactionsShown: staff.reactionsShown,
    slides,
    rev: Math.max(local.rev, saved.rev),
  };
}
