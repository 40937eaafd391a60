/**
 * Browser benchmark (DESIGN §7): for a 20 MB, 80-page deck claimed through a handoff link,
 * the time from the end of the download to the first slide painted, and the time of a step
 * to the next slide — both measured inside the page with performance.now() by the presenter
 * (window.__deckhand.metrics). Prints against the budget; asserts nothing.
 *
 *   bun run scripts/build.ts && bun run bench/client.ts
 */
import { launchBrowser } from "../test/helpers/browser.ts";
import { startBinary } from "../test/helpers/server.ts";
import { makeDeck } from "../test/fixtures/pdfs.ts";

/** DESIGN §7: first slide within 1 s of the download, a step within 50 ms. */
const BUDGET_FIRST_SLIDE_MS = 1000;
const BUDGET_STEP_MS = 50;
const PAGES = 80;
const BYTES = 20 * 1024 * 1024;
/** Pause between steps, like a presenter who talks a little on each slide. */
const STEP_PAUSE_MS = 250;
const RUNS = 3;

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const verdict = (value: number, budget: number) => (value <= budget ? "within budget" : "OVER budget");

const server = await startBinary();
const deck = await makeDeck({ pages: PAGES, title: "Benchmark deck", padToBytes: BYTES });
console.log(`deck: ${PAGES} pages, ${(deck.byteLength / 1024 / 1024).toFixed(1)} MB`);

const firsts: number[] = [];
const steps: number[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const form = new FormData();
    form.append("file", new File([deck], "bench.pdf", { type: "application/pdf" }));
    const handoff = (await (await fetch(`${server.url}/api/present`, { method: "POST", body: form })).json()) as { url: string };
    const browser = await launchBrowser({ viewport: { width: 1920, height: 1080 } });
    try {
      const page = browser.page;
      await page.goto(handoff.url);
      await page.waitForURL(/\/present\//, { timeout: 60_000 });
      await page.waitForSelector("body[data-ready='true']", { timeout: 60_000 });
      const first = await page.evaluate(() => (window as unknown as { __deckhand: { metrics: { firstSlideAfterDownloadMs?: number } } }).__deckhand.metrics.firstSlideAfterDownloadMs);
      if (typeof first === "number") firsts.push(first);
      const phases = await page.evaluate(() => (window as unknown as { __deckhand: { metrics: { phases?: Record<string, number> } } }).__deckhand.metrics.phases);
      console.log(`run ${run + 1}: first slide ${fmt(first ?? NaN)} after download; phases ${JSON.stringify(phases, (_k, v) => (typeof v === "number" ? Math.round(v) : v))}`);
      for (let i = 2; i <= 21; i++) {
        await page.waitForTimeout(STEP_PAUSE_MS);
        await page.keyboard.press("ArrowRight");
        await page.waitForSelector(`body[data-slide='${i}']`, { timeout: 10_000 });
      }
      await page.waitForTimeout(50);
      const measured = await page.evaluate(() => (window as unknown as { __deckhand: { metrics: { steps: number[] } } }).__deckhand.metrics.steps);
      steps.push(...measured);
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.stop();
  server.cleanup();
}

console.log("");
console.log(`first slide painted after download (n=${firsts.length}): median ${fmt(pct(firsts, 50))}, max ${fmt(Math.max(...firsts))} — budget ${BUDGET_FIRST_SLIDE_MS} ms: ${verdict(pct(firsts, 50), BUDGET_FIRST_SLIDE_MS)}`);
console.log(`next-slide step (n=${steps.length}): median ${fmt(pct(steps, 50))}, p95 ${fmt(pct(steps, 95))}, max ${fmt(Math.max(...steps))} — budget ${BUDGET_STEP_MS} ms: ${verdict(pct(steps, 95), BUDGET_STEP_MS)}`);
