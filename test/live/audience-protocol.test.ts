/**
 * The audience's messages as data: v1 grows compatibly (an old join still passes,
 * new fields are optional), every new message is closed like the rest, the wire bounds hold,
 * and the served JSON Schema accepts and refuses the same messages as the server's checker.
 */
import { describe, expect, test } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import Ajv2020 from "ajv/dist/2020.js";
import { LiveClientMessage, LiveServerMessage } from "../../src/shared/live-protocol.ts";
import { SCHEMAS } from "../../src/binary/schemas.ts";

const client = TypeCompiler.Compile(LiveClientMessage);
const server = TypeCompiler.Compile(LiveServerMessage);
const validate = new Ajv2020({ strict: false }).compile(JSON.parse(SCHEMAS["live-message.schema.json"]!));
const viewerId = "v".repeat(16);
const question = { id: "q1", text: "Why?", votes: 2, at: 1, status: "open" };
const poll = { id: "p1", question: "Lunch?", options: ["Yes", "No"], multiple: false, status: "open", shown: false };

function both(check: { Check(value: unknown): boolean }, message: object) {
  return { message, checker: check.Check(message), schema: validate(message) };
}

describe("audience messages", () => {
  test("accepted by the checker and the served schema alike", () => {
    for (const message of [
      { v: 1, type: "join", role: "viewer" },
      { v: 1, type: "join", role: "viewer", viewerId },
      { v: 1, type: "ask", text: "What about 🎉?" },
      { v: 1, type: "ask", text: "Why?", name: "Ada" },
      { v: 1, type: "upvote", questionId: "q1" },
      { v: 1, type: "vote", pollId: "p1", choices: [0] },
      { v: 1, type: "vote", pollId: "p1", choices: [0, 5] },
      { v: 1, type: "react", counts: { "👍": 3, "❓": 1 } },
      { v: 1, type: "qa", open: true, moderated: false },
      { v: 1, type: "moderate", questionId: "q1", action: "hide" },
      { v: 1, type: "show", questionId: null },
      { v: 1, type: "pollStart", question: "Lunch?", options: ["Yes", "No"], multiple: false, source: { slide: 4 } },
      { v: 1, type: "pollClose", pollId: "p1" },
      { v: 1, type: "pollShow", pollId: null },
      { v: 1, type: "reactionsShow", show: true },
    ]) {
      expect(both(client, message)).toEqual({ message, checker: true, schema: true });
    }
    for (const message of [
      { v: 1, type: "question", question },
      { v: 1, type: "questionGone", id: "q1" },
      { v: 1, type: "shown", question: null },
      { v: 1, type: "poll", poll: { ...poll, source: { slide: 2 } } },
      { v: 1, type: "pollResults", pollId: "p1", counts: [2, 1], voters: 3 },
      { v: 1, type: "reactions", page: 3, counts: { "👏": 40 } },
      { v: 1, type: "error", code: "ALREADY_VOTED", message: "You voted in this poll already." },
    ]) {
      expect(both(server, message)).toEqual({ message, checker: true, schema: true });
    }
  });

  test("hello grows an optional audience view", () => {
    const hello = {
      v: 1,
      type: "hello",
      role: "viewer",
      session: { code: "ABC234", sha256: "a".repeat(64), bytes: 10, totalSlides: 2, filename: "t", allowDownload: false, expiresAt: "2026-11-23T10:00:00Z" },
      seq: 4,
      state: null,
      paused: false,
      counts: { viewers: 1, controls: 0, presenter: true },
      serverTime: 1,
    };
    const audience = { qa: { open: true, moderated: false }, questions: [question], shown: question, poll, results: null, reactionsShown: false, mine: { upvoted: ["q1"], voted: [] } };
    for (const message of [hello, { ...hello, audience }]) expect(both(server, message)).toEqual({ message, checker: true, schema: true });
    const junk = { ...hello, audience: { ...audience, secretList: [] } };
    expect(both(server, junk)).toEqual({ message: junk, checker: false, schema: false });
  });

  test("refused: unknown properties, reactions outside the set, bounds of polls, choices and ids", () => {
    for (const message of [
      { v: 1, type: "join", role: "viewer", viewerId: "short" },
      { v: 1, type: "join", role: "viewer", viewerId: "x".repeat(65) },
      { v: 1, type: "join", role: "viewer", viewerId: "<script>alert(1)</script>xxxx" },
      { v: 1, type: "ask", text: "" },
      { v: 1, type: "ask", text: "x".repeat(1121) },
      { v: 1, type: "ask", text: "Why?", html: "<b>" },
      { v: 1, type: "upvote", questionId: "../q" },
      { v: 1, type: "vote", pollId: "p1", choices: [] },
      { v: 1, type: "vote", pollId: "p1", choices: [6] },
      { v: 1, type: "vote", pollId: "p1", choices: [1, 1] },
      { v: 1, type: "react", counts: {} },
      { v: 1, type: "react", counts: { "💩": 1 } },
      { v: 1, type: "react", counts: { "👍": 21 } },
      { v: 1, type: "react", counts: { "👍": 0 } },
      { v: 1, type: "moderate", questionId: "q1", action: "delete" },
      { v: 1, type: "pollStart", question: "Lunch?", options: ["Yes"], multiple: false },
      { v: 1, type: "pollStart", question: "Lunch?", options: ["1", "2", "3", "4", "5", "6", "7"], multiple: false },
      { v: 1, type: "pollStart", question: "Lunch?", options: ["Yes", ""], multiple: false },
      { v: 1, type: "pollStart", question: "Lunch?", options: ["Yes", "No"] },
      { v: 1, type: "pollStart", question: "Lunch?", options: ["Yes", "No"], multiple: false, source: { slide: 0 } },
      { v: 1, type: "reactionsShow", show: "yes" },
    ]) {
      expect(both(client, message)).toEqual({ message, checker: false, schema: false });
    }
  });
});
