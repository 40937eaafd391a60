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
  test("one row per slide, this run next to the plan and the previous one; CSV with quoting", () => {
    const layout = layoutFromLabels(["1", "2", "2", "A, b"]);
    const rows = timeRows(layout, { 0: 12.345, 2: 3 }, { 0: 10, 1: 20 });
    expect(rows).toEqual([
      { label: "1", seconds: 12.345, planned: null, previous: 10, long: false },
      { label: "2", seconds: 0, planned: null, previous: 20, long: false },
      { label: "A, b", seconds: 3, planned: null, previous: 0, long: false },
    ]);
    expect(timesCsv(rows)).toBe('slide,label,planned_seconds,actual_seconds,previous_run_seconds,ran_long_in_rehearsal\r\n1,1,,12.3,10.0,\r\n2,2,,0.0,20.0,\r\n3,"A, b",,3.0,0.0,\r\n');
    expect(timesCsv(timeRows(layout, {}, null)).split("\r\n")[1]).toBe("1,1,,0.0,,");
  });
});
