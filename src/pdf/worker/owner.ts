/**
 * @module pdf/worker/owner
 * Whose PDF job this is: the address key (http/deps: an IPv4 address, an IPv6 /64) of the
 * request that caused it, carried to the PDF pool without threading a parameter through the
 * domain (handoff, live, MCP backends call `pdf.inspect`/`check` knowing nothing of HTTP).
 * The pool shares its workers by each owner's recent reading time and refuses owners that have
 * used their budget of it (pdf/worker/reader-budget). Work outside a request (the CLI) has no
 * owner: "local", never refused.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const owner = new AsyncLocalStorage<string>();

/** The owner every job without a request belongs to. */
export const LOCAL_OWNER = "local";

/** Run `work` with every PDF job it submits counted under `key`. */
export function asPdfOwner<T>(key: string, work: () => T): T {
  return owner.run(key, work);
}

/** The owner of a job submitted now. */
export function currentPdfOwner(): string {
  return owner.getStore() ?? LOCAL_OWNER;
}
