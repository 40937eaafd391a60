/**
 * @module live/audience/model
 * The audience of one live talk talking back: questions and their up-votes,
 * moderation, the one poll and its votes, reactions per slide — the rules each viewer's and
 * presenter's call is checked by, on this instance's copy (./copy.ts holds the copy
 * and its reducer, the row's snapshot and the messages). Pure: no sockets, no timers,
 * the clock and the id source injected — the hub (./hub.ts) decides who may call what (roles),
 * sends what a call returns, and drains `tick()` every 100 ms on its scheduler.
 *
 * Every call answers either the messages it causes, each for `viewers` or `staff` (presenter
 * and remotes), or a refusal with a stable error code and nothing changed. A call checks the
 * rules and turns what it accepts into an event (./events.ts) that `apply` — the one
 * reducer — carries out: the hub publishes the event, and the other instances serving the talk
 * apply it to their copies the same way (the PostgreSQL bus). Up-votes, votes and
 * reactions are not sent per call: they mark the talk dirty and `tick()` sends one message per
 * changed question, one poll result and one reaction sum per slide, so 2,000 votes in two
 * seconds are 20 result messages, not 2,000 × every socket.
 *
 * Bounds: questions per talk, per viewer id and per address per minute, up-votes per talk;
 * one vote per poll per viewer id and per-address caps (the hub passes the seats one address
 * may hold), so a script on one machine cannot stuff a poll by inventing viewer ids.
 */
import type { LiveErrorCodeT } from "../../shared/live-protocol.ts";
import { charCount, isBlankText, LIVE_REACTIONS, type LivePollT, type LiveQuestionT, type LiveReactionCountsT, MAX_POLL_OPTION_CHARS, MAX_POLL_QUESTION_CHARS, MAX_QUESTION_CHARS, MAX_QUESTION_NAME_CHARS } from "../../shared/live-audience-protocol.ts";
import { cleanText } from "./text.ts";
import type { AudienceEvent } from "./events.ts";
import { AudienceCopy, type Counts, type Outgoing, visible } from "./copy.ts";

export type { Outgoing } from "./copy.ts";

/** Who is acting: the hub knows the socket's viewer id (or a per-socket stand-in) and address. */
export interface Actor {
  viewerId: string;
  addressKey: string;
  /** How many votes one address may cast per poll and per question (--max-viewers-per-address). */
  perAddress: number;
}

/**
 * What a call did: the messages for this instance's sockets, whether the next tick has more,
 * and the accepted change for the other instances (absent for reactions: they go per tick).
 */
export type AudienceResult = { ok: true; out: Outgoing[]; tick?: true; event?: AudienceEvent } | { ok: false; code: LiveErrorCodeT; message: string };

/** A poll as the presenter composes it or a deck's `poll-slide-{N}.json` sidecar carries it. */
export interface PollSpec {
  question: string;
  options: string[];
  multiple: boolean;
}

const refuse = (code: LiveErrorCodeT, message: string): AudienceResult => ({ ok: false, code, message });
const counted = (actor: Actor) => ({ viewerId: actor.viewerId, addressKey: actor.addressKey });

/** The rules: each call checks them on this copy and carries out what it accepts through `apply`. */
export class Audience extends AudienceCopy {
  // ---- viewers ------------------------------------------------------------------------------

  ask(actor: Actor, rawText: string, rawName?: string): AudienceResult {
    if (!this.qa.open) return refuse("QA_CLOSED", "Questions are closed for this talk.");
    const text = cleanText(rawText);
    // A name of invisible characters only is no name (it would show as an empty one).
    const typedName = cleanText(rawName ?? "");
    const name = isBlankText(typedName) ? "" : typedName;
    if (isBlankText(text) || charCount(text) > MAX_QUESTION_CHARS) return refuse("BAD_TEXT", `A question is 1 to ${MAX_QUESTION_CHARS} characters.`);
    if (charCount(name) > MAX_QUESTION_NAME_CHARS) return refuse("BAD_TEXT", `A name is at most ${MAX_QUESTION_NAME_CHARS} characters.`);
    if (this.questions.size >= this.limits.questions) return refuse("QA_FULL", `This talk holds ${this.limits.questions} questions, as many as one talk may.`);
    const now = this.deps.clock();
    if (!this.byViewer.allows(actor.viewerId, now) || !this.byAddress.allows(actor.addressKey, now)) {
      return refuse("QUESTION_RATE", "Too many questions in the last minute; wait a little.");
    }
    const question: LiveQuestionT = { id: this.deps.newId(), text, ...(name ? { name } : {}), votes: 0, at: now, status: this.qa.moderated ? "pending" : "open" };
    return this.accept({ type: "ask", question, ...counted(actor) });
  }

  upvote(actor: Actor, questionId: string): AudienceResult {
    const question = this.questions.get(questionId);
    if (!question || !visible(question)) return refuse("NO_QUESTION", "There is no such question.");
    if (!this.qa.open) return refuse("QA_CLOSED", "Questions are closed for this talk.");
    if (question.upvoters.has(actor.viewerId)) return refuse("ALREADY_VOTED", "You up-voted this question already.");
    if ((this.upvoteAddresses.get(`${questionId} ${actor.addressKey}`) ?? 0) >= actor.perAddress) return refuse("ADDRESS_LIMIT", "Your network address has up-voted this question as often as one address may.");
    if (this.upvoteCount >= this.limits.upvotes) return refuse("QA_FULL", "This talk holds as many up-votes as one talk may.");
    return this.accept({ type: "upvote", questionId, ...counted(actor) });
  }

  vote(actor: Actor, pollId: string, choices: number[]): AudienceResult {
    const poll = this.poll;
    if (!poll || poll.id !== pollId || poll.status !== "open") return refuse("NO_POLL", "This poll is not open.");
    const valid = choices.length >= 1 && (poll.multiple || choices.length === 1) && new Set(choices).size === choices.length && choices.every((c) => Number.isInteger(c) && c >= 0 && c < poll.options.length);
    if (!valid) return refuse("BAD_CHOICE", poll.multiple ? `Choose 1 to ${poll.options.length} different options.` : "Choose one option.");
    if (this.votes.has(actor.viewerId)) return refuse("ALREADY_VOTED", "You voted in this poll already.");
    if ((this.voteAddresses.get(actor.addressKey) ?? 0) >= actor.perAddress) return refuse("ADDRESS_LIMIT", "Your network address has voted in this poll as often as one address may.");
    return this.accept({ type: "vote", pollId, choices: [...choices], ...counted(actor) });
  }

  /**
   * Taps on `page` (the slide shown now); summed until the next tick. No event per call: the
   * taps of a tick go to the other instances as one sum (`takeReactions`).
   */
  react(page: number, counts: LiveReactionCountsT): AudienceResult {
    const taps: Counts = {};
    for (const emoji of LIVE_REACTIONS) {
      const n = counts[emoji];
      if (n && Number.isInteger(n) && n >= 1) taps[emoji] = n;
    }
    this.addTaps(page, taps);
    const unpublished = this.unpublished.get(page) ?? {};
    for (const [emoji, n] of Object.entries(taps)) unpublished[emoji] = (unpublished[emoji] ?? 0) + n;
    this.unpublished.set(page, unpublished);
    return { ok: true, out: [], tick: true };
  }

  // ---- presenter (and remotes, where the hub lets them) -------------------------------------

  setQa(open: boolean, moderated: boolean): AudienceResult {
    return this.accept({ type: "qa", open, moderated });
  }

  moderate(questionId: string, action: "answer" | "unanswer" | "hide" | "approve"): AudienceResult {
    if (!this.questions.has(questionId)) return refuse("NO_QUESTION", "There is no such question.");
    return this.accept({ type: "moderate", questionId, action });
  }

  show(questionId: string | null): AudienceResult {
    if (questionId !== null) {
      const question = this.questions.get(questionId);
      if (!question || !visible(question)) return refuse("NO_QUESTION", "Only a question viewers can see can be shown.");
    }
    return this.accept({ type: "show", questionId });
  }

  pollStart(spec: PollSpec, source?: { slide: number }): AudienceResult {
    if (this.poll?.status === "open") return refuse("POLL_OPEN", "A poll is open already; close it first.");
    const poll: LivePollT = { id: this.deps.newId(), question: cleanText(spec.question), options: spec.options.map(cleanText), multiple: spec.multiple, status: "open", shown: false, ...(source ? { source } : {}) };
    if (isBlankText(poll.question) || poll.options.some(isBlankText)) return refuse("BAD_TEXT", "A poll's question and options cannot be blank.");
    // The wire allows 4 UTF-16 units per character; the rule is what people count (and what keeps the poll's bus event small).
    if (charCount(poll.question) > MAX_POLL_QUESTION_CHARS || poll.options.some((o) => charCount(o) > MAX_POLL_OPTION_CHARS)) {
      return refuse("BAD_TEXT", `A poll's question is at most ${MAX_POLL_QUESTION_CHARS} characters and each option at most ${MAX_POLL_OPTION_CHARS}.`);
    }
    return this.accept({ type: "pollStart", poll });
  }

  pollClose(pollId: string): AudienceResult {
    if (!this.poll || this.poll.id !== pollId || this.poll.status !== "open") return refuse("NO_POLL", "This poll is not open.");
    return this.accept({ type: "pollClose", pollId });
  }

  pollShow(pollId: string | null): AudienceResult {
    if (!this.poll || (pollId !== null && this.poll.id !== pollId)) return refuse("NO_POLL", "There is no such poll.");
    return this.accept({ type: "pollShow", pollId });
  }

  setReactionsShown(show: boolean): AudienceResult {
    return this.accept({ type: "reactionsShow", show });
  }

  private accept(event: AudienceEvent): AudienceResult {
    const { out, tick } = this.apply(event);
    return { ok: true, out, ...(tick ? { tick } : {}), event };
  }
}
