/**
 * @module client/live/talk/talk-projection
 * The audience window's part of a live talk's audience: the question the presenter
 * shows, over the slide until dismissed; a poll's results when the presenter shows them; and
 * reactions floating up, only while the presenter turned them on. It gets nothing but a
 * `ProjectedTalk` (./talk-model.ts) — text of one question and its name, one poll's options
 * and counts — so nothing else of the talk can reach the projector. All of it is text nodes.
 * Like the join card, it sits under a black or white screen (black means black).
 */
import type { LiveReactionCountsT } from "../../../../src/shared/live-audience-protocol.ts";
import { h } from "../../lib/dom.ts";
import { pollChart } from "./poll-chart-view.ts";
import { floatReactions } from "./reaction-floats.ts";
import { NOTHING_PROJECTED, sameProjection, type ProjectedTalk } from "./talk-model.ts";

export class TalkProjectionView {
  private talk: ProjectedTalk = NOTHING_PROJECTED;
  private question: HTMLElement | null = null;
  private poll: HTMLElement | null = null;
  private readonly floats: HTMLElement;

  constructor(
    private readonly host: HTMLElement,
    private readonly before: HTMLElement | null = null,
  ) {
    this.floats = h("div", { class: "reaction-floats", id: "talk-reactions", "aria-hidden": "true" });
    this.host.insertBefore(this.floats, this.before);
  }

  show(talk: ProjectedTalk): void {
    if (sameProjection(talk, this.talk)) return;
    const was = this.talk;
    this.talk = talk;
    if (JSON.stringify(was.question) !== JSON.stringify(talk.question)) {
      this.question?.remove();
      this.question = talk.question
        ? h("section", { class: "talk-question", id: "talk-question", "aria-label": "Question from the audience" },
            h("div", { class: "talk-question-box" }, h("p", { class: "talk-question-text" }, talk.question.text), talk.question.name ? h("p", { class: "talk-question-name" }, talk.question.name) : null),
          )
        : null;
      if (this.question) this.host.insertBefore(this.question, this.before);
    }
    if (JSON.stringify(was.poll) !== JSON.stringify(talk.poll)) {
      this.poll?.remove();
      const poll = talk.poll;
      this.poll = poll
        ? h("section", { class: "talk-poll", id: "talk-poll", "aria-label": "Poll results" },
            h("div", { class: "talk-poll-box" }, h("p", { class: "talk-poll-question" }, poll.question), pollChart(poll, { counts: poll.counts, voters: poll.voters }, { className: "poll-chart poll-chart-big" })),
          )
        : null;
      if (this.poll) this.host.insertBefore(this.poll, this.before);
    }
    if (!talk.reactions) this.floats.replaceChildren();
  }

  /** A tick of reactions: they float only while the presenter has them on the projector. */
  react(counts: LiveReactionCountsT): void {
    if (this.talk.reactions) floatReactions(this.floats, counts);
  }
}
