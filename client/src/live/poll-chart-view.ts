/**
 * @module client/live/poll-chart-view
 * A poll's results as a bar chart in plain DOM — one row per option: its text, a bar as wide
 * as its share of the voters, the count and the percentage — with the whole chart said in one
 * sentence for screen readers. The presenter's panel and the projector draw the same chart.
 * Options are the audience's or the deck's text: they go in as text nodes only.
 */
import { h } from "../lib/dom.ts";
import { chartBars, chartText } from "./talk-model.ts";

export function pollChart(poll: { question: string; options: readonly string[] }, counts: readonly number[] | null | undefined, voters: number, className = "poll-chart"): HTMLElement {
  const bars = chartBars(poll, counts, voters);
  const figure = h("figure", { class: className, role: "img", "aria-label": chartText(poll.question, bars, voters) });
  for (const bar of bars) {
    const fill = h("span", { class: "poll-bar-fill" });
    fill.style.width = `${bar.percent}%`;
    figure.append(
      h("div", { class: "poll-bar", "aria-hidden": "true" },
        h("span", { class: "poll-bar-label" }, bar.label),
        h("span", { class: "poll-bar-track" }, fill),
        h("span", { class: "poll-bar-value" }, h("span", { class: "poll-bar-count" }, String(bar.count)), ` · ${bar.percent}%`),
      ),
    );
  }
  figure.append(h("figcaption", { class: "poll-voters", "aria-hidden": "true" }, `${voters} ${voters === 1 ? "voter" : "voters"}`));
  return figure;
}
