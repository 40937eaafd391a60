/**
 * A claim holds even when the storage fails to delete the claimed bytes right away: the
 * browser is told it worked (it did), the failure is logged, and the orphan sweep deletes
 * the bytes later. (Seen on a bucket answering 500 to a burst of deletes.)
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { makeDeck } from "../fixtures/pdfs.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

// The timeout of each test and hook here: ~10× its slowest test on a loaded 2-vCPU machine (8.1 s).
setDefaultTimeout(90_000);

let t: TestApp | null = null;
afterEach(() => {
  t?.close();
  t = null;
});

test("complete answers ok when deleting the bytes fails; the row is claimed; the sweep removes the bytes", async () => {
  const logged: string[] = [];
  t = makeTestApp({}, { logger: { info() {}, error: (event) => logged.push(event) } });
  const record = await t.present(await makeDeck());
  const remove = t.deps.blobs.remove.bind(t.deps.blobs);
  t.deps.blobs.remove = async () => {
    throw Object.assign(new Error("storage hiccup"), { code: "EIO" });
  };
  const res = await t.handle(`/api/sessions/${record.id}/handoff/complete`, { method: "POST", headers: { "x-controller-token": record.token } });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ ok: true });
  expect(t.row(record.id)?.state).toBe("claimed");
  expect(logged).toEqual(["claimed_bytes_not_deleted"]);
  expect(t.stagedFiles()).toEqual([`${record.id}.pdf`]);
  t.deps.blobs.remove = remove;
  expect((await t.deps.handoff.sweep()).removedOrphans).toBe(1);
  expect(t.stagedFiles()).toEqual([]);
});
