/**
 * @module client/live/talk-export
 * After the talk (issue 23, item 4): what the audience gave — questions (text, name, votes,
 * answered or not, when), every poll's results and the reactions per slide — as one record
 * kept with the deck (IndexedDB `talks`, deleted with the deck) and as CSV and JSON files.
 * Pure: the record grows from the audience state (`mergeTalk`, run when the record is written —
 * at most once a second — and before a message that replaces what the state knew,
 * `forgetsHistory`), and the files are made from the record.
 *
 * The audience's text is untrusted: its cells are defused against spreadsheet formulas and
 * quoted per RFC 4180 (../lib/csv.ts).
 */
import { LIVE_REACTIONS, type LiveReactionCountsT } from "../../../src/shared/live-audience-protocol.ts";
import type { LiveServerMessageT } from "../../../src/shared/live-protocol.ts";
import type { AudienceState } from "./audience-state.ts";
import { csvFile, csvRow as row } from "../lib/csv.ts";

export interface TalkQuestion {
  id: string;
  text: string;
  name: string;
  votes: number;
  answered: boolean;
  hidden: boolean;
  /** Epoch ms when asked. */
  at: number;
}

export interface TalkPoll {
  id: string;
  question: string;
  options: string[];
  multiple: boolean;
  counts: number[];
  voters: number;
  /** The slide whose poll sidecar opened it, if one did. */
  slide?: number;
}

export interface TalkRecord {
  /** `${deckId} ${code}` (a space never occurs in either). */
  key: string;
  deckId: string;
  code: string;
  startedAt: number;
  updatedAt: number;
  questions: TalkQuestion[];
  polls: TalkPoll[];
  reactions: { page: number; counts: LiveReactionCountsT }[];
}

export function emptyTalk(deckId: string, code: string, now: number): TalkRecord {
  return { key: `${deckId} ${code}`, deckId, code, startedAt: now, updatedAt: now, questions: [], polls: [], reactions: [] };
}

/**
 * The record with what the audience state knows now: questions by id (a hidden one stays in
 * the record, marked), the poll in view upserted by id (earlier polls stay), reactions per slide.
 */
export function mergeTalk(record: TalkRecord, audience: AudienceState, now: number): TalkRecord {
  const questions = new Map(record.questions.map((q) => [q.id, q]));
  for (const q of audience.questions.values()) {
    questions.set(q.id, { id: q.id, text: q.text, name: q.name ?? "", votes: q.votes, answered: q.status === "answered", hidden: q.status === "hidden", at: q.at });
  }
  const polls = [...record.polls];
  const poll = audience.poll;
  if (poll) {
    const results = audience.results?.pollId === poll.id ? audience.results : null;
    const at = polls.findIndex((p) => p.id === poll.id);
    const before = at >= 0 ? polls[at] : undefined;
    const entry: TalkPoll = {
      id: poll.id,
      question: poll.question,
      options: [...poll.options],
      multiple: poll.multiple,
      counts: results ? poll.options.map((_, i) => results.counts[i] ?? 0) : (before?.counts ?? poll.options.map(() => 0)),
      voters: results?.voters ?? before?.voters ?? 0,
      ...(poll.source ? { slide: poll.source.slide } : {}),
    };
    if (at >= 0) polls[at] = entry;
    else polls.push(entry);
  }
  const reactions = [...audience.slides].sort((a, b) => a[0] - b[0]).map(([page, counts]) => ({ page, counts: { ...counts } }));
  return { ...record, updatedAt: now, questions: [...questions.values()].sort((a, b) => a.at - b.at), polls, reactions: reactions.length ? reactions : record.reactions };
}

/**
 * Whether `message` replaces something of `audience` the record may not have yet: a hello
 * replaces the whole state (and carries at most 200 questions), a new poll replaces the last
 * one and its results. The record takes the state before such a message; other messages only
 * add to what the state knows, so the record can take them later, all at once (it is merged at
 * most once a second, not at every message: at 2,000 questions a merge sorts them all).
 */
export function forgetsHistory(audience: AudienceState, message: LiveServerMessageT): boolean {
  if (message.type === "hello") return audience.known;
  return message.type === "poll" && audience.poll !== null && audience.poll.id !== message.poll.id;
}

/**
 * The talk as one CSV file of three tables (questions, polls, reactions), each introduced by
 * its own header row and parted by a blank line; rows end in CRLF (RFC 4180).
 */
export function talkCsv(record: TalkRecord, labelOf: (page: number) => string = String): string {
  const lines: string[] = [];
  lines.push(row(["question", "name", "votes", "answered", "hidden", "asked_at"]));
  for (const q of record.questions) lines.push(row([q.text, q.name, q.votes, q.answered, q.hidden, new Date(q.at).toISOString()]));
  lines.push("");
  lines.push(row(["poll", "option", "votes", "voters", "multiple", "slide"]));
  for (const p of record.polls) p.options.forEach((option, i) => lines.push(row([p.question, option, p.counts[i] ?? 0, p.voters, p.multiple, p.slide ?? ""])));
  lines.push("");
  lines.push(row(["page", "slide", ...LIVE_REACTIONS, "total"]));
  for (const r of record.reactions) {
    const counts = LIVE_REACTIONS.map((e) => r.counts[e] ?? 0);
    lines.push(row([r.page, labelOf(r.page), ...counts, counts.reduce((a, b) => a + b, 0)]));
  }
  return csvFile(lines);
}

/** The talk as JSON: the record's fields, times as ISO strings. */
export function talkJson(record: TalkRecord): string {
  return JSON.stringify(
    {
      code: record.code,
      startedAt: new Date(record.startedAt).toISOString(),
      updatedAt: new Date(record.updatedAt).toISOString(),
      questions: record.questions.map((q) => ({ text: q.text, name: q.name || null, votes: q.votes, answered: q.answered, hidden: q.hidden, askedAt: new Date(q.at).toISOString() })),
      polls: record.polls.map((p) => ({ question: p.question, multiple: p.multiple, voters: p.voters, slide: p.slide ?? null, options: p.options.map((option, i) => ({ option, votes: p.counts[i] ?? 0 })) })),
      reactions: record.reactions.map((r) => ({ page: r.page, counts: r.counts })),
    },
    null,
    2,
  );
}
