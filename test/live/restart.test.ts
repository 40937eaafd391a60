/**
 * A server restart keeps live sessions: the real server runs as its own process on a temp
 * data dir; it is killed with SIGKILL mid-talk and started again on the same port. A viewer
 * that reconnects gets the last state at once (from the row), paused until the presenter
 * reconnects with its secret, then resumed. The audience too: a poll open at the
 * kill is open after it, with its votes; a viewer that comes back with its id cannot vote again.
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { makeDeck } from "../fixtures/pdfs.ts";
import { freePort, waitForHealthy } from "../helpers/server.ts";
import { created, LiveClient, sampleState } from "./helpers.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (9.3 s).
setDefaultTimeout(120_000);

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const dataDir = mkdtempSync(join(tmpdir(), "deckhand-live-restart-"));
let proc: Subprocess | undefined;

async function serve(port: number): Promise<string> {
  proc = Bun.spawn([process.execPath, MAIN, "serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDir, "--log-format", "json"], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env },
  });
  const url = `http://127.0.0.1:${port}`;
  // Start-up: migrations, the sweep, listen.
  const started = proc;
  await waitForHealthy(url, started, () => new Response(started.stderr as ReadableStream).text());
  return url;
}

afterAll(() => {
  proc?.kill(9);
  rmSync(dataDir, { recursive: true, force: true });
});

test("kill -9 mid-talk and a restart: the session, its deck and its last state survive; clients resync", async () => {
  const port = await freePort();
  let url = await serve(port);
  const talk = await created(url, await makeDeck({ pages: 4 }));
  const presenter = await LiveClient.join(url, talk.code, "presenter", talk.presenterSecret);
  const viewer = await LiveClient.join(url, talk.code, "viewer");
  presenter.client.send({ v: 1, type: "state", state: sampleState(3, { blank: "white" }) });
  // The state is saved before it is relayed: once the viewer has it, the row has it.
  const seen = await viewer.client.next("state");
  expect(seen.state.page).toBe(3);

  proc!.kill(9);
  await proc!.exited;
  await viewer.client.closed;
  await presenter.client.closed;

  url = await serve(port);
  expect(existsSync(join(dataDir, "staged", `live-${talk.code}.pdf`))).toBe(true);
  const back = await LiveClient.join(url, talk.code, "viewer");
  expect(back.hello.seq).toBe(seen.seq);
  expect(back.hello.state).toEqual(seen.state);
  expect(back.hello.paused).toBe(true);
  const again = await LiveClient.join(url, talk.code, "presenter", talk.presenterSecret);
  expect(again.hello.state?.page).toBe(3);
  expect(await back.client.next("resumed")).toEqual({ v: 1, type: "resumed" });
  again.client.send({ v: 1, type: "state", state: sampleState(4) });
  const next = await back.client.next("state");
  expect(next.seq).toBeGreaterThan(seen.seq);
  expect(next.state.page).toBe(4);
  back.client.close();
  again.client.close();
});

test("kill -9 mid-poll: the poll, its votes and the Q&A survive; a viewer back with its id cannot vote again", async () => {
  // The last test's server holds the data dir.
  proc?.kill(9);
  await proc?.exited;
  const port = await freePort();
  let url = await serve(port);
  const talk = await created(url, await makeDeck({ pages: 4 }));
  const presenter = await LiveClient.join(url, talk.code, "presenter", talk.presenterSecret);
  presenter.client.send({ v: 1, type: "qa", open: true, moderated: false });
  presenter.client.send({ v: 1, type: "pollStart", question: "Restart?", options: ["Yes", "No"], multiple: false });
  const { poll } = await presenter.client.next("poll");
  const ids = ["restart-viewer-0001", "restart-viewer-0002"];
  for (const [i, viewerId] of ids.entries()) {
    const viewer = await LiveClient.connect(url, talk.code);
    viewer.send({ v: 1, type: "join", role: "viewer", viewerId });
    await viewer.next("hello");
    viewer.send({ v: 1, type: "vote", pollId: poll.id, choices: [i] });
    viewer.send({ v: 1, type: "ask", text: `Question ${i}` });
    await presenter.client.next("question", (m) => m.question.text === `Question ${i}`);
  }
  // Showing the results is the presenter's change: saved (with the votes) before it is relayed.
  presenter.client.send({ v: 1, type: "pollShow", pollId: poll.id });
  await presenter.client.next("poll", (m) => m.poll.shown);

  proc!.kill(9);
  await proc!.exited;
  url = await serve(port);
  const back = await LiveClient.connect(url, talk.code);
  back.send({ v: 1, type: "join", role: "viewer", viewerId: ids[0] });
  const hello = await back.next("hello");
  expect(hello.audience).toMatchObject({
    qa: { open: true },
    poll: { id: poll.id, status: "open", shown: true },
    results: { pollId: poll.id, counts: [1, 1], voters: 2 },
    mine: { voted: [poll.id] },
  });
  expect(hello.audience?.questions.map((q) => q.text).sort()).toEqual(["Question 0", "Question 1"]);
  back.send({ v: 1, type: "vote", pollId: poll.id, choices: [1] });
  expect((await back.next("error")).code).toBe("ALREADY_VOTED");
  back.close();
});
