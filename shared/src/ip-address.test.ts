import { describe, expect, it } from "vitest";
import { addressInList, isPublicAddress, parseCidr, parseIp } from "./ip-address";
import { resolveGatewayTarget } from "./server/gateway-http";

const isPublic = (text: string) => {
  const bytes = parseIp(text);
  if (!bytes) throw new Error(`not an address: ${text}`);
  return isPublicAddress(bytes);
};

describe("the gateway address policy", () => {
  it("refuses loopback, link-local, private, shared, multicast and reserved IPv4", () => {
    for (const a of [
      "127.0.0.1",
      "127.8.9.10",
      "0.0.0.0",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "198.18.0.1",
    ]) {
      expect(isPublic(a), a).toBe(false);
    }
    for (const a of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "93.184.216.34"]) expect(isPublic(a), a).toBe(true);
  });

  it("refuses the same ranges written as IPv6, including every IPv4-in-IPv6 form", () => {
    for (const a of [
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "fc00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "::127.0.0.1",
      "64:ff9b::a9fe:a9fe",
      "2002:c0a8:0101::1",
      "[::1]",
      "0:0:0:0:0:ffff:7f00:0001",
    ]) {
      expect(isPublic(a), a).toBe(false);
    }
    for (const a of ["2606:4700:4700::1111", "::ffff:8.8.8.8", "2002:0808:0808::1"]) expect(isPublic(a), a).toBe(true);
  });

  it("reads only plain dotted-decimal IPv4 and well-formed IPv6", () => {
    for (const bad of ["0x7f.0.0.1", "0177.0.0.1", "127.1", "2130706433", "1.2.3.256", "1::2::3", "fe80::1%eth0", "g::1"]) {
      expect(parseIp(bad), bad).toBeNull();
    }
  });

  it("checks every address a name resolves to, and pins the checked one", async () => {
    const resolve = (list: string[]) => async () => list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    const mixed = await resolveGatewayTarget("https://gw.example/send", {
      allowPrivate: false,
      resolve: resolve(["8.8.8.8", "10.0.0.5"]),
    });
    expect(mixed).toMatchObject({ ok: false, reason: expect.stringContaining("10.0.0.5") });
    const mapped = await resolveGatewayTarget("https://gw.example/send", {
      allowPrivate: false,
      resolve: resolve(["::ffff:169.254.169.254"]),
    });
    expect(mapped.ok).toBe(false);
    const good = await resolveGatewayTarget("https://gw.example/send", {
      allowPrivate: false,
      resolve: resolve(["8.8.4.4", "8.8.8.8"]),
    });
    expect(good).toMatchObject({ ok: true, target: { address: "8.8.4.4", family: 4 } });
    expect((await resolveGatewayTarget("http://[::1]:8080/x", { allowPrivate: false })).ok).toBe(false);
    expect((await resolveGatewayTarget("http://127.0.0.1:8080/x", { allowPrivate: true })).ok).toBe(true);
    expect((await resolveGatewayTarget("http://localhost:8080/x", { allowPrivate: false })).ok).toBe(false);
  });
});

describe("the webhook source allowlist", () => {
  it("matches single addresses and CIDR ranges, IPv4-mapped callers against IPv4 ranges", () => {
    expect(parseCidr("10.0.0.0/33")).toBeNull();
    expect(addressInList("10.1.2.3", ["10.0.0.0/8"])).toBe(true);
    expect(addressInList("::ffff:10.1.2.3", ["10.0.0.0/8"])).toBe(true);
    expect(addressInList("11.1.2.3", ["10.0.0.0/8", "192.0.2.7"])).toBe(false);
    expect(addressInList("192.0.2.7", ["192.0.2.7"])).toBe(true);
    expect(addressInList("2001:db8::1", ["2001:db8::/48"])).toBe(true);
    expect(addressInList("not an ip", ["0.0.0.0/0"])).toBe(false);
  });
});
