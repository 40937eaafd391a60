/**
 * @module client/presenter/views/help-view
 * The `?` panel: the key map as it is bound (made from client/presenter/keymap.ts, the same
 * list the README shows) and the presenter's settings.
 */
import { h, replace } from "../../lib/dom.ts";
import { DEFAULT_BINDINGS, keyTable, type Binding } from "../keymap.ts";

export function renderKeys(list: HTMLElement, bindings: readonly Binding[] = DEFAULT_BINDINGS): void {
  const rows = keyTable(bindings).flatMap((row) => [
    h("dt", {}, ...row.keys.flatMap((k, i) => [i ? " " : null, h("kbd", {}, k)])),
    h("dd", {}, row.label),
  ]);
  replace(list, ...rows);
}
