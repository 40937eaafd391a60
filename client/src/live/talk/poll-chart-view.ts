/**
 * @module client/live/talk/poll-chart-view
 * A poll's results as a bar chart in plain DOM, the one chart every surface draws — the
 * viewer's poll card, the remote, the presenter's panel and the projector: one row per option
 * with its text, a bar as long as its count against the leader's, the count and the share of
 * the voters, each row said as a sentence and the whole chart as one. Options are the
 * audience's or the deck's text: they go in as text nodes only. The fill is sized through the
 * CSSOM: the pages' CSP (style-src 'self') refuses style attributes.
 */
import type { LivePollT } from "../../../../src/shared/live-audience-protocol.ts";
import { h } from "../../lib/dom.ts";
import { barText, chartText, pollBars, votersText } from "./poll-bars.ts";

export interface PollChartOptions {
  /** The figure's classes ("poll-chart" and, on the projector, "poll-chart-big"). */
  className?: string;
  /** Put the poll's question above the bars (where nothing else on the surface says it). */
  caption?: boolean;
}

export function pollChart(poll: Pick<LivePollT, "question" | "options"> & { status?: LivePollT["status"] }, results: { counts: readonly number[]; voters: number } | null, options: PollChartOptions = {}): HTMLElement {
  const bars = pollBars(poll, results);
  const voters = Math.max(0, results?.voters ?? 0);
  return h(
    "figure",
    { class: options.className ?? "poll-chart", "aria-label": chartText(poll.question, bars, voters) },
    options.caption ? h("figcaption", { class: "poll-question" }, poll.question) : null,
    h(
      "ol",
      { class: "poll-bars" },
      ...bars.map((bar) => {
        const fill = h("span", { class: "poll-bar-fill" });
        fill.style.width = `${(bar.fill * 100).toFixed(1)}%`;
        return h(
          "li",
          { class: "poll-bar", "aria-label": barText(bar) },
          h("span", { class: "poll-bar-label", "aria-hidden": "true" }, bar.option),
          h("span", { class: "poll-bar-track", "aria-hidden": "true" }, fill),
          h("span", { class: "poll-bar-value", "aria-hidden": "true" }, h("span", { class: "poll-bar-count" }, String(bar.count)), ` · ${bar.percent}%`),
        );
      }),
    ),
    h("p", { class: "poll-voters" }, `${votersText(voters)}${poll.status === "closed" ? " · closed" : ""}`),
  );
}
