/**
 * @module client/model/talk-record
 * What the audience gave in one talk, kept with the deck (IndexedDB `talks`, deleted with the
 * deck): questions, every poll's results, reactions per slide. The shape storage keeps and the
 * presenter's live side grows (../live/presenter/talk-export.ts merges the audience state into it and
 * writes it out as CSV and JSON), so it lives below both. Pure data.
 */
import type { LiveReactionCountsT } from "../../../src/shared/live-audience-protocol.ts";

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
