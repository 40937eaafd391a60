/**
 * @module client/live/presenter/commands
 * What a remote's command means to the presenter: the named presenter actions to dispatch
 * (pure, so tested without a browser). Navigation goes through the same actions as the keys;
 * `blank` sets the screen the remote asked for (absent: toggles black), never flips it blindly,
 * so two remotes pressing "black" at once still leave it black.
 */
import type { ActionName } from "../../presenter/actions.ts";
import type { Blank } from "../../presenter/state.ts";

export interface RemoteCommand {
  action: "next" | "prev" | "first" | "last" | "goto" | "blank";
  page?: number;
  blank?: Blank;
}

export function commandActions(command: RemoteCommand, blank: Blank): { name: ActionName; arg?: unknown }[] {
  switch (command.action) {
    case "goto":
      return command.page ? [{ name: "goToPage", arg: command.page }] : [];
    case "blank": {
      const want = command.blank ?? (blank === "black" ? "none" : "black");
      if (want === blank) return [];
      // blackout/whiteout toggle their own colour: leaving one screen for the other takes one press of the other.
      if (want === "none") return [{ name: blank === "black" ? "blackout" : "whiteout" }];
      return [{ name: want === "black" ? "blackout" : "whiteout" }];
    }
    default:
      return [{ name: command.action }];
  }
}
