/**
 * @module client/lib/navigation
 * Keyboard → presenter action, kept pure so it is unit-tested. Digits build a slide number
 * that Enter jumps to.
 */
export type Action =
  | { type: "next" }
  | { type: "prev" }
  | { type: "first" }
  | { type: "last" }
  | { type: "goto"; slide: number }
  | { type: "digit"; buffer: string }
  | { type: "blank" }
  | { type: "fullscreen" }
  | { type: "overview" }
  | { type: "help" }
  | { type: "audience" }
  | { type: "timer-toggle" }
  | { type: "timer-reset" }
  | { type: "escape" }
  | null;

export function keyAction(key: string, buffer: string): Action {
  if (/^[0-9]$/.test(key)) return buffer.length < 5 ? { type: "digit", buffer: buffer + key } : { type: "digit", buffer };
  if (key === "Enter" && buffer) return { type: "goto", slide: Number(buffer) };
  switch (key) {
    case "ArrowRight":
    case "ArrowDown":
    case " ":
    case "PageDown":
    case "Enter":
    case "n":
      return { type: "next" };
    case "ArrowLeft":
    case "ArrowUp":
    case "PageUp":
    case "Backspace":
    case "p":
      return { type: "prev" };
    case "Home":
      return { type: "first" };
    case "End":
      return { type: "last" };
    case "b":
    case "B":
    case ".":
      return { type: "blank" };
    case "f":
    case "F":
      return { type: "fullscreen" };
    case "g":
    case "G":
    case "o":
      return { type: "overview" };
    case "?":
      return { type: "help" };
    case "a":
    case "A":
      return { type: "audience" };
    case "t":
    case "T":
      return { type: "timer-toggle" };
    case "r":
    case "R":
      return { type: "timer-reset" };
    case "Escape":
      return { type: "escape" };
  }
  return null;
}

export function clampSlide(slide: number, pageCount: number): number {
  if (!Number.isFinite(slide)) return 1;
  return Math.min(Math.max(1, Math.trunc(slide)), Math.max(1, pageCount));
}

/** The deck id of `/present/{deck}` and `/view/{deck}`. */
export function deckIdFromPath(pathname: string = location.pathname): string {
  return decodeURIComponent(pathname.split("/")[2] ?? "");
}
