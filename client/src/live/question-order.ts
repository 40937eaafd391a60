/**
 * @module client/live/question-order
 * The order a list of questions is drawn in, kept steady under a crowd's votes, and the part of
 * it drawn at all — the same rules on the presenter's panel, the viewer page and the remote.
 *
 * "Most voted" sorts by the votes each question had at the last re-sort, not by the votes it
 * has now: the counts change in place at every update, and the rows move to their new places
 * at most once every REORDER_MS — at once when the person picks an order — and never while
 * the pointer is over the list (./question-window.ts holds the drawn order then).
 * A new question is placed by the votes it arrives with. Ties go to the newest, then to the
 * later arrival. "Newest" moves nothing but for arrivals.
 *
 * Only the first VISIBLE_ROWS rows are drawn; the rest are a count and a button that shows
 * VISIBLE_ROWS more.
 */
import type { LiveQuestionT } from "../../../src/shared/live-audience-protocol.ts";

/**
 * Rows drawn before "and K more": a few screens of the panel or a phone — more than anyone reads
 * while talking — and a bound on what one frame patches, whatever the crowd sends.
 */
export const VISIBLE_ROWS = 50;
/**
 * Shortest time between two re-sorts by votes: long enough to read a row and reach its button
 * before it moves, short enough that "most voted" is right within a few seconds.
 */
export const REORDER_MS = 3_000;

export type QuestionOrder = "newest" | "votes";

export class SteadyOrder {
  /** Votes per question at the last re-sort; null: re-sort at the next draw. */
  private frozen: Map<string, number> | null = null;
  private sortedAt = -Infinity;

  /** Re-sort at the next draw (the person picked an order, or the list starts anew). */
  reset(): void {
    this.frozen = null;
  }

  /**
   * What "most voted" counts for each question at `now`: the votes of the last re-sort, taken
   * anew when REORDER_MS have passed and the list is not `held`. `due` is how long until a
   * re-sort would change something (null: nothing waits).
   */
  votes(questions: Iterable<LiveQuestionT>, now: number, held: boolean): { votesOf: (q: LiveQuestionT) => number; due: number | null } {
    const list = [...questions];
    if (this.frozen === null || (!held && now - this.sortedAt >= REORDER_MS && list.some((q) => this.frozen!.get(q.id) !== undefined && this.frozen!.get(q.id) !== q.votes))) {
      this.frozen = new Map(list.map((q) => [q.id, q.votes]));
      this.sortedAt = now;
    }
    const frozen = this.frozen;
    // Questions that arrived since the re-sort join the frozen ones with the votes they came with.
    for (const q of list) if (!frozen.has(q.id)) frozen.set(q.id, q.votes);
    const stale = list.some((q) => frozen.get(q.id) !== q.votes);
    // Held: the release draws again, so nothing needs to wait for a timer.
    return { votesOf: (q) => frozen.get(q.id) ?? q.votes, due: stale && !held ? Math.max(0, this.sortedAt + REORDER_MS - now) : null };
  }
}

/** The first `limit` of `list` to draw, and how many are left out. */
export function windowed<T>(list: readonly T[], limit: number): { shown: T[]; more: number } {
  return { shown: list.slice(0, limit), more: Math.max(0, list.length - limit) };
}

/**
 * `list` in the order its keys were last drawn (`drawn`), new ones after them: while the
 * pointer is over the list, nothing moves from under it.
 */
export function holdOrder<T>(list: readonly T[], drawn: readonly string[], key: (item: T) => string): T[] {
  const at = new Map(drawn.map((id, i) => [id, i]));
  return list
    .map((item, i) => ({ item, rank: at.get(key(item)) ?? drawn.length + i }))
    .sort((a, b) => a.rank - b.rank)
    .map((x) => x.item);
}
