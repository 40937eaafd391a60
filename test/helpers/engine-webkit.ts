/**
 * WebKit behind the engine abstraction: Debian's WebKitWebDriver driving MiniBrowser
 * (`--automation`) on its own Xvfb display, through selenium-webdriver. The display number
 * comes from `Xvfb -displayfd`, so parallel runs never collide. WebKitWebDriver has no
 * network emulation and no console-log endpoint: offline tests stop the servers
 * (Engine.setOffline is null) and console errors are not collected here. WebKit draws without
 * its DMA-BUF renderer (RENDERER), so screenshots are read from Xvfb's screen by ffmpeg, each
 * window in a slot of its own (WINDOW_SLOT).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Builder, By, Key, type WebDriver } from "selenium-webdriver";
import { freePort } from "./server.ts";
import { WEBKIT_MICROPHONE_ARGS } from "./microphone.ts";
import { BINARIES, callSource, type Engine, type EnginePage, type LaunchOptions } from "./engine.ts";
import { pollUntil } from "./poll.ts";

const SLOW_COMMAND_MS = 5_000;
const SCREENSHOT_MS = 30_000;
/**
 * A command not answered within this has hung: the session's own bounds end a page load at
 * 45 s and a script at 30 s, and a screenshot is given up at SCREENSHOT_MS, when the web
 * process answers at all. DECKHAND_WEBKIT_HUNG_MS shortens it for the test of what a hang does
 * (test/e2e/webkit-crash.e2e.test.ts).
 */
const hungMs = () => Number(process.env.DECKHAND_WEBKIT_HUNG_MS) || 60_000;

/**
 * Where each window of a session stands on Xvfb's screen: side by side, never over one another,
 * for the screenshots are read from the screen (see `screenshotFromScreen`). A slot holds
 * the largest window a suite asks for (a 1920×1080 viewport under MiniBrowser's 38 px toolbar);
 * the screen holds WINDOW_SLOTS of them. A new window takes the first slot no open window holds.
 */
const WINDOW_SLOT = { width: 1940, height: 1140 };
const WINDOW_SLOTS = 6;
const SCREEN = { width: WINDOW_SLOT.width * WINDOW_SLOTS, height: WINDOW_SLOT.height };

/**
 * WebKit's renderer without DMA-BUF buffers. On this machine (no GPU) the DMA-BUF renderer
 * composites every frame with Mesa's software OpenGL (llvmpipe): in the stage suite 33 of the web
 * process's 51 CPU-seconds, up to 1.75 cores while a video plays. Without it the suite needed
 * 42–47 CPU-seconds instead of 75–79 (measured one after the other, the same tests passing).
 * WebDriver's screenshot then waits for a frame the window may never be shown, so screenshots
 * are read from the X server instead (`screenshotFromScreen`).
 */
const RENDERER = { WEBKIT_DISABLE_DMABUF_RENDERER: "1" };

export const MINIBROWSER = process.env.DECKHAND_MINIBROWSER ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

/**
 * MiniBrowser's 2D canvases drawn on the CPU. On a machine without a GPU, WebKitGTK's
 * "accelerated" canvas is OpenGL emulated by Mesa's llvmpipe: an idle presenter (three canvases,
 * nothing changing) kept about a core busy in llvmpipe's threads (0.9 cores measured; 0.25 with
 * these), and two of the WebKit lane's heaviest files used 40% less CPU without it (notes-layouts
 * and stage: 184 → 113 CPU-seconds), their pixel checks passing the same.
 */
const CANVAS_ON_CPU = ["--enable-accelerated-2d-canvas=false", "--enable-2d-canvas-acceleration=false"];

const KEYS: Record<string, string> = {
  ArrowRight: Key.ARROW_RIGHT,
  ArrowLeft: Key.ARROW_LEFT,
  ArrowUp: Key.ARROW_UP,
  ArrowDown: Key.ARROW_DOWN,
  PageDown: Key.PAGE_DOWN,
  PageUp: Key.PAGE_UP,
  Home: Key.HOME,
  End: Key.END,
  Enter: Key.ENTER,
  Escape: Key.ESCAPE,
  Tab: Key.TAB,
  Backspace: Key.BACK_SPACE,
  F5: Key.F5,
  Space: " ",
  Shift: Key.SHIFT,
  Ctrl: Key.CONTROL,
  Alt: Key.ALT,
};

/** Start Xvfb on the first free display; resolves with the display number it chose. */
function startXvfb(): Promise<{ display: string; proc: ChildProcess }> {
  const proc = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", `${SCREEN.width}x${SCREEN.height}x24`, "-nolisten", "tcp"], { stdio: ["ignore", "ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("Xvfb did not report a display within 10 s (apt-get install -y xvfb)")), 10_000);
    proc.once("error", (error) => reject(new Error(`Xvfb could not start (apt-get install -y xvfb): ${error.message}`)));
    (proc.stdio[3] as NodeJS.ReadableStream).on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve({ display: out.trim(), proc });
      }
    });
  });
}

/** What WebKitWebDriver and MiniBrowser (its child, same output) said last: the clue when WebKit dies. */
class OutputTail {
  private lines: string[] = [];
  constructor(private readonly limit = 60) {}
  add(chunk: Buffer) {
    for (const line of chunk.toString().split("\n")) if (line.trim()) this.lines.push(line);
    if (this.lines.length > this.limit) this.lines.splice(0, this.lines.length - this.limit);
  }
  toString() {
    return this.lines.length ? this.lines.join("\n") : "(nothing)";
  }
}

/** Time for one start of Xvfb, WebKitWebDriver and a MiniBrowser session. */
const LAUNCH_MS = 60_000;

interface Started {
  driver: WebDriver;
  output: OutputTail;
  /** The process group WebKitWebDriver leads: MiniBrowser and its web processes are in it. */
  group: number;
  /** Xvfb's display number (`:N`): the screenshots are read from it. */
  display: string;
  stop(): void;
}

/**
 * Where a MiniBrowser crash is written down, one JSON line per crash, for `npm test`
 * (scripts/test-all.ts) to read: the test file that was running and what WebKit said last.
 */
export const webkitCrashLog = () => process.env.DECKHAND_WEBKIT_CRASH_LOG ?? join(import.meta.dir, "..", "..", "test-output", "webkit-crashes.jsonl");

/** The processes of process group `group` (read from /proc): pid and name. */
function groupProcesses(group: number): { pid: number; comm: string }[] {
  const found: { pid: number; comm: string }[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces, so read around its parentheses.
    const close = stat.lastIndexOf(")");
    const pgrp = Number(stat.slice(close + 2).split(" ")[2]);
    if (pgrp === group) found.push({ pid: Number(pid), comm: stat.slice(stat.indexOf("(") + 1, close) });
  }
  return found;
}

/** Whether a MiniBrowser process is still running in process group `group`. */
const miniBrowserAlive = (group: number) => groupProcesses(group).some((p) => p.comm.startsWith("MiniBrowser"));

/**
 * What each process of a hung browser is doing, one line each: its threads' states and the
 * kernel function each sleeps in, and its CPU time — the clue to why a command got no answer.
 */
function describeHang(group: number): string {
  return groupProcesses(group)
    .map(({ pid, comm }) => {
      const threads: string[] = [];
      let ticks = 0;
      try {
        for (const tid of readdirSync(`/proc/${pid}/task`)) {
          try {
            const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
            const close = stat.lastIndexOf(")");
            const fields = stat.slice(close + 2).split(" ");
            ticks += Number(fields[11]) + Number(fields[12]);
            const wchan = readFileSync(`/proc/${pid}/task/${tid}/wchan`, "utf8");
            threads.push(`${stat.slice(stat.indexOf("(") + 1, close)}:${fields[0]}${wchan && wchan !== "0" ? `@${wchan}` : ""}`);
          } catch {
            // The thread ended meanwhile.
          }
        }
      } catch {
        return `${pid} ${comm}: gone`;
      }
      // The main thread, and any other thread running or in an uninterruptible wait.
      const shown = threads.filter((t, i) => i === 0 || /:[RD]/.test(t));
      return `${pid} ${comm} (${(ticks / 100).toFixed(1)} CPU-s, ${threads.length} threads): ${shown.join(" ")}`;
    })
    .join("\n");
}

/**
 * One start: Xvfb, then WebKitWebDriver in a process group of its own (MiniBrowser and its
 * web, network and GPU processes join it), then a session. `stop` kills the whole group, so a
 * browser that hung is never left running beside the next suite's.
 */
async function startWebkit(options: LaunchOptions): Promise<Started> {
  const xvfb = await startXvfb();
  const port = await freePort();
  const output = new OutputTail();
  const driverProc = spawn(BINARIES.webkit.path, [`--port=${port}`], { env: { ...process.env, DISPLAY: `:${xvfb.display}`, ...RENDERER }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  driverProc.stdout!.on("data", (chunk: Buffer) => output.add(chunk));
  driverProc.stderr!.on("data", (chunk: Buffer) => output.add(chunk));
  const stop = () => {
    try {
      if (driverProc.pid) process.kill(-driverProc.pid, "SIGKILL");
    } catch {
      // The group is gone already.
    }
    xvfb.proc.kill("SIGKILL");
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`WebKit did not start a session within ${LAUNCH_MS / 1000} s`)), LAUNCH_MS)));
  try {
    const driver = await Promise.race([
      (async () => {
        await pollUntil(async () => (await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok, () => false)) as boolean, "WebKitWebDriver to listen", 10_000);
        return new Builder()
          .usingServer(`http://127.0.0.1:${port}`)
          .withCapabilities({
            browserName: "MiniBrowser",
            acceptInsecureCerts: true,
            "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation", ...CANVAS_ON_CPU, ...(options.microphone ? WEBKIT_MICROPHONE_ARGS : [])] },
            // WebDriver's own proxy capability: every host but this machine's meets a closed port.
            ...(options.refuseOffMachine ? { proxy: { proxyType: "manual", httpProxy: `127.0.0.1:${options.refuseOffMachine.closedPort}`, sslProxy: `127.0.0.1:${options.refuseOffMachine.closedPort}`, noProxy: ["127.0.0.1", "localhost"] } } : {}),
          })
          .build();
      })(),
      deadline,
    ]);
    return { driver, output, group: driverProc.pid!, display: xvfb.display, stop };
  } catch (error) {
    stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nWebKitWebDriver and MiniBrowser said:\n${output}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An async WebDriver script: the viewport's size, once the page has drawn two frames (half a
 * second at most: a window nobody looks at may get no frames).
 */
const AFTER_TWO_FRAMES = "const done = arguments[arguments.length - 1]; const size = () => done([innerWidth, innerHeight]); setTimeout(size, 500); requestAnimationFrame(() => requestAnimationFrame(size));";

/**
 * The current window's viewport as the X server shows it, written to `path` as a PNG (ffmpeg's
 * x11grab); false when the window is not wholly on the screen (the caller asks WebDriver then).
 * The windows stand side by side (WINDOW_SLOT), so what the screen shows there is this window;
 * two frames are waited for first, so the page has drawn what the test did last.
 */
async function screenshotFromScreen(driver: WebDriver, display: string, path: string): Promise<boolean> {
  const [width, height] = (await driver.executeAsyncScript(AFTER_TWO_FRAMES)) as [number, number];
  const rect = await driver.manage().window().getRect();
  // MiniBrowser's toolbar is above the viewport: the viewport is the window's bottom.
  const left = rect.x + rect.width - width;
  const top = rect.y + rect.height - height;
  if (left < 0 || top < 0 || left + width > SCREEN.width || top + height > SCREEN.height) return false;
  const grab = Bun.spawn(["ffmpeg", "-v", "error", "-f", "x11grab", "-draw_mouse", "0", "-video_size", `${width}x${height}`, "-i", `:${display}+${left},${top}`, "-frames:v", "1", "-y", path], { stdin: "ignore", stdout: "ignore", stderr: "pipe" });
  if ((await grab.exited) !== 0) throw new Error(`webkit: a screenshot read from the X server failed: ${await new Response(grab.stderr).text()}`);
  return true;
}

export async function launchWebkitEngine(options: LaunchOptions): Promise<Engine> {
  // A start that fails or hangs is tried once more on a fresh display (said on stderr): the
  // suite's tests are about deckhand, not about one MiniBrowser start on a loaded machine.
  let started: Started;
  try {
    started = await startWebkit(options);
  } catch (error) {
    console.error(`webkit: the first start failed, starting again: ${error instanceof Error ? error.message : String(error)}`);
    started = await startWebkit(options);
  }
  const { driver, output, group, display, stop } = started;
  // The test file this engine serves (bun test sets Bun.main to the file it runs).
  const testFile = Bun.main;
  // When the browser goes away mid-file, every later command fails at once: what it said last
  // is printed once, the one clue to why. When no MiniBrowser is left in the driver's group,
  // the browser itself died — Debian's WebKitGTK 2.50 MiniBrowser segfaults now and then (in
  // libc, the same address each time; seen in dmesg here, and once in CI) — and the crash is
  // written down for `npm test`, which runs such a file once more (scripts/test-all.ts).
  let told = false;
  const writeCrash = (error: string) => {
    const log = webkitCrashLog();
    mkdirSync(dirname(log), { recursive: true });
    appendFileSync(log, `${JSON.stringify({ file: testFile, at: new Date().toISOString(), error, output: String(output) })}\n`);
  };
  const tell = (error: unknown) => {
    const name = error instanceof Error ? error.name : "";
    if (told || !/NoSuchSession|NoSuchWindow|SessionNotCreated|ECONNREFUSED|Timeout/i.test(`${name} ${String(error)}`)) return;
    told = true;
    const crashed = !miniBrowserAlive(group);
    console.error(`webkit: ${name || String(error)}${crashed ? " — MiniBrowser crashed (no MiniBrowser process left)" : ""} — WebKitWebDriver and MiniBrowser said last:\n${output}`);
    if (crashed) writeCrash(name || String(error));
  };
  const viewport = options.viewport ?? { width: 1440, height: 900 };
  await driver.manage().window().setRect({ x: 0, y: 0, width: viewport.width, height: viewport.height });
  /** The slot on the screen of each window opened (WINDOW_SLOT): the first window's is 0. */
  const slots = new Map<string, number>([[await driver.getWindowHandle(), 0]]);
  const freeSlot = async (): Promise<number> => {
    const open = new Set(await driver.getAllWindowHandles());
    for (const handle of slots.keys()) if (!open.has(handle)) slots.delete(handle);
    const taken = new Set(slots.values());
    let slot = 0;
    while (taken.has(slot)) slot++;
    return slot;
  };
  // A page load that hangs (a server stopped mid-test) fails after this instead of forever.
  await driver.manage().setTimeouts({ pageLoad: 45_000, script: 30_000 });
  // One driver, several windows: every command first switches to its page's window.
  let active = await driver.getWindowHandle();
  // WebKit's commands wait for the page's main thread; on a loaded machine they can take
  // seconds, and some have been seen never to return (a script waited on for three minutes, its
  // web process busy). Slow ones are told on stderr, and one still waiting is told every 20 s,
  // so a step that runs out of time shows where it went. One not answered within HUNG_MS ends
  // the browser: what its processes were doing is told, the hang is written down as a crash
  // (`npm test` runs the file again), and the browser is killed, so this command and every
  // later one of the file fail at once instead of each waiting out its test's time.
  let hung: Error | null = null;
  const HUNG_MS = hungMs();
  const timed = async <T>(what: string, command: () => Promise<T>): Promise<T> => {
    if (hung) throw hung;
    const t0 = performance.now();
    const waiting = setInterval(() => console.error(`webkit: ${what} still waiting after ${((performance.now() - t0) / 1000).toFixed(0)} s`), 20_000);
    let bound: ReturnType<typeof setTimeout> | undefined;
    const answer = command();
    try {
      return await Promise.race([
        answer,
        new Promise<never>((_, reject) => {
          bound = setTimeout(() => {
            hung = new Error(`WebKit hung: ${what} got no answer within ${HUNG_MS / 1000} s; the browser was killed`);
            console.error(`webkit: ${hung.message}. Its processes (thread:state@kernel wait, the main thread and those running):\n${describeHang(group)}\nWebKitWebDriver and MiniBrowser said last:\n${output}`);
            writeCrash(hung.message);
            told = true;
            stop();
            reject(hung);
          }, HUNG_MS);
        }),
      ]);
    } catch (error) {
      tell(error);
      throw error;
    } finally {
      clearTimeout(bound);
      clearInterval(waiting);
      const ms = performance.now() - t0;
      if (ms > SLOW_COMMAND_MS) console.error(`webkit: ${what} took ${(ms / 1000).toFixed(1)} s`);
    }
  };
  /** MiniBrowser's frame around the viewport, the same for every window of the session. */
  let frame: { width: number; height: number } | null = null;
  const wrap = (handle: string): EnginePage => {
    const focus = async () => {
      if (active !== handle) {
        await driver.switchTo().window(handle);
        active = handle;
      }
    };
    const run = (source: string) =>
      timed(`script ${source.replace(/\s+/g, " ").slice(0, 80)}`, async () => {
        await focus();
        return driver.executeScript(`return ${source}`);
      });
    return {
      goto: (url) =>
        timed(`loading ${new URL(url).pathname}`, async () => {
          await focus();
          await driver.get(url);
        }),
      href: async () => (await run("location.href")) as string,
      evaluate: (fn, ...args) => run(callSource(fn as never, args)) as never,
      evaluateSource: async (source) => void (await run(`(() => { ${source}\n})()`)),
      waitFor: (what, fn, args = [] as never, timeoutMs = 15_000) => pollUntil(() => run(callSource(fn as never, args)), what, timeoutMs),
      press: (chord) =>
        timed(`pressing ${chord}`, async () => {
          await focus();
          const parts = chord === "+" ? ["+"] : chord.split("+");
          const key = parts.pop()!;
          const perform = () => {
            let actions = driver.actions({ async: true });
            for (const m of parts) actions = actions.keyDown(KEYS[m]!);
            actions = actions.sendKeys(KEYS[key] ?? key);
            for (const m of [...parts].reverse()) actions = actions.keyUp(KEYS[m]!);
            return actions.perform();
          };
          try {
            await perform();
          } catch (error) {
            // On a loaded machine WebKitWebDriver sometimes fails an action with an empty
            // error, leaving its keys down in the session's input state: every later press
            // in the file would then be a held key's repeat. Release them and press once more
            // (a press that did arrive shows as one too many in what the test waits for).
            console.error(`webkit: pressing ${chord} failed (${error instanceof Error ? error.name : String(error)}); keys released, pressing again`);
            await driver.actions().clear();
            await perform();
          }
        }),
      click: (selector) =>
        timed(`clicking ${selector}`, async () => {
          await focus();
          await driver.findElement(By.css(selector)).click();
        }),
      upload: async (selector, path) => {
        await focus();
        await driver.findElement(By.css(selector)).sendKeys(path);
      },
      resize: async (width, height) => {
        // WebDriver sizes the window, not the viewport: add back what MiniBrowser's own frame
        // takes (38 px of height here), measured once while the window is still. Its window is
        // never narrower than 447 px, so an "upright phone" in WebKit is 447 px wide — still a
        // phone layout (≤ 480 px).
        await focus();
        const window = driver.manage().window();
        const viewport = async () => (await driver.executeScript("return [innerWidth, innerHeight]")) as [number, number];
        if (!frame) {
          // Three reads in a row that agree: a viewport read in the middle of a resize once gave a
          // negative height, and once left a landscape phone 38 px short in CI.
          let last = "";
          for (let same = 0, tries = 0; same < 3; tries++) {
            if (tries > 100) throw new Error("webkit: the window's size never settled");
            const rect = await window.getRect();
            const [innerW, innerH] = await viewport();
            const seen = `${rect.width - innerW} ${rect.height - innerH}`;
            same = seen === last ? same + 1 : 1;
            last = seen;
            frame = { width: Math.max(0, rect.width - innerW), height: Math.max(0, rect.height - innerH) };
            await Bun.sleep(50);
          }
        }
        await window.setRect({ width: width + frame!.width, height: height + frame!.height });
        // The viewport follows a moment after setRect returns.
        const deadline = Date.now() + 5000;
        for (;;) {
          const [innerW, innerH] = await viewport();
          // Wider only where MiniBrowser keeps its window wider than asked.
          const minimum = (await window.getRect()).width - frame!.width;
          if (innerH === height && (innerW === width || (minimum > width && innerW === minimum))) break;
          if (Date.now() > deadline) throw new Error(`webkit: asked for a ${width}×${height} viewport, got ${innerW}×${innerH} (MiniBrowser's frame ${frame!.width}×${frame!.height})`);
          await Bun.sleep(50);
        }
        // WebKit gives innerWidth the new size before its media queries and layout follow: two
        // frames later the page is laid out for it (a laptop window once still showed the
        // phone's menu button right after a resize).
        await driver.executeAsyncScript(AFTER_TWO_FRAMES);
      },
      swipe: async (selector, dx) => {
        // A WebDriver touch pointer. WebKitWebDriver delivers it as mouse events (see the phone test).
        await focus();
        const el = await driver.findElement(By.css(selector));
        const actions = driver.actions({ async: true }) as unknown as { insert(device: unknown, ...a: unknown[]): { perform(): Promise<void> } };
        // The touch Pointer is in selenium-webdriver's input module; its typings lag behind.
        const input = (await import("selenium-webdriver/lib/input.js")) as unknown as {
          Origin: { POINTER: unknown };
          Pointer: { new (id: string, type: string): { move(o: object): unknown; press(): unknown; release(): unknown }; Type: { TOUCH: string } };
        };
        const { Origin, Pointer } = input;
        const finger = new Pointer("finger", Pointer.Type.TOUCH);
        await actions.insert(finger, finger.move({ origin: el, x: 0, y: 0 }), finger.press(), finger.move({ origin: Origin.POINTER, x: dx, y: 0, duration: 200 }), finger.release()).perform();
      },
      wheel: async (selector, deltaY) => {
        await focus();
        // selenium-webdriver has wheel actions; its type definitions lag behind.
        const actions = driver.actions({ async: true }) as unknown as { scroll(x: number, y: number, dx: number, dy: number, origin: unknown): { perform(): Promise<void> } };
        await actions.scroll(0, 0, 0, deltaY, await driver.findElement(By.css(selector))).perform();
      },
      mouse: async (steps) => {
        await focus();
        // One W3C action chain: pointer moves relative to the viewport, then press/release.
        const { Origin } = (await import("selenium-webdriver/lib/input.js")) as unknown as { Origin: { VIEWPORT: unknown } };
        let actions = driver.actions({ async: true }) as unknown as { move(o: object): typeof actions; press(): typeof actions; release(): typeof actions; perform(): Promise<void> };
        for (const step of steps) {
          if (step.type === "move") actions = actions.move({ x: Math.round(step.x), y: Math.round(step.y), origin: Origin.VIEWPORT, duration: 16 });
          else if (step.type === "down") actions = actions.press();
          else actions = actions.release();
        }
        await actions.perform();
      },
      screenshot: (path) =>
        timed(`screenshot ${path.split("/").pop()}`, async () => {
          // The viewport as the X server shows it (screenshotFromScreen). A window not wholly
          // on the screen is left to WebDriver's snapshot, which waits for the window's next
          // frame and, without the DMA-BUF renderer, may wait for ever: a screenshot is
          // evidence, not an assertion, so one that does not come within SCREENSHOT_MS is given
          // up (and said) rather than hold the test.
          await driver.switchTo().window(handle);
          active = handle;
          if (await screenshotFromScreen(driver, display, path)) return;
          console.error(`webkit: ${path.split("/").pop()}: the window is not wholly on Xvfb's screen (${SCREEN.width}×${SCREEN.height}); asking WebDriver for it`);
          const shot = driver.takeScreenshot();
          const late = Symbol("late");
          let timer: ReturnType<typeof setTimeout> | undefined;
          const png = await Promise.race([shot, new Promise<typeof late>((resolve) => (timer = setTimeout(() => resolve(late), SCREENSHOT_MS)))]);
          clearTimeout(timer);
          if (png === late) {
            shot.catch(() => {});
            // No stale picture from an earlier run may stand in for it: a test that reads
            // pixels from this file fails on its absence instead.
            rmSync(path, { force: true });
            console.error(`webkit: screenshot ${path} given up after ${SCREENSHOT_MS / 1000} s`);
            return;
          }
          writeFileSync(path, Buffer.from(png, "base64"));
        }),
      close: async () => {
        await focus();
        await driver.close();
        const rest = await driver.getAllWindowHandles();
        if (rest[0]) {
          await driver.switchTo().window(rest[0]);
          active = rest[0];
        }
      },
    };
  };
  return {
    name: "webkit",
    page: wrap(active),
    newPage: async () => {
      await driver.switchTo().newWindow("window").catch((error: unknown) => {
        tell(error);
        throw error;
      });
      active = await driver.getWindowHandle();
      const slot = await freeSlot();
      slots.set(active, slot);
      await driver.manage().window().setRect({ x: slot * WINDOW_SLOT.width, y: 0, width: viewport.width, height: viewport.height });
      return wrap(active);
    },
    setOffline: null,
    problems: [],
    close: async () => {
      // A hung browser may never answer quit: the group is killed after 15 s either way.
      await Promise.race([driver.quit().catch(() => {}), Bun.sleep(15_000)]);
      stop();
    },
  };
}
