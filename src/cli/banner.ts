/**
 * @module cli/banner
 * What `deckhand serve` prints for a person at a terminal, as PocketBase does: where it
 * serves, the docs, how to hand over a deck, and, when it listens beyond this computer, the
 * network addresses with a QR code of the first one, for a phone or the venue PC to open.
 */
import type { NetworkInterfaceInfo } from "node:os";
import { renderUnicodeCompact } from "uqr";

export interface BannerInput {
  version: string;
  host: string;
  port: number;
  tls: boolean;
  baseUrl: string | null;
  requireAuth: boolean;
  dataDir: string;
  /** `os.networkInterfaces()`. */
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>;
  color: boolean;
}

const WILDCARD = new Set(["0.0.0.0", "::", "[::]", ""]);

function isLoopback(host: string): boolean {
  return host === "localhost" || host.startsWith("127.") || host === "::1" || host === "[::1]";
}

/** Private ranges (RFC 1918): the addresses a phone on the same Wi-Fi can reach, first. */
function isPrivate(address: string): boolean {
  return /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(address);
}

/** Bridges of containers and VMs, VPN tunnels: reachable from this computer only, or odd. */
const VIRTUAL = /^(docker|br-|cni|podman|virbr|veth|vboxnet|vmnet|utun|tun|tap|zt|lxc|lxd|flannel|cali|kube)/;

/**
 * The IPv4 addresses other machines can use: not loopback, not link-local; real interfaces
 * before container/VM bridges, private ranges (a venue's Wi-Fi) first among them.
 */
export function networkAddresses(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  const found = Object.entries(interfaces).flatMap(([name, list]) =>
    (list ?? [])
      .filter((i) => i.family === "IPv4" && !i.internal && !i.address.startsWith("169.254."))
      .map((i) => ({ address: i.address, rank: (VIRTUAL.test(name) ? 2 : 0) + (isPrivate(i.address) ? 0 : 1) })),
  );
  // Array.prototype.sort is stable: the system's interface order breaks ties.
  return [...new Set(found.sort((a, b) => a.rank - b.rank).map((f) => f.address))];
}

export function bannerText(input: BannerInput): string {
  const bold = (text: string) => (input.color ? `\x1b[1m${text}\x1b[22m` : text);
  const dim = (text: string) => (input.color ? `\x1b[2m${text}\x1b[22m` : text);
  const scheme = input.tls ? "https" : "http";
  const wildcard = WILDCARD.has(input.host);
  const local = `${scheme}://${wildcard || isLoopback(input.host) ? (input.host.includes(":") ? "[::1]" : "127.0.0.1") : hostPart(input.host)}:${input.port}`;
  const lan = wildcard ? networkAddresses(input.interfaces).map((a) => `${scheme}://${a}:${input.port}`) : isLoopback(input.host) ? [] : [local];
  // Handoff links (and so the examples) use --base-url when it is set.
  const main = input.baseUrl ?? local;

  const lines = [
    `${bold(`deckhand ${input.version}`)} is serving ${bold(local)}`,
    ...(input.baseUrl ? [`├─ Public URL: ${input.baseUrl}  ${dim("(handoff links use it)")}`] : []),
    `├─ Library:    ${main}/`,
    `├─ API docs:   ${main}/docs`,
    `├─ MCP:        ${main}/mcp`,
    `└─ Data:       ${input.dataDir}`,
    "",
    "Hand over a deck:",
    `  curl ${input.requireAuth ? '-H "Authorization: Bearer $DECKHAND_TOKEN" ' : ""}-F file=@talk.pdf ${main}/api/present`,
    `  ${dim(`then open the "url" it answers in the browser that will present${input.requireAuth ? " (a token: deckhand token create)" : ""}.`)}`,
  ];
  if (wildcard || !isLoopback(input.host)) {
    lines.push("", "On your network:");
    if (lan.length === 0) lines.push(`  ${dim("no network address found on this computer")}`);
    lan.forEach((url, i) => lines.push(`  ${url}/${i === 0 && !input.baseUrl ? dim("  (QR code below)") : ""}`));
  } else {
    lines.push("", dim("Only this computer can connect. For a phone or the venue PC: deckhand serve --host 0.0.0.0"));
  }
  const qrTarget = input.baseUrl ?? lan[0];
  if (qrTarget) {
    if (input.baseUrl) lines.push("", `${input.baseUrl}/ ${dim("(QR code below)")}`);
    lines.push("", renderUnicodeCompact(`${qrTarget}/`, { ecc: "L" }));
  }
  if (lan.length > 0 && !input.tls && !input.baseUrl?.startsWith("https:")) {
    lines.push("", dim("Over plain http, browsers on other computers cannot keep decks offline (no service worker)."), dim("For that, serve HTTPS: --tls-cert and --tls-key, or a proxy in front (see docs/operating/https-and-proxies.md)."));
  }
  lines.push("", dim("Ctrl+C stops the server."), "");
  return `${lines.join("\n")}\n`;
}

function hostPart(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
