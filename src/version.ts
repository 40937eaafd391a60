/**
 * @module version
 * The build version. `scripts/build.ts` injects DECKHAND_VERSION with `define`; from source
 * it reads package.json's version.
 */
import pkg from "../package.json" with { type: "json" };

declare const DECKHAND_VERSION: string | undefined;

export const VERSION: string = typeof DECKHAND_VERSION === "string" ? DECKHAND_VERSION : `${pkg.version}-dev`;
