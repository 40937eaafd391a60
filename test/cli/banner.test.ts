import { describe, expect, test } from "bun:test";
import type { NetworkInterfaceInfo } from "node:os";
import { bannerText, networkAddresses } from "../../src/cli/banner.ts";
import { drawsQrOf, qrLines } from "../helpers/qr.ts";

const v4 = (address: string, internal = false): NetworkInterfaceInfo => ({ address, family: "IPv4", internal, netmask: "255.255.255.0", mac: "00:00:00:00:00:00", cidr: `${address}/24` });
const v6 = (address: string): NetworkInterfaceInfo => ({ address, family: "IPv6", internal: false, netmask: "ffff:ffff:ffff:ffff::", mac: "00:00:00:00:00:00", cidr: `${address}/64`, scopeid: 0 });

const interfaces = {
  lo: [v4("127.0.0.1", true)],
  docker0: [v4("172.17.0.1")],
  eth0: [v4("203.0.113.7"), v6("2001:db8::7")],
  wlan0: [v4("192.168.1.20"), v4("169.254.3.3")],
};

const base = { version: "9.9.9", port: 8080, tls: false, baseUrl: null, requireAuth: false, dataDir: "/srv/deckhand-data", interfaces, color: false };

describe("network addresses", () => {
  test("IPv4 only, no loopback or link-local; private on a real interface first, container bridges last", () => {
    expect(networkAddresses(interfaces)).toEqual(["192.168.1.20", "203.0.113.7", "172.17.0.1"]);
    expect(networkAddresses({ lo: [v4("127.0.0.1", true)] })).toEqual([]);
  });
});

describe("the start-up banner", () => {
  test("on loopback: the URL, docs, MCP, data dir, the curl line, and how to open it to the network; no QR", () => {
    const text = bannerText({ ...base, host: "127.0.0.1" });
    expect(text).toContain("deckhand 9.9.9 is serving http://127.0.0.1:8080");
    expect(text).toContain("API docs:   http://127.0.0.1:8080/docs");
    expect(text).toContain("MCP:        http://127.0.0.1:8080/mcp");
    expect(text).toContain("Data:       /srv/deckhand-data");
    expect(text).toContain("curl -F file=@talk.pdf http://127.0.0.1:8080/api/present");
    expect(text).toContain("deckhand serve --host 0.0.0.0");
    expect(text).not.toContain("On your network");
    expect(qrLines(text)).toEqual([]);
    expect(text).not.toContain("\x1b[");
  });

  test("on 0.0.0.0: every network address, a QR code of the first, and the plain-http warning", () => {
    const text = bannerText({ ...base, host: "0.0.0.0" });
    expect(text).toContain("is serving http://127.0.0.1:8080");
    for (const address of ["192.168.1.20", "203.0.113.7", "172.17.0.1"]) expect(text).toContain(`  http://${address}:8080/`);
    expect(text.indexOf("192.168.1.20")).toBeLessThan(text.indexOf("203.0.113.7"));
    const qr = qrLines(text);
    expect(qr.length).toBeGreaterThan(10);
    expect(drawsQrOf(qr, "http://192.168.1.20:8080/")).toBe(true);
    expect(drawsQrOf(qr, "http://203.0.113.7:8080/")).toBe(false);
    expect(text).toContain("serve HTTPS");
  });

  test("with --base-url and --require-auth: examples use the public URL and a Bearer token, the QR points there", () => {
    const text = bannerText({ ...base, host: "127.0.0.1", tls: false, baseUrl: "https://talks.example.org", requireAuth: true });
    expect(text).toContain("Public URL: https://talks.example.org");
    expect(text).toContain('curl -H "Authorization: Bearer $DECKHAND_TOKEN" -F file=@talk.pdf https://talks.example.org/api/present');
    expect(text).toContain("deckhand token create");
    expect(drawsQrOf(qrLines(text), "https://talks.example.org/")).toBe(true);
    expect(text).not.toContain("serve HTTPS");
  });

  test("colour codes only when asked", () => {
    expect(bannerText({ ...base, host: "127.0.0.1", color: true })).toContain("\x1b[1mdeckhand 9.9.9\x1b[22m");
  });
});
