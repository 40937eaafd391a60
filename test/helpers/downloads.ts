/**
 * @module test/helpers/downloads
 * Files a page offers to save, caught in the page and read back: the presenter's exports (the
 * deck with its ink, the slide times CSV) are blobs handed to a download link's click.
 */
import type { EnginePage } from "./engine.ts";

/**
 * What the page offers to save, caught in the page: the blob behind each blob: URL and the
 * name of the download link that is clicked (the link's own click is what would save it).
 * The page's CSP (connect-src 'self') rightly forbids fetching blob: URLs, so the blob is
 * kept as it is handed to URL.createObjectURL.
 */
export async function catchDownloads(page: EnginePage) {
  await page.evaluate(() => {
    const w = window as unknown as { __downloads: { name: string; blob: Blob }[]; __blobs: Map<string, Blob> };
    w.__downloads = [];
    w.__blobs = new Map();
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      const url = create(blob);
      if (blob instanceof Blob) w.__blobs.set(url, blob);
      return url;
    };
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      const blob = w.__blobs.get(this.href);
      if (blob) w.__downloads.push({ name: this.download, blob });
    };
  });
}

/** The `index`-th file the page offered, read back from its blob. */
export async function downloaded(page: EnginePage, index: number): Promise<{ name: string; bytes: Buffer }> {
  const got = await page.evaluate(async (i: number) => {
    const d = (window as unknown as { __downloads: { name: string; blob: Blob }[] }).__downloads[i]!;
    const bytes = new Uint8Array(await d.blob.arrayBuffer());
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    return { name: d.name, base64: btoa(bin) };
  }, index);
  return { name: got.name, bytes: Buffer.from(got.base64, "base64") };
}
