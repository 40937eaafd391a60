/**
 * Live presenting across devices, end to end against the compiled binary: a
 * presenter (Chromium) claims a deck and goes live; a viewer in Chromium joins by the viewer
 * URL and a viewer in Firefox by typing the code into "Talk code" on the home page (a third, in
 * WebKit, joins by URL mid-talk, follows the video, rides through the restart and sees the end);
 * the first two follow slide changes, a black screen and the laser pointer, all three a
 * playing video; a phone-sized Chromium context with touch drives the talk from the remote
 * (all three follow); the server is killed with
 * SIGKILL mid-talk and restarted on the same port and data dir — everyone reconnects and
 * resyncs without a reload; a viewer leaves follow and comes back; "End live" shows the end
 * screen and leaves no deck file in the data dir. Screenshots go to test-output/live/.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { seriousViolations } from "../helpers/axe.ts";
import { withChromiumPage } from "../helpers/browser.ts";
import { presentPdf } from "../helpers/e2e-suite.ts";
import { launchEngine, type Engine, type EnginePage } from "../helpers/engine.ts";
import { BINARY, startBinary, type BinaryServer, type StartOptions } from "../helpers/server.ts";
import { openPresenter, waitReady } from "../helpers/stage.ts";
import { makePresentationDeck, OUTPUT, recordClip } from "./fixtures.ts";

// The timeout of each test and hook here: 120 s, as in every end-to-end suite (browsers and the binary; longer steps set their own).
setDefaultTimeout(120_000);

/** Browser steps wait on real rendering, media, networking and a server restart. */
const STEP_MS = 120_000;
const it = (name: string, fn: () => Promise<void>) => test(name, fn, STEP_MS);
const shots = join(OUTPUT, "live");

let server: BinaryServer;
let serverOptions: StartOptions;
let presenterEngine: Engine;
let chromiumViewer: Engine;
let firefoxViewer: Engine;
let webkitViewer: Engine;
let phone: Engine;
let presenter: EnginePage;
let viewerA: EnginePage;
let viewerB: EnginePage;
/** A third viewer in WebKit: joins, survives the restart and sees the end (CSP and WebSocket there too). */
let viewerC: EnginePage;
let remote: EnginePage;
let code = "";
let viewerUrl = "";
let controlUrl = "";
let presenterUrl = "";

const shot = (page: EnginePage, file: string) => page.screenshot(join(shots, `${file}.png`));
const viewers = () => [viewerA, viewerB];
const allViewers = () => [viewerA, viewerB, viewerC];

async function expectNoSeriousA11y(page: EnginePage, where: string) {
  const violations = await seriousViolations(page);
  expect({ where, violations }).toEqual({ where, violations: [] });
}

/** Every file under the data dir that holds PDF bytes. */
function pdfFilesIn(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (statSync(full).size >= 5 && readFileSync(full).subarray(0, 5).toString("latin1") === "%PDF-") out.push(full);
    }
  };
  walk(dir);
  return out;
}

async function viewerAt(page: EnginePage, slide: number) {
  await page.waitFor(`viewer on slide ${slide}`, (p: number) => document.body.dataset.slide === String(p) && document.querySelector("#frame")?.getAttribute("data-state") === "painted" && document.body.dataset.screen === "live", [slide], 30_000);
}

async function presenterGo(chord: string, slide: number) {
  await presenter.press(chord);
  await presenter.waitFor(`presenter on ${slide}`, (p: number) => document.body.dataset.slide === String(p), [slide]);
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  const deck = await makePresentationDeck(await withChromiumPage("about:blank", recordClip));
  serverOptions = {};
  server = await startBinary(serverOptions);
  serverOptions = { port: server.port, dataDir: server.dataDir };
  const handoff = await presentPdf(server.url, deck, "Live talk.pdf");
  presenterEngine = await launchEngine("chromium", { viewport: { width: 1440, height: 900 } });
  presenter = presenterEngine.page;
  await openPresenter(presenter, handoff.url);
  presenterUrl = await presenter.href();
}, STEP_MS);

afterAll(async () => {
  for (const engine of [presenterEngine, chromiumViewer, firefoxViewer, webkitViewer, phone]) await engine?.close().catch(() => {});
  if (server?.proc.exitCode === null) await server.stop();
  server?.cleanup();
});

describe("live presenting", () => {
  it("the presenter goes live with the button: the panel shows the code, both links with QR codes and the counts", async () => {
    expect(await presenter.evaluate(() => document.querySelector("#btn-live")?.textContent)).toBe("Go live");
    await presenter.click("#btn-live");
    await presenter.waitFor("the live session", () => document.body.dataset.live === "open" && !!document.querySelector("#live-code")?.textContent, [], 30_000);
    const panel = await presenter.evaluate(() => ({
      code: document.querySelector("#live-code")!.textContent!,
      viewer: (document.querySelector("#live-viewer-url") as HTMLAnchorElement).href,
      control: (document.querySelector("#live-control-url") as HTMLAnchorElement).href,
      qrs: Array.from(document.querySelectorAll<HTMLImageElement>("img.live-qr")).map((img) => ({ alt: img.alt, svg: img.src.startsWith("data:image/svg+xml"), w: img.naturalWidth })),
      buttons: Array.from(document.querySelectorAll("#live-panel button, #live-panel input")).map((b) => (b as HTMLElement).id || b.textContent),
      allow: (document.querySelector("#live-allow-download") as HTMLInputElement).checked,
      counts: document.querySelector("#live-counts")!.textContent,
    }));
    expect(panel.code).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
    code = panel.code;
    viewerUrl = panel.viewer;
    controlUrl = panel.control;
    expect(viewerUrl).toBe(`${server.url}/live/${code}`);
    expect(controlUrl).toMatch(new RegExp(`^${server.url}/live/${code}/control#.{16,}$`));
    expect(panel.qrs).toEqual([
      { alt: "QR code of the viewer link", svg: true, w: expect.any(Number) },
      { alt: "QR code of the remote link", svg: true, w: expect.any(Number) },
    ]);
    expect(panel.qrs.every((q) => q.w > 0)).toBe(true);
    expect(panel.allow).toBe(false);
    expect(panel.counts).toBe("0 viewers · 0 remotes");
    expect(await presenter.evaluate(() => document.querySelector("#btn-live")?.textContent)).toBe(`Live · ${code}`);
    // The secret is kept with the deck, never in the address bar.
    expect(await presenter.href()).not.toContain("secret");
    await expectNoSeriousA11y(presenter, "presenter with the live panel");
  });

  it("a Chromium viewer joins by URL and a Firefox viewer by typing the code in lower case into “Talk code”", async () => {
    // Counts change while the speaker may be on a panel control: the focus must stay there.
    await presenter.evaluate(() => (document.querySelector("#live-rotate") as HTMLElement).focus());
    chromiumViewer = await launchEngine("chromium", { viewport: { width: 1280, height: 760 } });
    viewerA = chromiumViewer.page;
    await viewerA.goto(viewerUrl);
    firefoxViewer = await launchEngine("firefox", { viewport: { width: 1280, height: 760 } });
    viewerB = firefoxViewer.page;
    await viewerB.goto(`${server.url}/`);
    await viewerB.waitFor("the Talk code field", () => !!document.querySelector("#join-code"));
    const label = await viewerB.evaluate(() => (document.querySelector("#join-code") as HTMLInputElement).labels?.[0]?.textContent);
    expect(label).toBe("Talk code");
    await expectNoSeriousA11y(viewerB, "home page with Join a talk");
    await shot(viewerB, "00-home-join-a-talk");
    await viewerB.click("#join-code");
    for (const ch of ` ${code.toLowerCase()} `) await viewerB.press(ch === " " ? "Space" : ch);
    await viewerB.press("Enter");
    await viewerB.waitFor("the viewer page", () => location.pathname.startsWith("/live/"));
    expect(await viewerB.href()).toBe(`${server.url}/live/${code}`);
    for (const v of viewers()) await viewerAt(v, 1);
    await presenter.waitFor("two viewers counted", () => document.body.dataset.liveViewers === "2", [], 15_000);
    expect(await presenter.evaluate(() => document.querySelector("#live-counts")?.textContent)).toBe("2 viewers · 0 remotes");
    expect(await presenter.evaluate(() => document.activeElement?.id)).toBe("live-rotate");
    await presenter.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // The deck came once over the network and is kept in IndexedDB.
    for (const v of viewers()) expect(await v.evaluate(() => document.body.dataset.deckSource)).toBe("network");
    // The slide area carries no deckhand text: only the bar under it does.
    for (const v of viewers()) expect(await v.evaluate(() => (document.querySelector("#main") as HTMLElement).innerText.trim())).toBe("");
    await expectNoSeriousA11y(viewerA, "viewer");
    await shot(presenter, "01-presenter-live-panel");
    await shot(viewerA, "02-viewer-chromium-slide-1");
    await shot(viewerB, "02-viewer-firefox-slide-1");
  });

  it("viewers follow slide changes, a black screen and the laser pointer", async () => {
    await presenterGo("ArrowRight", 2);
    for (const v of viewers()) await viewerAt(v, 2);
    await presenter.press("b");
    for (const v of viewers()) await v.waitFor("black screen", () => document.body.dataset.blank === "black" && !document.querySelector("#blank-cover")!.hasAttribute("hidden"));
    await presenter.press("b");
    for (const v of viewers()) await v.waitFor("black screen gone", () => document.body.dataset.blank === "none" && document.querySelector("#blank-cover")!.hasAttribute("hidden"));
    await presenter.press("l");
    await presenter.waitFor("pointer mode", () => document.body.dataset.mode === "pointer");
    const box = await presenter.evaluate(() => {
      const r = document.querySelector("#current-frame")!.getBoundingClientRect();
      return { x: r.x, y: r.y, w: r.width, h: r.height };
    });
    await presenter.mouse([{ type: "move", x: box.x + box.w * 0.3, y: box.y + box.h * 0.4 }, { type: "move", x: box.x + box.w * 0.5, y: box.y + box.h * 0.5 }]);
    // The dot shows at the same place on the slide: the middle of each viewer's slide (the
    // first, passing position may show first; the poll waits for the last one).
    for (const v of viewers()) {
      await v.waitFor("the laser in the middle of the viewer's slide", () => {
        const laser = document.querySelector(".laser")!;
        if (document.body.dataset.mode !== "pointer" || laser.hasAttribute("hidden")) return false;
        const frame = document.querySelector("#frame")!.getBoundingClientRect();
        const dot = laser.getBoundingClientRect();
        const x = (dot.x + dot.width / 2 - frame.x) / frame.width;
        const y = (dot.y + dot.height / 2 - frame.y) / frame.height;
        return Math.abs(x - 0.5) < 0.03 && Math.abs(y - 0.5) < 0.03;
      });
    }
    await shot(viewerA, "03-viewer-pointer");
    await presenter.press("Escape");
    await presenter.waitFor("normal mode", () => document.body.dataset.mode === "normal");
    for (const v of viewers()) await v.waitFor("the laser gone", () => document.querySelector(".laser")!.hasAttribute("hidden"));
  });

  it("viewers follow the pen's ink (and its clearing), a zoom and a freeze", async () => {
    // The open live panel sits over the current slide's pane (the timer and notes stay in
    // view): it is put away to draw on the whole slide, and opened again at the end.
    await presenter.click("#live-hide");
    await presenter.waitFor("the panel put away", () => (document.querySelector("#live-panel") as HTMLElement).hidden === true);
    const box = await presenter.evaluate(() => {
      const r = document.querySelector("#current-frame")!.getBoundingClientRect();
      return { x: r.x, y: r.y, w: r.width, h: r.height };
    });
    const at = (fx: number, fy: number) => ({ x: box.x + box.w * fx, y: box.y + box.h * fy });
    await presenter.press("i");
    await presenter.waitFor("pen mode", () => document.body.dataset.mode === "pen");
    const a = at(0.2, 0.7);
    const b = at(0.6, 0.75);
    await presenter.mouse([{ type: "move", ...a }, { type: "down" }, { type: "move", x: (a.x + b.x) / 2, y: a.y + 10 }, { type: "move", ...b }, { type: "up" }]);
    for (const v of viewers()) await v.waitFor("one stroke on the viewer", () => document.body.dataset.ink === "1");
    await shot(viewerA, "03b-viewer-ink");
    await presenter.press("c");
    for (const v of viewers()) await v.waitFor("the ink cleared on the viewer", () => document.body.dataset.ink === "0");
    await presenter.press("Escape");
    await presenter.waitFor("normal mode", () => document.body.dataset.mode === "normal");

    await presenter.press("z");
    await presenter.waitFor("choosing a zoom region", () => document.body.dataset.zoomSelect === "true");
    const z1 = at(0.1, 0.1);
    const z2 = at(0.5, 0.5);
    await presenter.mouse([{ type: "move", ...z1 }, { type: "down" }, { type: "move", x: (z1.x + z2.x) / 2, y: (z1.y + z2.y) / 2 }, { type: "move", ...z2 }, { type: "up" }]);
    await presenter.waitFor("the presenter zoomed", () => (document.querySelector("#current-frame")?.getAttribute("data-zoom") ?? "") !== "");
    // The drag's own click does not step the talk (it did, on any slide but the last).
    expect(await presenter.evaluate(() => document.body.dataset.slide)).toBe("2");
    for (const v of viewers()) await v.waitFor("the viewer zoomed", () => document.querySelector("#frame")?.getAttribute("data-zoomed") === "true" && (document.querySelector("#frame")?.getAttribute("data-zoom") ?? "") !== "");
    await presenter.press("Escape");
    for (const v of viewers()) await v.waitFor("the viewer zoomed out", () => document.querySelector("#frame")?.getAttribute("data-zoomed") === "false");

    await presenter.press("f");
    for (const v of viewers()) await v.waitFor("the viewer frozen", () => document.body.dataset.frozen === "true");
    await presenterGo("ArrowRight", 3);
    for (const v of viewers()) {
      await v.waitFor("still frozen on slide 2", () => document.body.dataset.frozen === "true");
      expect(await v.evaluate(() => document.body.dataset.slide)).toBe("2");
    }
    await presenterGo("ArrowLeft", 2);
    await presenter.press("f");
    for (const v of viewers()) await v.waitFor("unfrozen", () => document.body.dataset.frozen === "false");
    for (const v of viewers()) await viewerAt(v, 2);
    await presenter.click("#btn-live");
    await presenter.waitFor("the panel open again", () => !(document.querySelector("#live-panel") as HTMLElement).hidden);
    await presenter.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  });

  it("a third viewer, in WebKit, joins by URL mid-talk and opens at the presenter's slide", async () => {
    webkitViewer = await launchEngine("webkit", { viewport: { width: 1024, height: 640 } });
    viewerC = webkitViewer.page;
    await viewerC.goto(viewerUrl);
    await viewerAt(viewerC, 2);
    await presenter.waitFor("three viewers counted", () => document.body.dataset.liveViewers === "3", [], 15_000);
    expect(await viewerC.evaluate(() => document.body.dataset.deckSource)).toBe("network");
    await shot(viewerC, "02-viewer-webkit-slide-2");
  });

  it("viewers play the video of slide 3 along with the presenter", async () => {
    await presenterGo("ArrowRight", 3);
    await presenter.waitFor("the presenter's video playing", () => {
      const v = document.querySelector<HTMLVideoElement>("#media-layer video");
      return !!v && !v.paused && v.currentTime > 0;
    }, [], 30_000);
    for (const v of allViewers()) {
      await viewerAt(v, 3);
      await v.waitFor("the viewer's video playing and moving", () => {
        const el = document.querySelector<HTMLVideoElement>("#media-layer video");
        return !!el && !el.paused && el.currentTime > 0.2;
      }, [], 30_000);
    }
    await shot(viewerB, "04-viewer-firefox-video");
    await shot(viewerC, "04-viewer-webkit-video");
    // The presenter pauses and seeks: viewers' copies pause at that position; play resumes them.
    await presenter.evaluate(() => {
      const v = document.querySelector<HTMLVideoElement>("#media-layer video")!;
      v.pause();
      v.currentTime = 1;
    });
    for (const v of allViewers()) {
      await v.waitFor("the viewer's video paused at 1 s", () => {
        const el = document.querySelector<HTMLVideoElement>("#media-layer video");
        return !!el && el.paused && Math.abs(el.currentTime - 1) < 0.25;
      }, [], 20_000);
    }
    await presenter.evaluate(() => void document.querySelector<HTMLVideoElement>("#media-layer video")!.play());
    for (const v of allViewers()) await v.waitFor("the viewer's video playing again", () => !document.querySelector<HTMLVideoElement>("#media-layer video")!.paused, [], 20_000);
  });

  it("a phone-sized remote (touch) shows the slides and notes and drives the talk with buttons and swipes", async () => {
    phone = await launchEngine("chromium", { viewport: { width: 390, height: 844 } });
    remote = phone.page;
    await remote.goto(controlUrl);
    await remote.waitFor("the remote connected", () => document.body.dataset.screen === "live" && document.body.dataset.slide === "3", [], 45_000);
    await presenter.waitFor("one remote counted", () => document.body.dataset.liveControls === "1", [], 15_000);
    await remote.waitFor("notes and slides", () => document.querySelector("#current-frame")?.getAttribute("data-state") === "painted" && document.querySelector("#next-frame")?.getAttribute("data-state") === "painted");
    expect(await remote.evaluate(() => document.querySelector("#counter")?.textContent)).toBe("Slide 3 / 5");
    // The presenter's timer runs since the first slide change; the remote shows it.
    await remote.waitFor("the presenter's elapsed timer", () => document.querySelector("#remote-timer")?.getAttribute("aria-label") === "Elapsed" && /^\d+:\d\d$/.test(document.querySelector("#remote-timer")?.textContent ?? ""));
    // Pausing the timer reaches the remote at once (not only with the next slide change).
    await presenter.press("t");
    await remote.waitFor("the timer paused on the remote", () => document.body.dataset.timer === "paused");
    await presenter.press("t");
    await remote.waitFor("the timer running again on the remote", () => document.body.dataset.timer === "running");
    await expectNoSeriousA11y(remote, "phone remote");
    await shot(remote, "05-phone-remote");
    await remote.click("#remote-next");
    await presenter.waitFor("the presenter on slide 4 from the remote", () => document.body.dataset.slide === "4");
    for (const v of allViewers()) await viewerAt(v, 4);
    await remote.waitFor("the remote on slide 4", () => document.body.dataset.slide === "4");
    expect(await remote.evaluate(() => document.querySelector("#notes")?.textContent)).toContain("Ask for questions");
    // A swipe to the right is "previous".
    await remote.swipe(".remote-slides", 200);
    await presenter.waitFor("the presenter back on slide 3 from a swipe", () => document.body.dataset.slide === "3");
    await remote.click("#remote-next");
    await presenter.waitFor("slide 4 again", () => document.body.dataset.slide === "4");
    for (const v of allViewers()) await viewerAt(v, 4);
    // Black screen from the phone, and back.
    await remote.click("#remote-blank");
    for (const v of allViewers()) await v.waitFor("black from the remote", () => document.body.dataset.blank === "black");
    await remote.waitFor("the remote shows it pressed", () => document.querySelector("#remote-blank")?.getAttribute("aria-pressed") === "true");
    await remote.click("#remote-blank");
    for (const v of allViewers()) await v.waitFor("back from black", () => document.body.dataset.blank === "none");
  });

  it("“Allow viewers to save the PDF” shows and hides their Save PDF button", async () => {
    for (const v of viewers()) expect(await v.evaluate(() => (document.querySelector("#save") as HTMLElement).hidden)).toBe(true);
    await presenter.click("#live-allow-download");
    for (const v of viewers()) await v.waitFor("Save PDF offered", () => !(document.querySelector("#save") as HTMLElement).hidden);
    await presenter.click("#live-allow-download");
    for (const v of viewers()) await v.waitFor("Save PDF withdrawn", () => (document.querySelector("#save") as HTMLElement).hidden === true);
  });

  it("a second presenter window of the deck takes the session over; the first says so and stops", async () => {
    const second = await presenterEngine.newPage();
    await second.goto(presenterUrl);
    await second.waitFor("the second window live", () => document.body.dataset.live === "open", [], 30_000);
    await presenter.waitFor("the first window told", () => document.body.dataset.live === "stopped", [], 20_000);
    expect(await presenter.evaluate(() => document.querySelector("#live-status")?.textContent)).toBe("Another presenter window took over this live session. Reload to take it back.");
    // The second window drives now.
    await second.press("ArrowRight");
    for (const v of viewers()) await viewerAt(v, 5);
    await second.press("ArrowLeft");
    for (const v of viewers()) await viewerAt(v, 4);
    await second.close();
  });

  it("the presenter window goes away: viewers see “paused”; it comes back (a reload) and picks up the session from its storage", async () => {
    await presenter.goto("about:blank");
    for (const v of viewers()) await v.waitFor("the paused screen", () => document.body.dataset.screen === "paused", [], 20_000);
    expect(await viewerA.evaluate(() => document.querySelector("#screen-title")?.textContent)).toBe("Paused");
    await shot(viewerA, "05b-viewer-paused");
    // The deck is here: a viewer may look through it while the presenter is away.
    await viewerB.click("#browse");
    await viewerB.waitFor("browsing while paused", () => document.body.dataset.screen === "live" && document.body.dataset.following === "false");
    await viewerB.click("#back-live");
    await viewerB.waitFor("back to the paused talk", () => document.body.dataset.screen === "paused");
    await presenter.goto(presenterUrl);
    await presenter.waitFor("the presenter live again", () => document.body.dataset.ready === "true" && document.body.dataset.live === "open", [], 30_000);
    expect(await presenter.evaluate(() => document.querySelector("#btn-live")?.textContent)).toBe(`Live · ${code}`);
    // The button now opens the panel of the running session (it does not go live twice).
    await presenter.click("#btn-live");
    await presenter.waitFor("the panel with the counts", () => !(document.querySelector("#live-panel") as HTMLElement).hidden && document.querySelector("#live-counts")?.textContent === "3 viewers · 1 remote");
    expect(await presenter.evaluate(() => document.querySelector("#live-code")?.textContent)).toBe(code);
    for (const v of viewers()) await viewerAt(v, 4);
    await presenterGo("ArrowRight", 5);
    for (const v of viewers()) await viewerAt(v, 5);
    await presenterGo("ArrowLeft", 4);
    for (const v of viewers()) await viewerAt(v, 4);
  });

  it("kill -9 of the server mid-talk and a restart on the same port and data dir: everyone reconnects and resyncs without a reload", async () => {
    for (const page of [presenter, viewerA, viewerB, viewerC, remote]) await page.evaluate(() => void ((window as unknown as { __noReload: number }).__noReload = 1));
    await server.kill9();
    for (const v of allViewers()) await v.waitFor("the viewer noticed", () => document.body.dataset.socket !== "open", [], 20_000);
    // The restart also caps viewers at the three connected, to show the "full" screen below.
    // Every browser here is 127.0.0.1: one address may hold all three seats (by default half).
    server = await startBinary({ ...serverOptions, args: ["--max-viewers", "3", "--max-viewers-per-address", "3"] });
    await presenter.waitFor("the presenter reconnected", () => document.body.dataset.live === "open", [], 30_000);
    for (const page of [viewerA, viewerB, viewerC, remote]) await page.waitFor("reconnected", () => document.body.dataset.socket === "open", [], 30_000);
    for (const v of viewers()) await viewerAt(v, 4);
    // The talk goes on from the remote, and everyone follows — with no page reloaded.
    await remote.click("#remote-next");
    await presenter.waitFor("slide 5 after the restart", () => document.body.dataset.slide === "5", [], 15_000);
    for (const v of allViewers()) await viewerAt(v, 5);
    for (const page of [presenter, viewerA, viewerB, viewerC, remote]) expect(await page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload)).toBe(1);
    // The reconnect did not download the deck again.
    for (const v of viewers()) expect(await v.evaluate(() => document.body.dataset.deckSource)).toBe("network");
  });

  it("a fourth viewer over --max-viewers gets the “full” screen", async () => {
    const third = await chromiumViewer.newPage();
    await third.goto(viewerUrl);
    await third.waitFor("the full screen", () => document.body.dataset.screen === "full", [], 20_000);
    expect(await third.evaluate(() => document.querySelector("#screen-title")?.textContent)).toBe("This talk is full");
    await shot(third, "05c-viewer-full");
    await third.close();
  });

  it("a viewer leaves follow to look back, and “Back to live” returns to the presenter's slide", async () => {
    await viewerA.click("#follow");
    await viewerA.waitFor("not following", () => document.body.dataset.following === "false");
    expect(await viewerA.evaluate(() => ({ pressed: document.querySelector("#follow")?.getAttribute("aria-pressed"), back: (document.querySelector("#back-live") as HTMLElement).hidden }))).toEqual({ pressed: "false", back: false });
    await viewerA.click("#prev");
    await viewerAt(viewerA, 4);
    // The arrow keys page too, also with the focus on a bar button.
    expect(await viewerA.evaluate(() => document.activeElement?.id)).toBe("prev");
    await viewerA.press("ArrowLeft");
    await viewerAt(viewerA, 3);
    await presenterGo("ArrowLeft", 4);
    await viewerAt(viewerB, 4);
    expect(await viewerA.evaluate(() => document.body.dataset.slide)).toBe("3");
    await viewerA.waitFor("told where the talk is", () => document.querySelector("#live-status")?.textContent === "On your own — the talk is at slide 4");
    await shot(viewerA, "05d-viewer-not-following");
    await viewerA.click("#back-live");
    await viewerAt(viewerA, 4);
    expect(await viewerA.evaluate(() => document.body.dataset.following)).toBe("true");
  });

  it("a reloaded viewer takes the deck from its storage and the current state from hello", async () => {
    await viewerA.goto(viewerUrl);
    await viewerAt(viewerA, 4);
    expect(await viewerA.evaluate(() => document.body.dataset.deckSource)).toBe("stored");
  });

  it("“Rotate remote link”: the old remote is told its link is no longer valid, the panel shows a new one", async () => {
    await presenter.click("#live-rotate");
    await remote.waitFor("the refused remote", () => document.body.dataset.screen === "refused", [], 20_000);
    expect(await remote.evaluate(() => document.querySelector("#screen-title")?.textContent)).toBe("Remote link no longer valid");
    await shot(remote, "06b-remote-rotated");
    await presenter.waitFor("a new remote link in the panel", (old: string) => (document.querySelector("#live-control-url") as HTMLAnchorElement).href !== old, [controlUrl]);
    const fresh = await presenter.evaluate(() => (document.querySelector("#live-control-url") as HTMLAnchorElement).href);
    expect(fresh).toMatch(new RegExp(`/live/${code}/control#.{16,}$`));
    await presenter.waitFor("no remote counted", () => document.body.dataset.liveControls === "0", [], 15_000);
  });

  it("“End live”: viewers see the end screen, and no deck file is left in the server's data dir", async () => {
    expect(pdfFilesIn(server.dataDir).length).toBeGreaterThan(0);
    await presenter.click("#live-end");
    // End live asks first (the code dies for good).
    await presenter.click("#live-end-confirm");
    for (const v of allViewers()) await v.waitFor("the end screen", () => document.body.dataset.screen === "ended", [], 20_000);
    await presenter.waitFor("the presenter not live", () => document.body.dataset.live === "off");
    expect(await viewerA.evaluate(() => document.querySelector("#screen-title")?.textContent)).toBe("The talk has ended");
    expect(pdfFilesIn(server.dataDir)).toEqual([]);
    const gone = await fetch(`${server.url}/api/live/${code}`);
    expect(gone.status).toBe(410);
    await expectNoSeriousA11y(viewerA, "viewer's end screen");
    await shot(viewerA, "06-viewer-ended");
    await shot(presenter, "08-presenter-after-end");
  });
});

describe("after the talk", () => {
  it("the ended code shows the end screen to a late visitor (410); an unknown code shows “No talk with this code” (404)", async () => {
    await viewerB.goto(viewerUrl);
    await viewerB.waitFor("the end screen", () => document.body.dataset.screen === "ended", [], 20_000);
    const unknown = code === "ZZZZZZ" ? "YYYYYY" : "ZZZZZZ";
    await viewerB.goto(`${server.url}/live/${unknown}`);
    await viewerB.waitFor("the unknown-code screen", () => document.body.dataset.screen === "not-found", [], 20_000);
    expect(await viewerB.evaluate(() => document.querySelector("#screen-title")?.textContent)).toBe("No talk with this code");
    await shot(viewerB, "09-viewer-unknown-code");
  });

  it("Shift+L goes live again with a new code", async () => {
    await presenter.click("#live-hide");
    await presenter.waitFor("the panel hidden", () => (document.querySelector("#live-panel") as HTMLElement).hidden === true);
    await presenter.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // `?` lists the key with the others (and can change it).
    await presenter.press("?");
    await presenter.waitFor("the keys panel", () => document.body.dataset.panel === "help");
    const row = await presenter.evaluate(() => Array.from(document.querySelectorAll("#keys tr")).map((tr) => tr.textContent ?? "").find((t) => t.includes("Go live")) ?? "");
    expect(row).toContain("Shift+L");
    await presenter.press("Escape");
    await presenter.waitFor("the keys panel closed", () => document.body.dataset.panel === "none");
    await presenter.press("Shift+L");
    await presenter.waitFor("live again", () => document.body.dataset.live === "open" && !(document.querySelector("#live-panel") as HTMLElement).hidden, [], 30_000);
    const again = await presenter.evaluate(() => document.querySelector("#live-code")?.textContent);
    expect(again).toMatch(/^[2-9A-HJKMNP-Z]{6}$/);
    expect(again).not.toBe(code);
    await presenter.click("#live-end");
    // End live asks first (the code dies for good).
    await presenter.click("#live-end-confirm");
    await presenter.waitFor("ended", () => document.body.dataset.live === "off");
  });
});

describe("going live on a --require-auth server", () => {
  let authServer: BinaryServer;
  let engine: Engine;
  let page: EnginePage;
  let token = "";

  beforeAll(async () => {
    authServer = await startBinary({ args: ["--require-auth"] });
    const made = Bun.spawnSync([BINARY, "token", "create", "--label", "live-e2e", "--data-dir", authServer.dataDir], { stdout: "pipe", stderr: "pipe" });
    token = made.stdout.toString().trim().split(/\s+/).find((w) => w.startsWith("dh_")) ?? "";
    expect(token).toMatch(/^dh_/);
    engine = await launchEngine("chromium", { viewport: { width: 1440, height: 900 } });
    page = engine.page;
  }, STEP_MS);

  afterAll(async () => {
    await engine?.close().catch(() => {});
    if (authServer?.proc.exitCode === null) await authServer.stop();
    authServer?.cleanup();
  });

  it("a deck claimed through a handoff link goes live with the claim's grant, without asking for a token", async () => {
    const handoff = await presentPdf(authServer.url, await makePresentationDeck(new Uint8Array(0), { pages: 2 }), "Granted.pdf", { headers: { Authorization: `Bearer ${token}` } });
    await page.goto(handoff.url);
    await waitReady(page, "the presenter", 45_000);
    // The claim kept the server's grant with the deck.
    const grant = await page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open("deckhand");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const decks = await new Promise<{ liveGrant?: { grant: string; expiresAt: string } }[]>((resolve) => {
        const req = db.transaction("decks").objectStore("decks").getAll();
        req.onsuccess = () => resolve(req.result);
      });
      db.close();
      return decks[0]?.liveGrant ?? null;
    });
    expect(grant?.grant.length).toBeGreaterThan(10);
    expect(Date.parse(grant!.expiresAt)).toBeGreaterThan(Date.now());
    await page.click("#btn-live");
    await page.waitFor("live with the grant", () => document.body.dataset.live === "open", [], 30_000);
    expect(await page.evaluate(() => (document.querySelector("#live-token") as HTMLElement).hidden)).toBe(true);
    await page.click("#live-end");
    // End live asks first (the code dies for good).
    await page.click("#live-end-confirm");
    await page.waitFor("ended", () => document.body.dataset.live === "off");
  });

  it("a local deck has no grant: going live asks for an access token in a dialog, and the typed token works", async () => {
    const path = join(shots, "local-deck.pdf");
    await Bun.write(path, await makePresentationDeck(new Uint8Array(0), { pages: 1 }));
    await page.goto(`${authServer.url}/`);
    await page.upload("#file-input", path);
    await page.waitFor("the share screen", () => !(document.querySelector("#share") as HTMLElement).hidden, [], 20_000);
    await page.click("#share-present");
    await waitReady(page, "the presenter", 45_000, "/present/");
    await page.click("#btn-live");
    await page.waitFor("the token dialog", () => (document.querySelector("#live-token") as HTMLElement).hidden === false, [], 20_000);
    const dialog = await page.evaluate(() => ({ label: (document.querySelector("#live-token-input") as HTMLInputElement).labels?.[0]?.textContent, focused: document.activeElement?.id }));
    expect(dialog).toEqual({ label: "Access token", focused: "live-token-input" });
    await expectNoSeriousA11y(page, "token dialog");
    await shot(page, "10-presenter-token-dialog");
    // Esc closes it like Cancel; the panel's Go live asks again.
    await page.press("Escape");
    await page.waitFor("the dialog closed", () => (document.querySelector("#live-token") as HTMLElement).hidden === true);
    await page.click("#live-start");
    await page.waitFor("the token dialog again", () => (document.querySelector("#live-token") as HTMLElement).hidden === false && document.activeElement?.id === "live-token-input", [], 20_000);
    for (const ch of token) await page.press(ch);
    await page.press("Enter");
    await page.waitFor("live with the typed token", () => document.body.dataset.live === "open", [], 30_000);
    await page.click("#live-end");
    // End live asks first (the code dies for good).
    await page.click("#live-end-confirm");
    await page.waitFor("ended", () => document.body.dataset.live === "off");
  });
});
