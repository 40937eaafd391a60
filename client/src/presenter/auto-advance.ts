/**
 * @module client/presenter/auto-advance
 * Pages that advance by themselves: a page with a `/Dur` (Beamer's `\transduration`) moves on
 * after that many seconds, as in pdfpc
 * (presentation_controller.vala, start_autoadvance_timer), whose behaviour this mirrors:
 *
 * - the wait starts when the presenter lands on the page, and only while the talk's timer
 *   runs — not before the talk started, not while it is paused (a resume waits the whole
 *   duration again); `/Dur 0` moves on at once;
 * - it goes to the next page that is not hidden (pdfpc's nearest_nonhidden), a plain Next;
 * - any page change in the meantime — a key, a click, the remote — drops the wait and the
 *   page arrived at starts its own: → during a run skips a step and the run goes on from
 *   there, ← steps back and the run starts over from that step, a jump out of the build ends it;
 * - a frozen audience window holds the run (pdfpc's frozen window never enters the next page).
 *
 * The audience window and live viewers follow because they follow the presenter's state.
 * `autoAdvancePlan` says what is due (pure); `AutoAdvance` arms one timer for it through an
 * injected clock, and the page dispatches the `autoAdvance` action when it fires.
 */
import { nextShownPage, pageDuration, type DeckLayout } from "../model/deck-layout.ts";
import type { PresenterState } from "./state.ts";

export interface AutoAdvancePlan {
  /** The page the wait belongs to: the advance happens only if the presenter is still there. */
  page: number;
  /** Where it goes. */
  to: number;
  seconds: number;
}

/** What is due on the page shown now, or null: no `/Dur`, the timer not running, a frozen audience, or nowhere to go. */
export function autoAdvancePlan(state: PresenterState, layout: DeckLayout): AutoAdvancePlan | null {
  const seconds = pageDuration(layout, state.page);
  if (seconds === null || state.timer.status !== "running" || state.frozen) return null;
  const to = nextShownPage(layout, state.page);
  return to === null ? null : { page: state.page, to, seconds };
}

/**
 * The `autoAdvance` action's step: the plan's page left for the next, as Next does — unless
 * the presenter has moved on since (the wait was for another page) or the run no longer holds.
 * A number being typed stays typed: nobody pressed anything.
 */
export function advanceFrom(state: PresenterState, layout: DeckLayout, page: unknown, goTo: (state: PresenterState, page: number) => PresenterState): PresenterState {
  if (typeof page !== "number" || page !== state.page) return state;
  const plan = autoAdvancePlan(state, layout);
  if (!plan) return state;
  const moved = goTo(state, plan.to);
  return { ...moved, entry: state.entry, entryTool: state.entryTool, entryAt: state.entryAt };
}

/** A clock to wait on: the window's timers in the page, a fake one in tests. */
export interface WaitClock {
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * One pending advance at a time. `update` is called with every new presenter state: a plan
 * for the same page, still due, keeps its wait (a pen stroke does not restart it); any other
 * plan — another page, or the timer just resumed — starts a new one; no plan drops it.
 */
export class AutoAdvance {
  private pending: { key: string; handle: unknown } | null = null;

  constructor(
    private readonly clock: WaitClock,
    private readonly fire: (page: number) => void,
  ) {}

  update(plan: AutoAdvancePlan | null): void {
    const key = plan ? `${plan.page}:${plan.seconds}` : null;
    if (this.pending && this.pending.key === key) return;
    this.stop();
    if (!plan || key === null) return;
    const page = plan.page;
    const handle = this.clock.setTimeout(() => {
      this.pending = null;
      this.fire(page);
    }, Math.round(plan.seconds * 1000));
    this.pending = { key, handle };
  }

  stop(): void {
    if (this.pending) this.clock.clearTimeout(this.pending.handle);
    this.pending = null;
  }
}
