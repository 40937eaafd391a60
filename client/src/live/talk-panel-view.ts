/**
 * @module client/live/talk-panel-view
 * The presenter's *Questions and polls* panel (issue 23), markup only — ./talk-back.ts owns the
 * behaviour: the Q&A switches (open, hold new questions for approval, open it whenever this
 * deck goes live, reactions on the projector), the questions newest or most voted first with
 * each one's buttons (approve, answered, show on the projector or dismiss, hide) — the section
 * built once, each row made once and patched (./question-window.ts draws them) —, the poll in
 * view with its live bar chart (close, show results on the projector) and the form to start a
 * new one, and the reactions counted on this slide. Every text of the audience goes in as text.
 */
import { LIVE_REACTIONS, MAX_POLL_OPTION_CHARS, MAX_POLL_OPTIONS, MAX_POLL_QUESTION_CHARS, MIN_POLL_OPTIONS, type LivePollT, type LiveReactionCountsT } from "../../../src/shared/live-audience-protocol.ts";
import { h } from "../lib/dom.ts";
import { pollChart } from "./poll-chart-view.ts";
import { reactionGlyph } from "./reaction-images.ts";
import type { QuestionOrder } from "./question-order.ts";
import type { QuestionButton, QuestionRow } from "./talk-model.ts";

export interface Switches {
  open: boolean;
  moderated: boolean;
  openByDefault: boolean;
  reactionsShown: boolean;
}

export interface TalkHandlers {
  qa(open: boolean, moderated: boolean): void;
  openByDefault(on: boolean): void;
  reactionsShown(on: boolean): void;
  order(order: QuestionOrder): void;
  question(id: string, button: QuestionButton): void;
  pollStart(draft: { question: string; options: string[]; multiple: boolean }): void;
  pollClose(id: string): void;
  pollShow(id: string | null): void;
  exportTalk(kind: "csv" | "json"): void;
}

const LABEL: Record<QuestionButton, string> = { approve: "Approve", answer: "Answered", unanswer: "Not answered", hide: "Hide", show: "Show on projector", dismiss: "Dismiss from projector" };

function checkbox(id: string, checked: boolean, label: string, onChange: (on: boolean) => void): HTMLElement {
  const input = h("input", { type: "checkbox", id, "data-focus": id }) as HTMLInputElement;
  input.checked = checked;
  input.addEventListener("change", () => onChange(input.checked));
  return h("label", { class: "setting" }, input, ` ${label}`);
}

export function switchesView(s: Switches, on: TalkHandlers): HTMLElement {
  return h("div", { class: "talk-switches" },
    checkbox("talk-qa-open", s.open, "Q&A open: viewers may ask", (open) => on.qa(open, s.moderated)),
    checkbox("talk-qa-moderated", s.moderated, "Hold new questions for my approval", (moderated) => on.qa(s.open, moderated)),
    checkbox("talk-qa-default", s.openByDefault, "Open Q&A whenever this deck goes live", (v) => on.openByDefault(v)),
    checkbox("talk-reactions-shown", s.reactionsShown, "Reactions on the projector", (v) => on.reactionsShown(v)),
  );
}

/** The Questions section, built once: its title (with the count), the order buttons, the list and the line for no questions. */
export interface QuestionsSection {
  section: HTMLElement;
  title: HTMLElement;
  list: HTMLElement;
  empty: HTMLElement;
  /** Mark the order in force. */
  setOrder(order: QuestionOrder): void;
}

export function questionsSection(on: TalkHandlers): QuestionsSection {
  const orderButton = (value: QuestionOrder, text: string) => h("button", { type: "button", class: "btn btn-small", id: `talk-order-${value}`, "aria-pressed": "false", onclick: () => on.order(value) }, text);
  const buttons = { votes: orderButton("votes", "Most voted"), newest: orderButton("newest", "Newest") };
  const title = h("h3", { id: "talk-questions-title" }, "Questions (0)");
  const list = h("ol", { class: "talk-questions", id: "talk-questions" });
  const empty = h("p", { class: "muted", id: "talk-questions-empty" }, "No questions yet.");
  const section = h("section", { class: "talk-section", "aria-labelledby": "talk-questions-title" },
    h("div", { class: "talk-section-head" }, title, h("div", { class: "talk-order", role: "group", "aria-label": "Order" }, buttons.votes, buttons.newest)),
    list,
    empty,
  );
  const setOrder = (order: QuestionOrder) => {
    for (const [value, button] of Object.entries(buttons)) if (button.getAttribute("aria-pressed") !== String(order === value)) button.setAttribute("aria-pressed", String(order === value));
  };
  return { section, title, list, empty, setOrder };
}

function rowMeta(row: QuestionRow): string {
  return [row.name || "Anonymous", `${row.votes} ${row.votes === 1 ? "vote" : "votes"}`, row.status === "pending" ? "waiting for approval" : row.status === "answered" ? "answered" : null, row.shown ? "on the projector" : null].filter(Boolean).join(" · ");
}

/** One question of the panel, with its buttons. */
export function questionRowView(row: QuestionRow, on: TalkHandlers): HTMLElement {
  return h("li", { class: `talk-question-row is-${row.status}${row.shown ? " is-shown" : ""}`, "data-id": row.id },
    h("p", { class: "talk-q-text" }, row.text),
    h("p", { class: "talk-q-meta" }, rowMeta(row)),
    h("div", { class: "actions talk-q-actions" },
      ...row.buttons.map((button) =>
        h("button", { type: "button", class: `btn btn-small${button === "show" ? " btn-primary" : ""}`, "data-button": button, "data-focus": `${row.id} ${button}`, onclick: () => on.question(row.id, button) }, LABEL[button]),
      ),
    ),
  );
}

/** A drawn row brought to `row`: a vote changes its line in place; anything else draws the row anew. */
export function patchQuestionRow(li: HTMLElement, row: QuestionRow, before: QuestionRow, on: TalkHandlers): HTMLElement | void {
  if (row.status !== before.status || row.shown !== before.shown || row.text !== before.text) return questionRowView(row, on);
  const meta = li.querySelector(".talk-q-meta");
  if (meta) meta.textContent = rowMeta(row);
}

export function pollView(poll: LivePollT | null, counts: readonly number[] | null, voters: number, on: TalkHandlers): HTMLElement | null {
  if (!poll) return null;
  const open = poll.status === "open";
  return h("section", { class: "talk-section talk-poll-panel", id: "talk-poll-panel", "aria-labelledby": "talk-poll-title" },
    h("h3", { id: "talk-poll-title" }, open ? "Poll (open)" : "Poll (closed)"),
    h("p", { class: "talk-poll-question" }, poll.question, poll.multiple ? " (several choices)" : ""),
    pollChart(poll, { counts: counts ?? [], voters }),
    h("div", { class: "actions" },
      open ? h("button", { type: "button", class: "btn btn-small", id: "talk-poll-close", "data-focus": "poll-close", onclick: () => on.pollClose(poll.id) }, "Close poll") : null,
      h("button", { type: "button", class: "btn btn-small", id: "talk-poll-show", "data-focus": "poll-show", "aria-pressed": String(poll.shown), onclick: () => on.pollShow(poll.shown ? null : poll.id) }, poll.shown ? "Hide results from projector" : "Show results on projector"),
    ),
  );
}

/** The form to start a poll; built once, so what is typed stays while results come in. */
export function pollForm(on: TalkHandlers, status: HTMLElement): HTMLFormElement {
  const question = h("input", { type: "text", id: "talk-poll-q", maxlength: MAX_POLL_QUESTION_CHARS, autocomplete: "off" }) as HTMLInputElement;
  const options = h("div", { class: "talk-poll-options" });
  const addOption = () => {
    const n = options.children.length + 1;
    options.append(h("input", { type: "text", class: "talk-poll-option", "aria-label": `Option ${n}`, placeholder: `Option ${n}`, maxlength: MAX_POLL_OPTION_CHARS, autocomplete: "off" }));
    add.disabled = options.children.length >= MAX_POLL_OPTIONS;
  };
  const add = h("button", { type: "button", class: "btn btn-small", id: "talk-poll-add", onclick: addOption }, "Add option") as HTMLButtonElement;
  for (let i = 0; i < MIN_POLL_OPTIONS; i++) addOption();
  const multiple = h("input", { type: "checkbox", id: "talk-poll-multiple" }) as HTMLInputElement;
  const form = h("form", { class: "talk-poll-form", id: "talk-poll-form", "aria-labelledby": "talk-poll-form-title" },
    h("h3", { id: "talk-poll-form-title" }, "New poll"),
    h("label", { for: "talk-poll-q" }, "Question"),
    question,
    options,
    h("div", { class: "actions" }, add, h("label", { class: "setting" }, multiple, " Several choices")),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "btn btn-primary btn-small", id: "talk-poll-start" }, "Start poll")),
    status,
  ) as HTMLFormElement;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    on.pollStart({ question: question.value, options: [...options.querySelectorAll("input")].map((i) => (i as HTMLInputElement).value), multiple: multiple.checked });
  });
  return form;
}

export function reactionsView(page: string, counts: LiveReactionCountsT | undefined, total: number): HTMLElement {
  const parts = LIVE_REACTIONS.filter((e) => counts?.[e]).flatMap((e, i) => [i ? "  " : null, h("span", { class: "talk-reaction" }, reactionGlyph(e), ` ${counts![e]}`)]);
  return h("p", { class: "talk-reactions", id: "talk-reactions-count" }, `Reactions on slide ${page}: `, ...(parts.length ? parts : ["none"]), ` · ${total} in the talk`);
}

export function exportView(on: TalkHandlers): HTMLElement {
  return h("div", { class: "actions talk-export" },
    h("button", { type: "button", class: "btn btn-small", id: "talk-export-csv", onclick: () => on.exportTalk("csv") }, "Export CSV"),
    h("button", { type: "button", class: "btn btn-small", id: "talk-export-json", onclick: () => on.exportTalk("json") }, "Export JSON"),
  );
}
