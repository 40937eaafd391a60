/**
 * @module live/audience-relay
 * The audience's messages on this instance's sockets (issue 23): who may send which (roles),
 * the model's answer (./audience.ts) sent to the talk's viewers or to its presenter and
 * remotes, and the 100 ms tick on the injected scheduler that sends up-votes, poll results and
 * reaction sums coalesced. Kept apart from ./hub.ts, which hands it every audience message
 * and asks it for `hello.audience`.
 *
 * Several instances serving one talk (the PostgreSQL bus): each accepted change is published
 * as an event (./audience-events.ts) that the other instances apply to their copies with the
 * same reducer and send to their own sockets, as this one did; reactions go as one sum per tick.
 * So limits are checked by the instance a viewer is connected to, on its copy, which holds
 * every change the bus has brought it (the per-id and per-address counts are shared that way,
 * up to the bus's few milliseconds).
 *
 * The audience is written to the talk's row (viewers' changes within a second, the presenter's
 * at once) and read back when the room loads, so a restart keeps it. Every instance writes its
 * whole copy, after applying a change whichever instance accepted it: a write by a copy that
 * has not yet received another instance's latest change may overwrite the row with a copy
 * without it, but that copy receives the change milliseconds later and writes again within a
 * second (at once for the presenter's changes). Once changes stop, every copy holds all of
 * them, so the last write — whoever makes it — holds all of them too; a crash of every
 * instance loses at most the last second, as with one instance.
 */
import { randomBytes } from "../tools/random.ts";
import type { LiveAudienceViewT } from "../shared/live-audience-protocol.ts";
import { LIVE_CLOSE, type LiveClientMessageT, type LiveRoleT, type LiveServerMessageT } from "../shared/live-protocol.ts";
import { Audience, type AudienceResult, type Outgoing } from "./audience.ts";
import { type AudienceEvent, STAFF_EVENTS } from "./audience-events.ts";
import type { Room } from "./room.ts";
import type { Scheduler } from "./scheduler.ts";
import type { LiveSocket, SocketPolicy } from "./socket-policy.ts";

/** Up-votes, poll results and reactions are sent to the presenter and remotes at most this often. */
export const AUDIENCE_TICK_MS = 100;
/**
 * ... and to viewers at most this often: each such frame goes to every viewer, as a slide
 * change does. bench/live.ts, results and reactions shown to 2,000 viewers at 100 ms: slide
 * changes' p99 3.25× the quiet one's; a person reading a chart or watching emoji rise sees no
 * difference between 2 and 10 updates a second.
 */
export const AUDIENCE_VIEWER_TICK_MS = 500;
/** Questions, votes and taps are written to the row at most this often (a restart loses at most that); the presenter's and remotes' changes at once. */
const AUDIENCE_SAVE_MS = 1_000;

export type AudienceMessage = Extract<LiveClientMessageT, { type: (typeof AUDIENCE_TYPES)[number] }>;
const AUDIENCE_TYPES = ["ask", "upvote", "vote", "react", "qa", "moderate", "show", "pollStart", "pollClose", "pollShow", "reactionsShow"] as const;

/** Which role may send which audience message: the presenter runs the Q&A, a remote may show a question and run a poll. */
const MAY: Record<AudienceMessage["type"], readonly LiveRoleT[]> = {
  ask: ["viewer"],
  upvote: ["viewer"],
  vote: ["viewer"],
  react: ["viewer"],
  qa: ["presenter"],
  moderate: ["presenter"],
  pollShow: ["presenter"],
  reactionsShow: ["presenter"],
  show: ["presenter", "control"],
  pollStart: ["presenter", "control"],
  pollClose: ["presenter", "control"],
};

export function isAudienceMessage(message: LiveClientMessageT): message is AudienceMessage {
  return (AUDIENCE_TYPES as readonly string[]).includes(message.type);
}

/** The audience of a room being loaded: the row's, or an empty one when it has none (or a damaged one). */
export function newAudience(clock: () => number, audienceJson: string | null): Audience {
  let saved: unknown = null;
  try {
    saved = audienceJson === null ? null : JSON.parse(audienceJson);
  } catch {
    // A damaged row costs the audience's history, not the talk.
  }
  return new Audience({ clock, newId: () => randomBytes(9).toString("base64url") }, saved);
}

export interface AudienceRelayDeps {
  policy: SocketPolicy;
  scheduler: Scheduler;
  /** Votes one address may cast per poll and per question: the seats it may hold. */
  perAddress: () => number;
  /** Write the room's audience snapshot to its row (a failure is logged, never thrown). */
  save: (room: Room, audienceJson: string) => Promise<void>;
  /** The audience as the row holds it now. */
  read: (room: Room) => Promise<string | null>;
  /** An accepted change, for the other instances serving the talk (the bus). */
  publish: (room: Room, event: AudienceEvent) => void;
  /**
   * One encoded message to every viewer of the room on this instance, fanned out natively (Bun's
   * pub/sub): a crowd's questions and vote updates go to hundreds of viewers many times a
   * second, and one send per viewer from here cost the event loop the slide changes' turn.
   */
  publishViewers: (room: Room, data: string) => void;
}

export class AudienceRelay {
  constructor(private readonly deps: AudienceRelayDeps) {}

  handle(ws: LiveSocket, room: Room, message: AudienceMessage): void {
    const role = ws.data.role;
    if (role === null || !MAY[message.type].includes(role) || (role === "presenter" && room.presenter !== ws)) {
      const why = role === "viewer" ? "Viewers ask, up-vote, vote and react; the presenter runs the Q&A and the polls." : `A ${role ?? "joining"} socket may not send "${message.type}".`;
      return this.deps.policy.strike(ws, "NOT_ALLOWED", why, message.type);
    }
    if (role === "control" && ws.data.generation !== room.row.controlGeneration) {
      return this.deps.policy.refuse(ws, "CONTROL_ROTATED", "The presenter renewed the remote link; open the new one.", LIVE_CLOSE.CONTROL_ROTATED);
    }
    const result = this.apply(ws, room, message);
    if (result === null) return;
    if (!result.ok) return this.deps.policy.strike(ws, result.code, result.message, message.type);
    const relay = () => {
      this.send(room, result.out);
      if (result.event) this.deps.publish(room, result.event);
      if (result.tick) this.scheduleTick(room);
    };
    if (role === "viewer") {
      relay();
      return this.scheduleSave(room);
    }
    // The presenter's and remotes' changes are written before anyone hears of them, here or on
    // another instance: once anyone has seen one, a restart keeps it, and an instance that
    // loads the talk from the row from then on has it (the vote a viewer sends there on the
    // poll it just saw is not refused NO_POLL). Relayed in the order they were made.
    const written = this.flush(room);
    const relayLate = () => {
      relay();
      // Built before the write, sent after it: a tick in between may have sent newer counts.
      if (room.audience.refresh(result.out)) this.scheduleTick(room);
    };
    room.audienceStaff = room.audienceStaff.then(() => written).then(relayLate, relayLate);
  }

  /** A change another instance accepted: applied to this copy, sent to this instance's sockets, saved. */
  received(room: Room, event: AudienceEvent): void {
    const { out, tick } = room.audience.apply(event);
    if (STAFF_EVENTS.has(event.type)) void this.flush(room);
    else this.scheduleSave(room);
    this.send(room, out);
    if (tick) this.scheduleTick(room);
  }

  /** Write the audience now (a presenter's or remote's change, the room unloading, another instance loading it). */
  flush(room: Room): Promise<void> {
    room.audienceSaveTimer?.cancel();
    room.audienceSaveTimer = null;
    // One write at a time per room, each taking the copy as it is when it starts: on a pool of
    // connections an older snapshot could otherwise commit after a newer one.
    const write = room.audienceWrites.then(() => this.deps.save(room, JSON.stringify(room.audience.snapshot())));
    room.audienceWrites = write.catch(() => {});
    return write;
  }

  /**
   * Another instance wrote its copy to the row for this one, which loaded the talk after it
   * (./audience-merge.ts): the row merged into this copy, what was new told to this instance's
   * sockets, and the merged copy written back within a second.
   */
  async catchUp(room: Room): Promise<void> {
    const json = await this.deps.read(room);
    if (json === null) return;
    let saved: unknown;
    try {
      saved = JSON.parse(json);
    } catch {
      return;
    }
    const { out, tick } = room.audience.merge(saved);
    this.send(room, out);
    if (tick) this.scheduleTick(room);
    if (out.length > 0 || tick) this.scheduleSave(room);
  }

  /** `hello.audience` for a socket that just joined. */
  hello(room: Room, ws: LiveSocket): LiveAudienceViewT {
    const role = ws.data.role ?? "viewer";
    return room.audience.hello(role, role === "viewer" ? (ws.data.viewerId ?? undefined) : undefined);
  }

  private apply(ws: LiveSocket, room: Room, message: AudienceMessage): AudienceResult | null {
    const audience = room.audience;
    const actor = { viewerId: ws.data.viewerId ?? "", addressKey: ws.data.addressKey, perAddress: this.deps.perAddress() };
    switch (message.type) {
      case "ask":
        return audience.ask(actor, message.text, message.name);
      case "upvote":
        return audience.upvote(actor, message.questionId);
      case "vote":
        return audience.vote(actor, message.pollId, message.choices);
      case "react": {
        // Taps before the presenter's first state belong to no slide: not counted.
        const page = room.snapshot.state?.page;
        return page === undefined ? null : audience.react(page, message.counts);
      }
      case "qa":
        return audience.setQa(message.open, message.moderated);
      case "moderate":
        return audience.moderate(message.questionId, message.action);
      case "show":
        return audience.show(message.questionId);
      case "pollStart":
        return audience.pollStart(message, message.source);
      case "pollClose":
        return audience.pollClose(message.pollId);
      case "pollShow":
        return audience.pollShow(message.pollId);
      case "reactionsShow":
        return audience.setReactionsShown(message.show);
    }
  }

  /**
   * Each message encoded once; `staff` is the presenter and the remotes, `viewers` every viewer
   * here. A change sent at once supersedes what waits for the viewers' tick about the same
   * thing: a hidden question is not brought back by an up-vote counted before it, nor hidden
   * results or reactions sent after all.
   */
  private send(room: Room, out: Outgoing[]): void {
    for (const { to, message } of out) {
      if (to === "viewers") {
        supersede(room.audienceForViewers, message);
        this.deps.publishViewers(room, JSON.stringify(message));
      } else broadcast([room.presenter, ...room.controls], message);
    }
  }

  /** A tick's messages: the staff's now, the viewers' up-votes, results and reactions coalesced until their slower tick. */
  private sendTick(room: Room, out: Outgoing[]): void {
    const now: Outgoing[] = [];
    for (const item of out) {
      const key = item.to === "viewers" ? keyOf(item.message) : null;
      // Up-votes, results and reactions wait for the viewers' tick; anything else goes now.
      if (key === null) now.push(item);
      else coalesce(room.audienceForViewers, key, item.message);
    }
    this.send(room, now);
    if (room.audienceForViewers.size > 0) {
      room.audienceViewersTimer ??= this.deps.scheduler.after(AUDIENCE_VIEWER_TICK_MS, () => {
        room.audienceViewersTimer = null;
        const waiting = [...room.audienceForViewers.values()];
        room.audienceForViewers.clear();
        for (const message of waiting) this.deps.publishViewers(room, JSON.stringify(message));
      });
    }
  }

  private scheduleSave(room: Room): void {
    room.audienceSaveTimer ??= this.deps.scheduler.after(AUDIENCE_SAVE_MS, () => void this.flush(room));
  }

  private scheduleTick(room: Room): void {
    room.audienceTimer ??= this.deps.scheduler.after(AUDIENCE_TICK_MS, () => {
      room.audienceTimer = null;
      this.sendTick(room, room.audience.tick());
      // This tick's taps here, summed: one bus message per tick at most, never one per tap.
      const reactions = room.audience.takeReactions();
      if (reactions) this.deps.publish(room, reactions);
    });
  }
}

function broadcast(sockets: Iterable<LiveSocket | null>, message: LiveServerMessageT): void {
  const data = JSON.stringify(message);
  for (const ws of sockets) ws?.send(data);
}

/** What a tick message for viewers is about: the latest one about it replaces the one before (reactions add up). */
function keyOf(message: LiveServerMessageT): string | null {
  switch (message.type) {
    case "question":
      return `question:${message.question.id}`;
    case "questionGone":
      return `question:${message.id}`;
    case "pollResults":
      return "results";
    case "reactions":
      return `reactions:${message.page}`;
    default:
      return null;
  }
}

function coalesce(waiting: Map<string, LiveServerMessageT>, key: string, message: LiveServerMessageT): void {
  const before = waiting.get(key);
  if (message.type === "reactions" && before?.type === "reactions") {
    const counts: Record<string, number> = {};
    for (const [emoji, n] of [...Object.entries(before.counts), ...Object.entries(message.counts)]) counts[emoji] = (counts[emoji] ?? 0) + (n ?? 0);
    waiting.set(key, { ...message, counts });
  } else {
    // A re-set key keeps its first place in the map: the order viewers get things in holds.
    waiting.set(key, message);
  }
}

/** Drop what waits for the viewers' tick that `message`, sent now, makes stale. */
function supersede(waiting: Map<string, LiveServerMessageT>, message: LiveServerMessageT): void {
  if (waiting.size === 0) return;
  const key = keyOf(message);
  if (key) waiting.delete(key);
  // A poll opened, closed, shown or hidden: results waiting are of the old state.
  if (message.type === "poll") waiting.delete("results");
  // Reactions turned off for viewers: none still rise.
  if (message.type === "reactionsShow" && !message.show) for (const k of [...waiting.keys()]) if (k.startsWith("reactions:")) waiting.delete(k);
}
