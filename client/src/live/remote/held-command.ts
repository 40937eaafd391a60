/**
 * @module client/live/remote/held-command
 * A remote's press that cannot reach the presenter yet — the presenter window is away (closed,
 * reloading, its network gone) or the remote's own connection is down — is not lost: the last
 * press is held and sent when both are back, so "Next" pressed during a two-second Wi-Fi blip
 * still moves the talk. Only the last press is held (a newer one replaces it: three "Next"
 * presses into the void move one slide, never three at once on return), and only for
 * HOLD_MS: a press older than that is dropped and the remote says so plainly, because a
 * slide jumping minutes after the speaker pressed would surprise them in front of the room.
 *
 * Pure (time comes in as `now`), so the rule is tested without a browser; the sentences the
 * remote shows live here too, so what it says is what this module does.
 */

/** What a remote can send the presenter (a subset of the protocol's command message). */
export type HeldAction = { action: "next" | "prev" } | { action: "blank"; blank: "black" | "none" };

/** How long a press waits for the presenter: a reload or a Wi-Fi blip, not a long break. */
export const HOLD_MS = 60_000;

export interface Held {
  command: HeldAction;
  at: number;
}

/** The press in words, as the remote's buttons name it. */
export function actionName(command: HeldAction): string {
  if (command.action === "blank") return command.blank === "black" ? "Black screen" : "Back from black";
  return command.action === "next" ? "Next" : "Previous";
}

/** The held press to send now (fresh), or to report as dropped (older than HOLD_MS). */
export function release(held: Held | null, now: number): { send: HeldAction | null; dropped: HeldAction | null } {
  if (!held) return { send: null, dropped: null };
  return now - held.at <= HOLD_MS ? { send: held.command, dropped: null } : { send: null, dropped: held.command };
}

/** Whether a held press has outlived HOLD_MS (the remote then says it was dropped). */
export function expired(held: Held | null, now: number): boolean {
  return !!held && now - held.at > HOLD_MS;
}

export type RemoteLink = "connected" | "away" | "offline";

/** What the remote's status line says, for the link's state and the press held, sent or dropped. */
export function remoteStatus(link: RemoteLink, held: Held | null, last: { sent?: HeldAction; dropped?: HeldAction } = {}): string {
  const seconds = Math.round(HOLD_MS / 1000);
  if (held) {
    const name = actionName(held.command);
    const why = link === "offline" ? "This remote is not connected" : "The presenter is away";
    return `${why}: your last press, “${name}”, is sent when ${link === "offline" ? "the connection is back" : "they return"} (if within ${seconds} s).`;
  }
  if (last.dropped) {
    const name = actionName(last.dropped);
    return `${link === "connected" ? "Connected. " : ""}“${name}” was dropped: it could not reach the presenter within ${seconds} s. Press again if you still want it.`;
  }
  if (link === "offline") return "Connecting to the server…";
  if (link === "away") return `The presenter is away. A press now waits for them (only the last one, up to ${seconds} s).`;
  if (last.sent) return `Connected. “${actionName(last.sent)}”, pressed while the presenter was away, was sent on their return.`;
  return "Connected";
}
