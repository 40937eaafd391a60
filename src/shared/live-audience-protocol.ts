/**
 * @module shared/live-audience-protocol
 * The audience talks back: the messages of questions, polls and reactions on a live
 * talk, part of protocol v1 (./live-protocol.ts puts them in its unions, so the served
 * /schema/live-message.schema.json and the server's checker carry them). v1 grows compatibly:
 * new message types and optional fields only; an old client ignores types it does not know.
 *
 * Who may send what (the server enforces it, src/live/): viewers `ask`, `upvote`, `vote`,
 * `react`; the presenter `qa`, `moderate`, `pollShow`, `reactionsShow`; the presenter and the
 * remote (`control`) `show`, `pollStart`, `pollClose`.
 *
 * The schemas bound the wire (sizes, counts); the rules people count by — characters after
 * trimming and NFC, once per viewer, the open poll — are src/live/audience/model.ts's, each refusal an
 * `error` with a stable code.
 */
import { type Static, Type } from "@sinclair/typebox";
import { Obj, Page, V } from "./live-schema-kit.ts";

/** Characters (code points, after trimming, NFC and dropping control characters) of a question. */
export const MAX_QUESTION_CHARS = 280;
/** Characters of the optional display name that goes with a question. */
export const MAX_QUESTION_NAME_CHARS = 40;
export const MAX_POLL_QUESTION_CHARS = 200;
export const MAX_POLL_OPTION_CHARS = 100;
export const MIN_POLL_OPTIONS = 2;
export const MAX_POLL_OPTIONS = 6;
/** Taps of one reaction one `react` message may carry (the client batches taps). */
export const MAX_REACTION_BATCH = 20;
/** The fixed set viewers tap: anything else is not a reaction (the schema refuses it). */
export const LIVE_REACTIONS = ["👍", "👏", "❤️", "😂", "🎉", "❓"] as const;
export type LiveReactionT = (typeof LIVE_REACTIONS)[number];

/** Characters as people count them (code points): what every limit above counts, on every surface. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

// What a reader cannot see: white space, default-ignorable code points (zero-width spaces and
// joiners, the word joiner, the BOM, the soft hyphen, variation selectors, Hangul fillers, bidi
// marks and the other invisible format characters…), control characters, and U+2800 (the
// blank Braille pattern: a symbol, not ignorable, yet the usual "invisible" character).
// Unicode's own classes, not a hand list, so characters it adds are covered; not every format
// character (Cf) — the Arabic end of ayah and number signs show a glyph.
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\u2800]*$/u;

/**
 * Text that shows nothing — empty, or invisible characters only — is blank: refused as a
 * question or a poll's text, dropped as a name. One rule for the server and every form.
 */
export function isBlankText(text: string): boolean {
  return INVISIBLE_ONLY.test(text);
}

// The wire allows 4 UTF-16 units per counted character: an emoji is 2 units and the checker
// counts units, while the rule (audience.ts) counts what people see, after normalising.
const wire = (chars: number) => chars * 4;

/** A viewer's random per-browser id (kept in localStorage, so a reload keeps its votes). */
export const LiveViewerId = Type.String({ pattern: "^[A-Za-z0-9_-]{16,64}$", description: "Random per-browser id of a viewer; a reload keeps its votes, a new browser is a new viewer (no accounts, by design)" });
/** Ids the server gives questions and polls. */
const ItemId = Type.String({ pattern: "^[A-Za-z0-9_-]{1,32}$" });

/** A poll as a deck's `poll-slide-{N}.json` sidecar carries it and the presenter composes it. */
export const LivePollSpec = {
  question: Type.String({ minLength: 1, maxLength: wire(MAX_POLL_QUESTION_CHARS), description: `At most ${MAX_POLL_QUESTION_CHARS} characters` }),
  options: Type.Array(Type.String({ minLength: 1, maxLength: wire(MAX_POLL_OPTION_CHARS), description: `At most ${MAX_POLL_OPTION_CHARS} characters` }), { minItems: MIN_POLL_OPTIONS, maxItems: MAX_POLL_OPTIONS }),
  multiple: Type.Boolean({ description: "Viewers may choose more than one option" }),
};
const PollSource = Obj({ slide: Page }, { description: "The deck's poll sidecar for this slide opened it" });

export const LivePoll = Obj({
  id: ItemId,
  ...LivePollSpec,
  status: Type.Union([Type.Literal("open"), Type.Literal("closed")]),
  shown: Type.Boolean({ description: "Results are shown on the projector and to viewers" }),
  source: Type.Optional(PollSource),
});
export const LivePollResults = Obj({
  pollId: ItemId,
  counts: Type.Array(Type.Integer({ minimum: 0 }), { maxItems: MAX_POLL_OPTIONS, description: "Votes per option, in option order" }),
  voters: Type.Integer({ minimum: 0, description: "Viewers who voted" }),
});

export const LiveQuestion = Obj({
  id: ItemId,
  text: Type.String({ maxLength: wire(MAX_QUESTION_CHARS), description: "Plain text: every surface shows it as text, never HTML" }),
  name: Type.Optional(Type.String({ maxLength: wire(MAX_QUESTION_NAME_CHARS) })),
  votes: Type.Integer({ minimum: 0 }),
  at: Type.Number({ description: "Epoch ms when asked" }),
  status: Type.Union([Type.Literal("pending"), Type.Literal("open"), Type.Literal("answered"), Type.Literal("hidden")], {
    description: "Viewers only ever receive `open` and `answered`; `pending` waits for approval (moderated Q&A); `hidden` is gone for viewers",
  }),
});

const QaSettings = { open: Type.Boolean({ description: "Viewers may ask" }), moderated: Type.Boolean({ description: "New questions wait for the presenter's approval" }) };

const reactionCounts = (max: number, description: string) =>
  Obj(Object.fromEntries(LIVE_REACTIONS.map((emoji) => [emoji, Type.Optional(Type.Integer({ minimum: 1, maximum: max }))])), { minProperties: 1, description });
/** Taps per reaction in one viewer message. */
const ReactionBatch = reactionCounts(MAX_REACTION_BATCH, "Taps per reaction since the client's last message");
/** Sums the server sends (one message per tick, never one per tap). */
const ReactionSums = Obj(Object.fromEntries(LIVE_REACTIONS.map((emoji) => [emoji, Type.Optional(Type.Integer({ minimum: 0 }))])), { description: "Taps per reaction" });
const SlideReactions = Obj({ page: Page, counts: ReactionSums });

/** What `hello.audience` carries: the Q&A, poll and reactions as this socket may see them. */
export const LiveAudienceView = Obj(
  {
    qa: Obj(QaSettings),
    questions: Type.Array(LiveQuestion, {
      description: "Viewers: open and answered; presenter and remote: all (pending and hidden too). At most 200: held ones first, then the most up-voted, then the newest",
    }),
    shown: Type.Union([LiveQuestion, Type.Null()], { description: "The question over the slide" }),
    poll: Type.Union([LivePoll, Type.Null()], { description: "The open poll, or the last closed one" }),
    results: Type.Union([LivePollResults, Type.Null()], { description: "Viewers: only while the presenter shows them" }),
    reactionsShown: Type.Boolean({ description: "The projector and viewers show reactions" }),
    slides: Type.Optional(Type.Array(SlideReactions, { description: "Presenter and remote: reactions per slide so far" })),
    mine: Type.Optional(Obj({ upvoted: Type.Array(ItemId), voted: Type.Array(ItemId) }, { description: "Viewers: what this viewer id did already" })),
  },
  { description: "The audience's part of `hello`; absent from servers before it" },
);

// ---- client → server ------------------------------------------------------------------------

export const AskMessage = Obj(
  { v: V, type: Type.Literal("ask"), text: Type.String({ minLength: 1, maxLength: wire(MAX_QUESTION_CHARS) }), name: Type.Optional(Type.String({ maxLength: wire(MAX_QUESTION_NAME_CHARS) })) },
  { description: `Viewer: a question of at most ${MAX_QUESTION_CHARS} characters, with an optional display name` },
);
export const UpvoteMessage = Obj({ v: V, type: Type.Literal("upvote"), questionId: ItemId }, { description: "Viewer: once per question per viewer" });
export const VoteMessage = Obj(
  {
    v: V,
    type: Type.Literal("vote"),
    pollId: ItemId,
    choices: Type.Array(Type.Integer({ minimum: 0, maximum: MAX_POLL_OPTIONS - 1 }), { minItems: 1, maxItems: MAX_POLL_OPTIONS, uniqueItems: true, description: "0-based options; one for a single-choice poll" }),
  },
  { description: "Viewer: once per poll per viewer" },
);
export const ReactMessage = Obj({ v: V, type: Type.Literal("react"), counts: ReactionBatch }, { description: "Viewer: taps since the last message, on the shown slide" });
export const QaMessage = Obj({ v: V, type: Type.Literal("qa"), ...QaSettings }, { description: "Presenter → server: open or close Q&A, hold new questions for approval; server → everyone: the same" });
export const ModerateMessage = Obj(
  {
    v: V,
    type: Type.Literal("moderate"),
    questionId: ItemId,
    action: Type.Union([Type.Literal("answer"), Type.Literal("unanswer"), Type.Literal("hide"), Type.Literal("approve")]),
  },
  { description: "Presenter: mark answered (or not), hide for everyone, approve a held question" },
);
export const ShowMessage = Obj({ v: V, type: Type.Literal("show"), questionId: Type.Union([ItemId, Type.Null()]) }, { description: "Presenter or remote: show this question over the slide everywhere (null: dismiss)" });
export const PollStartMessage = Obj({ v: V, type: Type.Literal("pollStart"), ...LivePollSpec, source: Type.Optional(PollSource) }, { description: "Presenter or remote: open a poll (one at a time)" });
export const PollCloseMessage = Obj({ v: V, type: Type.Literal("pollClose"), pollId: ItemId }, { description: "Presenter or remote: close the open poll" });
export const PollShowMessage = Obj({ v: V, type: Type.Literal("pollShow"), pollId: Type.Union([ItemId, Type.Null()]) }, { description: "Presenter: show this poll's results on the projector and to viewers (null: hide them)" });
export const ReactionsShowMessage = Obj({ v: V, type: Type.Literal("reactionsShow"), show: Type.Boolean() }, { description: "Presenter → server: the projector and viewers show reactions too; server → everyone: the same" });

export const LiveAudienceClientMessages = [AskMessage, UpvoteMessage, VoteMessage, ReactMessage, QaMessage, ModerateMessage, ShowMessage, PollStartMessage, PollCloseMessage, PollShowMessage, ReactionsShowMessage] as const;

// ---- server → client ------------------------------------------------------------------------

export const QuestionMessage = Obj({ v: V, type: Type.Literal("question"), question: LiveQuestion }, { description: "A question was asked or changed (upsert by id)" });
export const QuestionGoneMessage = Obj({ v: V, type: Type.Literal("questionGone"), id: ItemId }, { description: "Viewers: a question was hidden; drop it" });
export const ShownMessage = Obj({ v: V, type: Type.Literal("shown"), question: Type.Union([LiveQuestion, Type.Null()]) }, { description: "The question over the slide (null: none)" });
export const PollMessage = Obj({ v: V, type: Type.Literal("poll"), poll: LivePoll }, { description: "A poll opened, closed or was shown" });
export const PollResultsMessage = Obj({ v: V, type: Type.Literal("pollResults"), ...LivePollResults.properties }, { description: "Presenter and remote always; viewers only while shown" });
export const ReactionsMessage = Obj({ v: V, type: Type.Literal("reactions"), page: Page, counts: ReactionSums }, { description: "Taps since the last tick on `page` (about 100 ms for the presenter and remotes, 500 ms for viewers)" });

export const LiveAudienceServerMessages = [QuestionMessage, QuestionGoneMessage, QaMessage, ShownMessage, PollMessage, PollResultsMessage, ReactionsMessage, ReactionsShowMessage] as const;

export type LiveQuestionT = Static<typeof LiveQuestion>;
export type LivePollT = Static<typeof LivePoll>;
export type LiveAudienceViewT = Static<typeof LiveAudienceView>;
export type LiveReactionCountsT = Partial<Record<LiveReactionT, number>>;
