/**
 * @module binary/version
 * The build version and commit. `scripts/compile.ts` injects DECKHAND_VERSION and
 * DECKHAND_COMMIT with `define`; from source the version is package.json's with "-dev" and
 * the commit "dev".
 */
import pkg from "../../package.json" with { type: "json" };

declare const DECKHAND_VERSION: string | undefined;
declare const DECKHAND_COMMIT: string | undefined;

export const VERSION: string = typeof DECKHAND_VERSION === "string" ? DECKHAND_VERSION : `${pkg.version}-dev`;
export const COMMIT: string = typeof DECKHAND_COMMIT === "string" ? DECKHAND_COMMIT : "dev";

/** What `deckhand --version` prints: the version, the commit, and the Bun runtime inside. */
export function versionLine(): string {
  return `deckhand ${VERSION} (commit ${COMMIT}, bun ${Bun.version}, ${process.platform}-${process.arch})`;
}
