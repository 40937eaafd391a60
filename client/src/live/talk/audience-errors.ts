/**
 * @module client/live/talk/audience-errors
 * The server's refusals of a viewer's ask, up-vote, vote or reaction, and of a remote's show
 * and poll commands (codes in docs/api/errors.md and src/shared/live-protocol.ts), as
 * one short sentence shown next to the control that was used. The server's own `message` is for developers; this
 * says what happened and what to do, in the page's words.
 */
import { MAX_QUESTION_CHARS } from "../../../../src/shared/live-audience-protocol.ts";
import type { LiveErrorCodeT } from "../../../../src/shared/live-protocol.ts";

/** The control an audience message came from: where its refusal is shown. */
export type AudienceAction = "ask" | "upvote" | "vote" | "react" | "show" | "pollStart" | "pollClose";

export function audienceErrorText(code: LiveErrorCodeT, action: AudienceAction, poll?: { multiple: boolean }): string {
  switch (code) {
    case "QA_CLOSED":
      return action === "ask" ? "Questions are closed right now, so this one was not sent." : "Questions are closed right now: up-votes wait until they open again.";
    case "QUESTION_RATE":
      return "You sent several questions in a short time. Wait a minute, then send this one again.";
    case "QA_FULL":
      return action === "ask" ? "This talk cannot take more questions." : "This talk cannot take more up-votes.";
    case "BAD_TEXT":
      return action === "pollStart" ? "That poll's question or options are blank or too long." : `A question is 1 to ${MAX_QUESTION_CHARS} characters (and a name at most 40).`;
    case "NO_QUESTION":
      return action === "show" ? "That question can no longer be shown (hidden or waiting for approval)." : "That question is no longer there.";
    case "POLL_OPEN":
      return "A poll is open already: close it first.";
    case "ALREADY_VOTED":
      return action === "vote" ? "You voted in this poll already." : "You up-voted this question already.";
    case "ADDRESS_LIMIT":
      return "Your network has voted on this as often as one network may.";
    case "NO_POLL":
      return action === "vote" ? "This poll is closed: the vote was not counted." : "That poll is not open any more.";
    case "BAD_CHOICE":
      return poll?.multiple ? "Choose at least one option." : "Choose one option.";
    case "RATE_LIMITED":
      return "Too much at once. Wait a moment and try again.";
    case "NOT_ALLOWED":
      return action === "show" || action === "pollStart" || action === "pollClose" ? "A remote may not do that; the presenter can." : "This page may not do that.";
    default:
      return "That did not go through. Try again in a moment.";
  }
}
