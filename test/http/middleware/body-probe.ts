/**
 * A request body that records whether anyone read it: the middleware tests prove a refusal is
 * decided before a byte of the body is pulled.
 */
export function probedBody(): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(new TextEncoder().encode("--x\r\n"));
      if (pulls > 100) controller.close();
    },
  }, { highWaterMark: 0 }); // nothing is pulled until someone reads
  return { body, pulled: () => pulls };
}
