/**
 * The LiveSessionRepository contract, on SQLite (the embedded default) and on PostgreSQL (a
 * throw-away cluster, test/helpers/engines.ts): insert refuses a taken code, end happens
 * once, rotation bumps the generation only while open, state and settings persist, the
 * sweep's queries (due, open by age, open bytes, open blobs, purge), the presenter's "last
 * seen" and the talks it has left for longer than the grace, the audience's snapshot (gone
 * with the end), and grants with expiry.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LiveSessionRepository, LiveSessionRow } from "../../src/core/live-sessions.ts";
import { openDataDir } from "../../src/store/backends.ts";
import { SqliteLiveSessionRepository } from "../../src/store/live-sessions.ts";
import { openPostgres } from "../../src/store/postgres/db.ts";
import { PostgresLiveSessionRepository } from "../../src/store/postgres/live-sessions.ts";
import { type PostgresServer, startPostgres } from "../helpers/engines.ts";

// The timeout of each test and hook here: ~10× PostgreSQL's start in beforeAll on a loaded 2-vCPU machine (6.7 s).
setDefaultTimeout(90_000);

const T0 = Date.parse("2026-11-22T10:00:00Z");
const HOUR = 3_600_000;

function row(code: string, overrides: Partial<LiveSessionRow> = {}): LiveSessionRow {
  return {
    code,
    blobId: `live-${code}`,
    filename: "talk",
    totalSlides: 3,
    bytes: 1000,
    sha256: "a".repeat(64),
    presenterHash: "p".repeat(64),
    controlHash: "c".repeat(64),
    controlGeneration: 1,
    allowDownload: false,
    createdAt: T0,
    expiresAt: T0 + 12 * HOUR,
    endedAt: null,
    endReason: null,
    stateJson: null,
    presenterSeenAt: T0,
    audienceJson: null,
    notes: null,
    ...overrides,
  };
}

function contract(name: string, open: () => Promise<{ repo: LiveSessionRepository; close(): Promise<void> }>) {
  describe(name, () => {
    let repo: LiveSessionRepository;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ repo, close } = await open());
    });
    afterAll(async () => {
      await close();
    });

    test("insert refuses a taken code; get returns the row as written", async () => {
      expect(await repo.insert(row("AAAAA2"))).toBe(true);
      expect(await repo.insert(row("AAAAA2", { filename: "other" }))).toBe(false);
      expect(await repo.get("AAAAA2")).toEqual(row("AAAAA2"));
      expect(await repo.get("NOPE22")).toBeNull();
    });

    test("end happens once and keeps the row as a tombstone; an ended session cannot rotate or save", async () => {
      await repo.insert(row("BBBBB2"));
      const ended = await repo.end("BBBBB2", "ended", T0 + 5);
      expect(ended?.code).toBe("BBBBB2");
      expect(await repo.end("BBBBB2", "expired", T0 + 6)).toBeNull();
      expect(await repo.get("BBBBB2")).toMatchObject({ endedAt: T0 + 5, endReason: "ended" });
      expect(await repo.rotateControl("BBBBB2", "d".repeat(64))).toBeNull();
      await repo.saveState("BBBBB2", '{"seq":1,"state":null}');
      expect((await repo.get("BBBBB2"))?.stateJson).toBeNull();
    });

    test("the audience persists while the talk is open and is forgotten when it ends", async () => {
      await repo.insert(row("AUDIE2"));
      await repo.saveAudience("AUDIE2", '{"v":1}');
      expect((await repo.get("AUDIE2"))?.audienceJson).toBe('{"v":1}');
      expect((await repo.end("AUDIE2", "ended", T0 + 100 * HOUR))?.audienceJson).toBeNull();
      await repo.saveAudience("AUDIE2", '{"v":2}');
      expect((await repo.get("AUDIE2"))?.audienceJson).toBeNull();
    });

    test("rotation bumps the generation; state and allowDownload persist", async () => {
      await repo.insert(row("CCCCC2"));
      expect(await repo.rotateControl("CCCCC2", "d".repeat(64))).toBe(2);
      expect(await repo.rotateControl("CCCCC2", "e".repeat(64))).toBe(3);
      await repo.saveState("CCCCC2", '{"seq":4,"state":null}');
      await repo.setAllowDownload("CCCCC2", true);
      expect(await repo.get("CCCCC2")).toMatchObject({ controlHash: "e".repeat(64), controlGeneration: 3, stateJson: '{"seq":4,"state":null}', allowDownload: true });
    });

    test("the sweep's queries: due, open by age, open bytes, open blobs, purge", async () => {
      await repo.insert(row("DDDDD2", { expiresAt: T0 + HOUR, createdAt: T0 - 10, bytes: 50 }));
      const due = await repo.dueCodes(T0 + HOUR, 100);
      expect(due).toContain("DDDDD2");
      expect(due).not.toContain("CCCCC2");
      const byAge = await repo.openByAge(100);
      expect(byAge[0]).toEqual({ code: "DDDDD2", bytes: 50 });
      expect(byAge.map((r) => r.code)).not.toContain("BBBBB2");
      // Open: AAAAA2 (1000), CCCCC2 (1000), DDDDD2 (50).
      expect(await repo.openBytes()).toBe(2050);
      expect(await repo.openBlobsAmong(["live-AAAAA2", "live-BBBBB2", "other"])).toEqual(new Set(["live-AAAAA2"]));
      expect(await repo.openBlobsAmong([])).toEqual(new Set());
      expect(await repo.purgeEnded(T0 + 5)).toBe(0);
      expect(await repo.purgeEnded(T0 + 6)).toBe(1);
      expect(await repo.get("BBBBB2")).toBeNull();
    });

    test("presenter last seen: touched only while open; gone codes are the open talks seen before the cut-off", async () => {
      await repo.insert(row("EEEEE2", { presenterSeenAt: T0 - HOUR }));
      await repo.insert(row("FFFFF2", { presenterSeenAt: T0 - HOUR }));
      await repo.insert(row("GGGGG2", { presenterSeenAt: T0 - HOUR }));
      expect(await repo.get("EEEEE2")).toMatchObject({ presenterSeenAt: T0 - HOUR });
      await repo.touchPresenter("FFFFF2", T0 + 10);
      expect((await repo.get("FFFFF2"))?.presenterSeenAt).toBe(T0 + 10);
      await repo.end("GGGGG2", "ended", T0);
      await repo.touchPresenter("GGGGG2", T0 + 10);
      expect((await repo.get("GGGGG2"))?.presenterSeenAt).toBe(T0 - HOUR);
      const gone = await repo.presenterGoneCodes(T0, 100);
      expect(gone).toContain("EEEEE2");
      expect(gone).not.toContain("FFFFF2");
      expect(gone).not.toContain("GGGGG2");
      // Seen exactly at the cut-off is not gone yet.
      expect(await repo.presenterGoneCodes(T0 - HOUR, 100)).not.toContain("EEEEE2");
      expect(await repo.presenterGoneCodes(T0 + 11, 100)).toEqual(expect.arrayContaining(["EEEEE2", "FFFFF2"]));
    });

    test("grants: found until they expire, then purged", async () => {
      await repo.insertGrant({ hash: "g".repeat(64), sha256: "b".repeat(64), expiresAt: T0 + HOUR });
      expect(await repo.getGrant("g".repeat(64), T0)).toEqual({ hash: "g".repeat(64), sha256: "b".repeat(64), expiresAt: T0 + HOUR });
      expect(await repo.getGrant("g".repeat(64), T0 + HOUR)).toBeNull();
      expect(await repo.getGrant("h".repeat(64), T0)).toBeNull();
      expect(await repo.purgeGrants(T0 + HOUR)).toBe(1);
    });

    test("notes: described on the row, their text read on its own, cleared by the end; no text is kept without a description", async () => {
      const notes = { filename: "talk.pdfpc", kind: "pdfpc" as const, slides: 2 };
      const text = JSON.stringify({ pdfpcFormat: 2, pages: [{ idx: 0, note: "Grüße — “quoted”, 😀" }] });
      expect(await repo.insert(row("NOTES2", { notes }), text)).toBe(true);
      // The row reads back as written; the text only through notesText.
      expect(await repo.get("NOTES2")).toEqual(row("NOTES2", { notes }));
      expect(await repo.notesText("NOTES2")).toBe(text);
      // A taken code changes nothing, notes included.
      expect(await repo.insert(row("NOTES2", { notes: { ...notes, slides: 9 } }), "other")).toBe(false);
      expect(await repo.notesText("NOTES2")).toBe(text);
      // Text without a description of it is never stored (it could never be handed out).
      await repo.insert(row("NOTES3"), text);
      expect(await repo.notesText("NOTES3")).toBeNull();
      expect((await repo.get("NOTES3"))?.notes).toBeNull();
      expect(await repo.notesText("NOPE22")).toBeNull();
      // The end clears the text in the same statement; the description stays with the tombstone.
      expect((await repo.end("NOTES2", "ended", T0 + 100 * HOUR))?.notes).toEqual(notes);
      expect(await repo.notesText("NOTES2")).toBeNull();
      expect((await repo.get("NOTES2"))?.notes).toEqual(notes);
      await repo.end("NOTES3", "ended", T0 + 100 * HOUR);
    });
  });
}

contract("SQLite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "deckhand-live-repo-"));
  const db = openDataDir(dir);
  return {
    repo: new SqliteLiveSessionRepository(db),
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

let pg: PostgresServer | undefined;
contract("PostgreSQL", async () => {
  pg = await startPostgres();
  const db = openPostgres(await pg.createDatabase("live"));
  return {
    repo: new PostgresLiveSessionRepository(db),
    close: async () => {
      await db.close();
      await pg?.stop();
    },
  };
});
