/**
 * @module client/live/audience-view
 * The audience's items as DOM (issue 23), for the viewer page and the remote: a question, the
 * question shown over the slide, a poll's ballot and its results as bars. Everything a viewer
 * typed (a question, a name) and everything the presenter typed (a poll and its options) goes in
 * as text through ../lib/dom.ts's `h` — never innerHTML — so `<img onerror>` stays characters.
 */
import type { LivePollT, LiveQuestionT } from "../../../src/shared/live-audience-protocol.ts";
import { h, replace } from "../lib/dom.ts";

type Child = Node | string | null | false;

export interface QuestionOptions {
  /** This viewer up-voted it already (the button stays pressed and disabled). */
  upvoted?: boolean;
  /** Up-votes are possible now (Q&A open); absent `onUpvote`: the count is shown, no button. */
  canUpvote?: boolean;
  onUpvote?: (id: string) => void;
  /** Extra buttons (the remote's Show on projector). */
  actions?: Child[];
}

function votesText(votes: number): string {
  return `${votes} ${votes === 1 ? "vote" : "votes"}`;
}

/** Who asked (or "Anonymous"), and whether it was answered. */
function byline(question: LiveQuestionT): HTMLElement {
  return h(
    "p",
    { class: "question-meta" },
    h("span", { class: "question-name" }, question.name || "Anonymous"),
    question.status === "answered" ? h("span", { class: "badge question-answered" }, "Answered") : null,
    question.status === "pending" ? h("span", { class: "badge question-held" }, "Waiting for approval") : null,
  );
}

/** A count of votes without a button (the remote's): "▲ 3", read as "3 votes". */
const votesCount = (votes: number) => [h("span", { "aria-hidden": "true" }, "▲ "), String(votes), h("span", { class: "visually-hidden" }, votes === 1 ? " vote" : " votes")];

const upvoteLabel = (question: LiveQuestionT, upvoted: boolean) => `${upvoted ? "Up-voted" : "Up-vote"} (${votesText(question.votes)})`;

export function questionItem(question: LiveQuestionT, options: QuestionOptions = {}): HTMLLIElement {
  const upvote = options.onUpvote
    ? h(
        "button",
        {
          type: "button",
          class: "btn btn-small upvote",
          "data-id": question.id,
          "data-focus": `${question.id} upvote`,
          "aria-pressed": String(Boolean(options.upvoted)),
          "aria-label": upvoteLabel(question, Boolean(options.upvoted)),
          disabled: Boolean(options.upvoted) || !options.canUpvote,
          onclick: () => options.onUpvote?.(question.id),
        },
        h("span", { "aria-hidden": "true" }, "▲"),
        h("span", { class: "upvote-count", "aria-hidden": "true" }, String(question.votes)),
      )
    : h("span", { class: "question-votes" }, ...votesCount(question.votes));
  return h(
    "li",
    { class: "question", "data-id": question.id, "data-status": question.status },
    upvote,
    h("div", { class: "question-body" }, h("p", { class: "question-text" }, question.text), byline(question), options.actions?.length ? h("div", { class: "question-actions" }, ...options.actions) : null),
  );
}

/**
 * A drawn item brought to `question` in place when only its votes (or this viewer's up-vote,
 * or whether up-votes are possible) changed — what a crowd changes many times a second; false
 * when more changed (its text, name or status) and the item must be made anew.
 */
export function patchQuestionItem(li: HTMLElement, question: LiveQuestionT, before: LiveQuestionT, options: QuestionOptions = {}): boolean {
  if (question.status !== before.status || question.text !== before.text || question.name !== before.name) return false;
  const button = li.querySelector<HTMLButtonElement>(".upvote");
  if (button) {
    const upvoted = Boolean(options.upvoted);
    button.setAttribute("aria-pressed", String(upvoted));
    button.setAttribute("aria-label", upvoteLabel(question, upvoted));
    button.disabled = upvoted || !options.canUpvote;
    const count = button.querySelector(".upvote-count");
    if (count) count.textContent = String(question.votes);
    return true;
  }
  const votes = li.querySelector(".question-votes");
  if (!votes) return false;
  replace(votes, ...votesCount(question.votes));
  return true;
}

/** The question the presenter shows over the slide. */
export function shownCard(question: LiveQuestionT): HTMLElement {
  return h("div", { class: "shown-card" }, h("p", { class: "shown-label" }, "Question"), h("p", { class: "shown-text" }, question.text), h("p", { class: "shown-meta" }, `${question.name || "Anonymous"} · ${votesText(question.votes)}`));
}

export interface BallotOptions {
  voted: boolean;
  /** The options this viewer chose (shown checked once voted), when this page knows them. */
  chosen?: readonly number[];
  onVote: (choices: number[]) => void;
}

/** The open poll's ballot: one radio per option (or a checkbox each, for a multiple-choice poll) and Vote; "Voted" once this viewer has. */
export function ballot(poll: LivePollT, options: BallotOptions): HTMLFormElement {
  const name = `poll-${poll.id}`;
  const type = poll.multiple ? "checkbox" : "radio";
  const choices = poll.options.map((option, i) =>
    h("label", { class: "poll-option" }, h("input", { type, name, value: String(i), disabled: options.voted, checked: options.chosen?.includes(i) ?? false }), h("span", {}, option)),
  );
  const form = h(
    "form",
    { class: "poll-ballot", "data-poll": poll.id },
    h("fieldset", { disabled: options.voted }, h("legend", { class: "poll-question" }, poll.question), poll.multiple ? h("p", { class: "poll-hint muted" }, "Choose one or more.") : null, ...choices),
    h(
      "div",
      { class: "poll-actions" },
      options.voted ? h("span", { class: "poll-voted" }, "Voted") : h("button", { type: "submit", class: "btn btn-small btn-primary poll-vote" }, "Vote"),
    ),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (options.voted) return;
    const picked = Array.from(form.querySelectorAll<HTMLInputElement>("input:checked")).map((input) => Number(input.value));
    options.onVote(picked);
  });
  return form;
}

