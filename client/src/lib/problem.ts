/**
 * @module client/lib/problem
 * The one way the browser client reads a refusal: the server's problem document
 * (src/shared/problem.ts) off a response, with the response's status always set — also when
 * the body is not JSON (a proxy's error page, a cut connection).
 */
import type { ProblemReply } from "../../../src/shared/problem.ts";

/** The problem document of a response, as read off the wire; `status` is always the response's. */
export async function readProblem(response: Response): Promise<ProblemReply & { status: number }> {
  try {
    return { ...((await response.json()) as ProblemReply), status: response.status };
  } catch {
    return { status: response.status };
  }
}
