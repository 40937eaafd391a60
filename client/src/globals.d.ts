// Constants that scripts/build-client.ts substitutes at bundle time (Bun.build `define`).
/** URL of the render worker bundle (content-hashed). */
declare const __DH_WORKER_URL__: string;
/** URL of the export worker bundle (content-hashed): it carries mediabunny, which no page loads. */
declare const __DH_EXPORT_WORKER_URL__: string;
/** URL of mupdf's ES module, served from /vendor. */
declare const __DH_MUPDF_URL__: string;
/** Hash of the whole client build; names the service worker's cache. */
declare const __DH_VERSION__: string;
/** Every URL the service worker precaches. */
declare const __DH_PRECACHE__: string[];
/** An SVG imported `with { type: "text" }` (the reaction images): its markup as a string. */
declare module "*.svg" {
  const text: string;
  export default text;
}
