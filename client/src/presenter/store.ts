/**
 * @module client/presenter/store
 * The action manager: holds the presenter state, runs named actions against it and tells
 * subscribers (views, the audience channel, persistence) what changed. Keys, buttons,
 * gestures and remote commands all come through `dispatch`, so every change has a name.
 */
import { ACTIONS, type ActionContext, type ActionName, type Effect } from "./actions.ts";
import type { PresenterState } from "./state.ts";

export type Listener = (state: PresenterState, previous: PresenterState, action: ActionName | null) => void;

export class PresenterStore {
  private listeners: Listener[] = [];

  constructor(
    private state: PresenterState,
    private readonly context: () => ActionContext,
    private readonly onEffect: (effect: Effect) => void = () => {},
  ) {}

  get current(): PresenterState {
    return this.state;
  }

  /** Run an action by name; false when no such action exists. */
  dispatch(name: ActionName, arg?: unknown): boolean {
    const action = ACTIONS.get(name);
    if (!action) return false;
    this.set(action.perform(this.state, this.context(), arg), name);
    if (action.effect) this.onEffect(action.effect);
    return true;
  }

  /** Replace the state wholesale (restoring a saved talk); listeners hear it as no action. */
  set(next: PresenterState, action: ActionName | null = null): void {
    const previous = this.state;
    if (next === previous) return;
    this.state = next;
    for (const listener of this.listeners) listener(next, previous, action);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }
}
