/**
 * @module client/presenter/views/menu-view
 * On a small screen (a phone upright or on its side) the presenter's two toolbars fold into
 * one menu behind the "Menu" button, so that the slide comes first; on a laptop the button
 * is not shown and the toolbars are where they always were (client/styles/presenter-small-screens.css decides which, by
 * media query: this module only keeps the disclosure's state). A disclosure, not an ARIA
 * menu: the button says whether it is open (`aria-expanded`), the controls follow it in Tab
 * order and keep their own names and keys. It closes when one of its buttons has acted
 * (the tool is in hand, the slide in sight again), on Esc (focus back on the button), on a
 * press outside it (which does nothing else), and when the window grows past the
 * small-screen layout.
 */

/** The media query under which client/styles/presenter-small-screens.css folds the toolbars (keep the two in step). */
const SMALL_SCREEN_QUERY = "(max-width: 900px), (max-height: 500px) and (orientation: landscape)";

export function watchMenu(button: HTMLElement, menu: HTMLElement): void {
  const isOpen = () => button.getAttribute("aria-expanded") === "true";
  const set = (open: boolean) => {
    button.setAttribute("aria-expanded", String(open));
    document.body.dataset.menu = open ? "open" : "closed";
  };
  const close = (focusButton = false) => {
    if (!isOpen()) return;
    set(false);
    if (focusButton) button.focus();
  };
  button.addEventListener("click", () => set(!isOpen()));
  // After the button's own handler (the action has been dispatched). Pen colours and widths
  // keep it open: a speaker picks a colour and a width together.
  menu.addEventListener("click", (event) => {
    const target = (event.target as HTMLElement).closest("button");
    if (!target || target.matches("[data-color], [data-width]")) return;
    close();
  });
  // Capture, before the presenter's own Esc (which would act on the talk): Esc here is the menu's.
  document.addEventListener(
    "keydown",
    (event) => {
      if (event.key !== "Escape" || !isOpen() || event.defaultPrevented) return;
      event.preventDefault();
      close(true);
    },
    true,
  );
  // A press outside only closes the menu: the tap that dismisses it must not also advance the
  // slide, draw a dot or start a swipe (capture, so the page's own handlers never see it).
  let swallowClick = false;
  window.addEventListener(
    "pointerdown",
    (event) => {
      swallowClick = false;
      const target = event.target as Node;
      if (!isOpen() || menu.contains(target) || button.contains(target)) return;
      close();
      swallowClick = true;
      event.stopPropagation();
      event.preventDefault();
    },
    true,
  );
  window.addEventListener(
    "click",
    (event) => {
      if (!swallowClick) return;
      swallowClick = false;
      event.stopPropagation();
      event.preventDefault();
    },
    true,
  );
  const small = window.matchMedia(SMALL_SCREEN_QUERY);
  small.addEventListener("change", () => {
    if (!small.matches) close();
  });
  set(false);
}
