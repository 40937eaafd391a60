/**
 * @module http/middleware/request-id
 * Every answer carries an `x-request-id`, the same id its log lines (and a problem document's
 * text) name, so a user's report points at one request in the log. `requestId` is the named
 * plugin that puts it on every answer, refusals of the other middleware included.
 */
import { Elysia } from "elysia";
import { randomBytes } from "../../tools/random.ts";

export const REQUEST_ID_HEADER = "x-request-id";
const requestIds = new WeakMap<Request, string>();

/** The id of `request`, drawn on first use (8 random bytes in hex). */
export function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    id = randomBytes(8).toString("hex");
    requestIds.set(request, id);
  }
  return id;
}

/** Every answer carries the request's id (the app's error handler sets it on problems too). */
export function requestId() {
  return new Elysia({ name: "request-id" }).onRequest(function setRequestId({ request, set }) {
    set.headers[REQUEST_ID_HEADER] = requestIdOf(request);
  });
}
