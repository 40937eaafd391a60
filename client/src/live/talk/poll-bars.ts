/**
 * @module client/live/talk/poll-bars
 * A poll's results as bars: count and share per option, in option order. The share
 * is of the viewers who voted, so in a multiple-choice poll the shares may add up to more than
 * 100 % (each says how many of the voters chose that option). Pure: the viewer page, the remote,
 * the presenter's panel and the projector all draw from it (./poll-chart-view.ts).
 */
import type { LivePollT } from "../../../../src/shared/live-audience-protocol.ts";

export interface PollBar {
  option: string;
  count: number;
  /** Whole percent of the voters, 0–100. */
  percent: number;
  /** The bar's length, 0–1, against the largest count (the leader fills the row). */
  fill: number;
}

export function pollBars(poll: Pick<LivePollT, "options">, results: { counts: readonly number[]; voters: number } | null): PollBar[] {
  const counts = poll.options.map((_, i) => Math.max(0, results?.counts[i] ?? 0));
  const voters = Math.max(results?.voters ?? 0, 0);
  const top = Math.max(0, ...counts);
  return poll.options.map((option, i) => {
    const count = counts[i] ?? 0;
    return { option, count, percent: voters > 0 ? Math.round((count / voters) * 100) : 0, fill: top > 0 ? count / top : 0 };
  });
}

/** One bar as a sentence (each row's accessible text). */
export function barText(bar: PollBar): string {
  return `${bar.option}: ${bar.count} ${bar.count === 1 ? "vote" : "votes"}, ${bar.percent}%`;
}

/** "N voter(s)". */
export const votersText = (voters: number) => `${voters} ${voters === 1 ? "voter" : "voters"}`;

/** The whole chart as one sentence (the figure's accessible name). */
export function chartText(question: string, bars: readonly PollBar[], voters: number): string {
  return `${question} — ${votersText(voters)}. ${bars.map((b) => `${b.option}: ${b.count} (${b.percent}%)`).join("; ")}.`;
}
