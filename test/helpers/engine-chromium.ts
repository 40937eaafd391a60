/**
 * Chromium behind the engine abstraction: playwright-core on Debian's /usr/bin/chromium
 * (the same launch as test/helpers/browser.ts), accepting the media server's test
 * certificate. Offline is network emulation, which also stops the service worker's fetches.
 */
import type { Page } from "playwright-core";
import { launchBrowser, newWindow } from "./browser.ts";
import { chromiumMicrophoneArgs } from "./microphone.ts";
import { callSource, type Engine, type EnginePage, type LaunchOptions } from "./engine.ts";
import { pollUntil } from "./poll.ts";

function wrap(page: Page): EnginePage {
  return {
    goto: async (url) => void (await page.goto(url)),
    href: () => page.evaluate(() => location.href),
    evaluate: (fn, ...args) => page.evaluate(callSource(fn as never, args)),
    evaluateSource: async (source) => void (await page.evaluate(source)),
    waitFor: (what, fn, args = [] as never, timeoutMs = 15_000) => pollUntil(() => page.evaluate(callSource(fn as never, args)), what, timeoutMs),
    // The key map writes Ctrl; Playwright names it Control.
    press: (chord) => page.keyboard.press(chord === "Space" ? " " : chord.replace(/^Ctrl\+/, "Control+")),
    click: (selector) => page.click(selector),
    upload: (selector, path) => page.setInputFiles(selector, path),
    resize: (width, height) => page.setViewportSize({ width, height }),
    swipe: async (selector, dx) => {
      // Real touch input through the DevTools protocol (the context is made with touch on).
      const box = (await page.locator(selector).boundingBox())!;
      const cdp = await page.context().newCDPSession(page);
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
      for (let i = 1; i <= 5; i++) await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: x + (dx * i) / 5, y }] });
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      await cdp.detach();
    },
    wheel: async (selector, deltaY) => {
      const box = (await page.locator(selector).boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, deltaY);
    },
    mouse: async (steps) => {
      for (const step of steps) {
        if (step.type === "move") await page.mouse.move(step.x, step.y);
        else if (step.type === "down") await page.mouse.down();
        else await page.mouse.up();
      }
    },
    screenshot: async (path) => void (await page.screenshot({ path })),
    close: () => page.close(),
  };
}

export async function launchChromiumEngine(options: LaunchOptions): Promise<Engine & { raw: Page }> {
  // Chromium never sends loopback through a proxy, so only hosts off this machine meet the closed port.
  const firewall = options.refuseOffMachine ? [`--proxy-server=http://127.0.0.1:${options.refuseOffMachine.closedPort}`] : [];
  const microphone = options.microphone ? chromiumMicrophoneArgs(options.microphone.wav) : [];
  const session = await launchBrowser({ ...(options.viewport ? { viewport: options.viewport } : {}), args: ["--ignore-certificate-errors", ...firewall, ...microphone], ignoreHTTPSErrors: true, hasTouch: true });
  return {
    name: "chromium",
    page: wrap(session.page),
    raw: session.page,
    newPage: async () => wrap(await newWindow(session.context)),
    setOffline: (offline) => session.context.setOffline(offline),
    problems: session.problems,
    close: () => session.close(),
  };
}
