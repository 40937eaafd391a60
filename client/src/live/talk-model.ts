/**
 * @module client/live/talk-model
 * The presenter's side of the audience talking back (questions, polls, reactions), as pure
 * functions of the audience state (./audience-state.ts): the Questions panel's list and the
 * buttons each row offers, the top question `Shift+Q` shows, the poll chart's bars and their text, what a
 * poll the presenter typed may be, when a deck's poll sidecar opens, and the little the
 * projector may show (`ProjectedTalk`: a question's text and name, a shown poll's results,
 * whether reactions float there) — nothing else of the talk can reach the audience window.
 */
import {
  charCount,
  isBlankText,
  LIVE_REACTIONS,
  MAX_POLL_OPTION_CHARS,
  MAX_POLL_OPTIONS,
  MAX_POLL_QUESTION_CHARS,
  MIN_POLL_OPTIONS,
  type LiveQuestionT,
  type LiveReactionCountsT,
  type LiveReactionT,
} from "../../../src/shared/live-audience-protocol.ts";
import type { AudienceState } from "./audience-state.ts";
import { sortedQuestions } from "./audience-state.ts";
import type { QuestionOrder } from "./question-order.ts";

export type QuestionButton = "approve" | "answer" | "unanswer" | "hide" | "show" | "dismiss";

export interface QuestionRow {
  id: string;
  text: string;
  name: string;
  votes: number;
  at: number;
  status: LiveQuestionT["status"];
  /** It is over the slide on the projector now. */
  shown: boolean;
  buttons: QuestionButton[];
}

/**
 * The panel's questions: held ones first (they wait for the presenter), then in `order`
 * (`votesOf`: what "most voted" counts, ./question-order.ts); hidden ones are gone.
 */
export function panelQuestions(audience: AudienceState, order: QuestionOrder, votesOf?: (q: LiveQuestionT) => number): LiveQuestionT[] {
  const sorted = sortedQuestions(audience, order, votesOf).filter((q) => q.status !== "hidden");
  return [...sorted.filter((q) => q.status === "pending"), ...sorted.filter((q) => q.status !== "pending")];
}

/** One question as the panel shows it, with the buttons it offers. */
export function questionRow(audience: AudienceState, q: LiveQuestionT): QuestionRow {
  const shown = audience.shown?.id === q.id;
  const buttons: QuestionButton[] = [];
  if (q.status === "pending") buttons.push("approve");
  else {
    buttons.push(q.status === "answered" ? "unanswer" : "answer");
    buttons.push(shown ? "dismiss" : "show");
  }
  buttons.push("hide");
  return { id: q.id, text: q.text, name: q.name ?? "", votes: q.votes, at: q.at, status: q.status, shown, buttons };
}

/** Two rows that draw the same. */
export function sameRow(a: QuestionRow, b: QuestionRow): boolean {
  return a.votes === b.votes && a.status === b.status && a.shown === b.shown && a.text === b.text && a.name === b.name;
}

/** The most up-voted open question (ties: the newest), or null. */
export function topQuestion(audience: AudienceState): LiveQuestionT | null {
  return sortedQuestions(audience, "votes").find((q) => q.status === "open") ?? null;
}

/**
 * `Shift+Q`: the question id to send with `show` — null takes the shown one away, undefined
 * means nothing to do (no question is shown and none is open).
 */
export function toggleTopShown(audience: AudienceState): string | null | undefined {
  if (audience.shown) return null;
  return topQuestion(audience)?.id;
}

export interface PollDraft {
  question: string;
  options: readonly string[];
  multiple: boolean;
}


/**
 * A poll the presenter typed, ready for `pollStart`, or what to fix: blank options (nothing
 * visible: the server's rule, isBlankText) are dropped, the rest must be 2–6 distinct ones
 * within the protocol's lengths.
 */
export function checkPollDraft(draft: PollDraft): { ok: true; poll: PollDraft } | { ok: false; problem: string } {
  const question = draft.question.trim();
  const options = draft.options.map((o) => o.trim()).filter((o) => !isBlankText(o));
  if (isBlankText(question)) return { ok: false, problem: "Type the poll's question." };
  if (charCount(question) > MAX_POLL_QUESTION_CHARS) return { ok: false, problem: `The question is longer than ${MAX_POLL_QUESTION_CHARS} characters.` };
  if (options.length < MIN_POLL_OPTIONS) return { ok: false, problem: `Give at least ${MIN_POLL_OPTIONS} options.` };
  if (options.length > MAX_POLL_OPTIONS) return { ok: false, problem: `At most ${MAX_POLL_OPTIONS} options.` };
  if (options.some((o) => charCount(o) > MAX_POLL_OPTION_CHARS)) return { ok: false, problem: `An option is longer than ${MAX_POLL_OPTION_CHARS} characters.` };
  if (new Set(options).size !== options.length) return { ok: false, problem: "Two options are the same." };
  return { ok: true, poll: { question, options, multiple: draft.multiple } };
}

export interface SidecarPoll {
  slide: number;
  question: string;
  options: string[];
  multiple: boolean;
}

/**
 * The deck's poll for `page` to open now, or null: only on a live talk whose server knows the
 * audience, when no poll is open, and once per talk per slide (`opened` holds the slides whose
 * poll was opened already: a closed one is not reopened when the slide comes back).
 */
export function sidecarPollToOpen(page: number, polls: readonly SidecarPoll[] | undefined, opened: ReadonlySet<number>, audience: AudienceState, live: boolean): SidecarPoll | null {
  if (!live || !audience.known || opened.has(page)) return null;
  if (audience.poll?.status === "open") return null;
  // The server's last poll came from this slide (a reload lost `opened`): it was opened already.
  if (audience.poll?.source?.slide === page) return null;
  return polls?.find((p) => p.slide === page) ?? null;
}

/**
 * The slides whose deck poll was opened in this talk, with the one the server's poll came
 * from: a poll a remote opened, or one opened before a reload, is not opened again when a
 * later poll has taken its place and the slide comes back.
 */
export function withOpenedSource(opened: ReadonlySet<number>, audience: AudienceState): Set<number> {
  const slide = audience.poll?.source?.slide;
  return slide === undefined || opened.has(slide) ? new Set(opened) : new Set([...opened, slide]);
}

/** What the projector may show of the talk: nothing else ever goes to the audience window. */
export interface ProjectedTalk {
  question: { text: string; name?: string } | null;
  poll: { question: string; options: string[]; counts: number[]; voters: number; closed: boolean } | null;
  reactions: boolean;
}

export const NOTHING_PROJECTED: ProjectedTalk = { question: null, poll: null, reactions: false };

export function projectedTalk(audience: AudienceState): ProjectedTalk {
  const q = audience.shown;
  const poll = audience.poll;
  const results = poll && audience.results?.pollId === poll.id ? audience.results : null;
  return {
    question: q ? { text: q.text, ...(q.name ? { name: q.name } : {}) } : null,
    poll: poll?.shown ? { question: poll.question, options: [...poll.options], counts: poll.options.map((_, i) => results?.counts[i] ?? 0), voters: results?.voters ?? 0, closed: poll.status === "closed" } : null,
    reactions: audience.reactionsShown,
  };
}

export function sameProjection(a: ProjectedTalk, b: ProjectedTalk): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Taps on a slide, all reactions together. */
export function reactionTotal(counts: LiveReactionCountsT | undefined): number {
  return LIVE_REACTIONS.reduce((sum, emoji) => sum + (counts?.[emoji] ?? 0), 0);
}

/** One emoji per tap to float, at most `max` of a tick (a burst of hundreds would only blur). */
export function floatsOf(counts: LiveReactionCountsT, max: number): LiveReactionT[] {
  const out: LiveReactionT[] = [];
  for (const emoji of LIVE_REACTIONS) for (let i = 0; i < (counts[emoji] ?? 0) && out.length < max; i++) out.push(emoji);
  return out;
}
