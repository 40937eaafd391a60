/**
 * Two pure pieces of the presenter (issue "Stage tools" items 7 and 8): which screen the
 * audience window goes to and what "swap" does, from plain screen data (no second monitor
 * needed); and the rehearsal table and its CSV.
 */
import { describe, expect, test } from "bun:test";
import { layoutFromLabels } from "../../client/src/presenter/deck-layout.ts";
import { pickAudienceScreen, popupFeatures, swapTargets } from "../../client/src/presenter/displays.ts";
import { timeRows, timesCsv } from "../../client/src/presenter/views/times-view.ts";

const laptop = { left: 0, top: 0, width: 1440, height: 900, isPrimary: true, label: "Built-in" };
const projector = { left: 1440, top: 0, width: 1920, height: 1080, isPrimary: false, label: "Projector" };

describe("displays", () => {
  test("the audience goes to a screen that is not the presenter's, an external one first", () => {
    expect(pickAudienceScreen([laptop, projector], laptop)).toEqual(projector);
    expect(pickAudienceScreen([projector, laptop], projector)).toEqual(laptop);
    expect(pickAudienceScreen([laptop], laptop)).toBeNull();
  });

  test("the pop-up covers that screen; without one it is today's popup", () => {
    expect(popupFeatures(projector)).toBe("popup,left=1440,top=0,width=1920,height=1080");
    expect(popupFeatures(null)).toBe("popup,width=1280,height=720");
  });

  test("swap exchanges the two screens", () => {
    expect(swapTargets(laptop, projector)).toEqual({ presenter: projector, audience: laptop });
  });
});

describe("the rehearsal table", () => {
  test("one row per slide, this run next to the previous one; CSV with quoting", () => {
    const layout = layoutFromLabels(["1", "2", "2", "A, b"]);
    const rows = timeRows(layout, { 0: 12.345, 2: 3 }, { 0: 10, 1: 20 });
    expect(rows).toEqual([
      { label: "1", seconds: 12.345, previous: 10 },
      { label: "2", seconds: 0, previous: 20 },
      { label: "A, b", seconds: 3, previous: 0 },
    ]);
    expect(timesCsv(rows)).toBe('slide,label,seconds,previous_run_seconds\r\n1,1,12.3,10.0\r\n2,2,0.0,20.0\r\n3,"A, b",3.0,0.0\r\n');
    expect(timesCsv(timeRows(layout, {}, null)).split("\r\n")[1]).toBe("1,1,0.0,");
  });
});
