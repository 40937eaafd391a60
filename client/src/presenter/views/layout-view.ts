/**
 * @module client/presenter/views/layout-view
 * The presenter's arrangement on screen (./layout.ts): the column's side and width, the
 * panes' order and heights as CSS custom properties, the theme; splitters to drag (or move
 * with the arrow keys: they are ARIA separators) between the current slide and the column
 * and between the panes; and the layout editor's presets, order buttons and sliders.
 */
import { $, h, replace } from "../../lib/dom.ts";
import { applyPreset, CURRENT_WIDTH, movePane, PANE_SIZE, PRESETS, setCurrentWidth, setPaneSize, splitPanes, type PaneId, type PresenterLayout } from "../layout.ts";

const PANE_NAMES: Record<PaneId, string> = { next: "Next slide", timer: "Timer", notes: "Notes" };
/** One arrow-key press on a splitter moves it this much (percent of width / of two panes). */
const KEY_STEP = 2;

export interface LayoutViewDeps {
  stage: HTMLElement;
  editor: HTMLElement;
  layout(): PresenterLayout;
  /** Adopt (and, when `save`, store) a new layout; a drag saves only when it ends. */
  change(layout: PresenterLayout, save: boolean): void;
  reset(): void;
}

function pane(stage: HTMLElement, id: PaneId): HTMLElement {
  return $(`[data-pane="${id}"]`, stage);
}

/** Put the layout on the page. */
export function applyLayout(stage: HTMLElement, layout: PresenterLayout): void {
  stage.dataset.side = layout.side;
  stage.style.setProperty("--current-width", `${layout.currentWidth}fr`);
  stage.style.setProperty("--side-width", `${100 - layout.currentWidth}fr`);
  stage.style.setProperty("--pane-rows", layout.panes.map((p) => (p.id === "timer" ? `minmax(min-content, ${p.size}fr)` : `minmax(0, ${p.size}fr)`)).join(" "));
  layout.panes.forEach((p, i) => {
    const el = pane(stage, p.id);
    el.style.order = String(i);
    el.dataset.position = String(i);
  });
  document.documentElement.dataset.theme = layout.theme;
  // The splitters sit between neighbours in the current order.
  const between = stage.querySelectorAll<HTMLElement>(".splitter-h");
  between.forEach((s, i) => {
    const upper = layout.panes[i]!;
    const lower = layout.panes[i + 1]!;
    s.dataset.upper = upper.id;
    s.dataset.lower = lower.id;
    s.setAttribute("aria-label", `Resize ${PANE_NAMES[upper.id]} and ${PANE_NAMES[lower.id]}`);
    s.setAttribute("aria-valuenow", String(Math.round((upper.size / (upper.size + lower.size)) * 100)));
    pane(stage, lower.id).prepend(s);
  });
  const v = stage.querySelector<HTMLElement>(".splitter-v");
  v?.setAttribute("aria-valuenow", String(Math.round(layout.currentWidth)));
}

/** Dragging and arrow keys on the splitters. */
export function watchSplitters(deps: LayoutViewDeps): void {
  const { stage } = deps;
  const drag = (el: HTMLElement, onMove: (e: PointerEvent) => PresenterLayout) => {
    el.addEventListener("pointerdown", (down) => {
      down.preventDefault();
      el.setPointerCapture(down.pointerId);
      document.body.classList.add("is-resizing");
      let latest = deps.layout();
      const move = (e: PointerEvent) => {
        latest = onMove(e);
        deps.change(latest, false);
      };
      const up = () => {
        el.removeEventListener("pointermove", move);
        document.body.classList.remove("is-resizing");
        deps.change(latest, true);
      };
      el.addEventListener("pointermove", move);
      el.addEventListener("pointerup", up, { once: true });
      el.addEventListener("pointercancel", up, { once: true });
    });
  };
  const v = stage.querySelector<HTMLElement>(".splitter-v")!;
  drag(v, (e) => {
    const rect = stage.getBoundingClientRect();
    const fromLeft = ((e.clientX - rect.left) / rect.width) * 100;
    return setCurrentWidth(deps.layout(), deps.layout().side === "right" ? fromLeft : 100 - fromLeft);
  });
  v.addEventListener("keydown", (e) => {
    const dir = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!dir) return;
    e.preventDefault();
    const layout = deps.layout();
    deps.change(setCurrentWidth(layout, layout.currentWidth + dir * KEY_STEP * (layout.side === "right" ? 1 : -1)), true);
  });
  for (const s of stage.querySelectorAll<HTMLElement>(".splitter-h")) {
    drag(s, (e) => {
      const upper = pane(stage, s.dataset.upper as PaneId).getBoundingClientRect();
      const lower = pane(stage, s.dataset.lower as PaneId).getBoundingClientRect();
      return splitPanes(deps.layout(), s.dataset.upper as PaneId, s.dataset.lower as PaneId, (e.clientY - upper.top) / (lower.bottom - upper.top));
    });
    s.addEventListener("keydown", (e) => {
      const dir = e.key === "ArrowDown" ? 1 : e.key === "ArrowUp" ? -1 : 0;
      if (!dir) return;
      e.preventDefault();
      const layout = deps.layout();
      const a = layout.panes.find((p) => p.id === s.dataset.upper)!;
      const b = layout.panes.find((p) => p.id === s.dataset.lower)!;
      deps.change(splitPanes(layout, a.id, b.id, a.size / (a.size + b.size) + (dir * KEY_STEP) / 20), true);
    });
  }
}

/** The editor panel: presets, side, order, sizes, theme, reset. */
export function renderLayoutEditor(deps: LayoutViewDeps): void {
  const layout = deps.layout();
  const set = (next: PresenterLayout) => {
    deps.change(next, true);
    renderLayoutEditor(deps);
  };
  const slider = (id: string, label: string, value: number, min: number, max: number, step: number, onInput: (v: number) => PresenterLayout) => {
    const input = h("input", { type: "range", id, min, max, step, value: String(value) });
    input.addEventListener("input", () => deps.change(onInput(Number(input.value)), false));
    input.addEventListener("change", () => deps.change(onInput(Number(input.value)), true));
    return h("div", { class: "layout-row" }, h("label", { for: id }, label), input);
  };
  replace(
    $("#layout-body", deps.editor),
    h("div", { class: "layout-presets", role: "group", "aria-label": "Presets" }, ...Object.entries(PRESETS).map(([name, p]) => {
      const b = h("button", { type: "button", class: "btn btn-small", "data-preset": name }, p.label);
      b.addEventListener("click", () => set(applyPreset(deps.layout(), name)));
      return b;
    })),
    h("fieldset", { class: "layout-row" }, h("legend", {}, "Column"), ...(["left", "right"] as const).map((side) => {
      const input = h("input", { type: "radio", name: "layout-side", value: side, checked: layout.side === side });
      input.addEventListener("change", () => set({ ...deps.layout(), side }));
      return h("label", { class: "radio" }, input, side === "left" ? " On the left" : " On the right");
    })),
    slider("layout-current", "Current slide width", layout.currentWidth, CURRENT_WIDTH.min, CURRENT_WIDTH.max, 1, (v) => setCurrentWidth(deps.layout(), v)),
    h("ol", { class: "layout-panes" }, ...layout.panes.map((p, i) => {
      const up = h("button", { type: "button", class: "btn btn-small btn-icon", "aria-label": `Move ${PANE_NAMES[p.id]} up`, disabled: i === 0 }, "↑");
      const down = h("button", { type: "button", class: "btn btn-small btn-icon", "aria-label": `Move ${PANE_NAMES[p.id]} down`, disabled: i === layout.panes.length - 1 }, "↓");
      up.addEventListener("click", () => set(movePane(deps.layout(), p.id, -1)));
      down.addEventListener("click", () => set(movePane(deps.layout(), p.id, 1)));
      const size = h("input", { type: "range", min: PANE_SIZE.min, max: PANE_SIZE.max, step: 0.5, value: String(p.size), "aria-label": `${PANE_NAMES[p.id]} height`, "data-size": p.id });
      size.addEventListener("input", () => deps.change(setPaneSize(deps.layout(), p.id, Number(size.value)), false));
      size.addEventListener("change", () => deps.change(setPaneSize(deps.layout(), p.id, Number(size.value)), true));
      return h("li", { class: "layout-pane" }, h("span", { class: "layout-pane-name" }, PANE_NAMES[p.id]), up, down, size);
    })),
    h("fieldset", { class: "layout-row" }, h("legend", {}, "Theme"), ...(["dark", "light"] as const).map((theme) => {
      const input = h("input", { type: "radio", name: "layout-theme", value: theme, checked: layout.theme === theme });
      input.addEventListener("change", () => set({ ...deps.layout(), theme }));
      return h("label", { class: "radio" }, input, theme === "dark" ? " Dark" : " Light");
    })),
  );
}
