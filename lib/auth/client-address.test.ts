import { describe, expect, it } from "vitest";
import { parseEnv } from "@/core/env";
import { clientAddress, trustedProxy, UNPARSABLE_ADDRESS } from "./client-address";

const headers = (entries: Record<string, string>) => new Headers(entries);

describe("clientAddress", () => {
  it("trusts no header without LIFELINE_TRUSTED_PROXY, even with AUTH_TRUST_HOST=true: no address", () => {
    for (const env of [{}, { AUTH_TRUST_HOST: "true" }, { LIFELINE_TRUSTED_PROXY: "none", AUTH_TRUST_HOST: "1" }]) {
      expect(trustedProxy(env)).toEqual({ kind: "none" });
      const forged = headers({ "x-forwarded-for": "203.0.113.7", "x-real-ip": "203.0.113.8" });
      expect(clientAddress(forged, env)).toBeNull();
    }
  });

  it("behind N proxies that append, the client is the N-th entry from the right; what the client wrote is never read", () => {
    const one = { LIFELINE_TRUSTED_PROXY: "1" };
    // The client forged the first entry; the proxy appended the address it saw.
    expect(clientAddress(headers({ "x-forwarded-for": "198.51.100.99, 203.0.113.7" }), one)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7" }), one)).toBe("203.0.113.7");
    const two = { LIFELINE_TRUSTED_PROXY: "2" };
    expect(clientAddress(headers({ "x-forwarded-for": "1.1.1.1, 203.0.113.7, 10.0.0.2" }), two)).toBe("203.0.113.7");
    // Ports and brackets as proxies write them; IPv6 in lower case.
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7:4711" }), one)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "[2001:DB8::1]:443" }), one)).toBe("2001:db8::1");
  });

  it("never skips the limit on an unparsable or missing value: one shared key", () => {
    const one = { LIFELINE_TRUSTED_PROXY: "1" };
    for (const value of ["not-an-ip", "", "203.0.113.7, ", "999.1.1.1", "203.0.113.7 junk"]) {
      expect(clientAddress(headers({ "x-forwarded-for": value }), one), value).toBe(UNPARSABLE_ADDRESS);
    }
    expect(clientAddress(headers({}), one)).toBe(UNPARSABLE_ADDRESS);
    // Fewer entries than proxies: the header did not come through them all.
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7" }), { LIFELINE_TRUSTED_PROXY: "2" })).toBe(
      UNPARSABLE_ADDRESS,
    );
  });

  it("on Vercel reads Vercel's own headers, not X-Forwarded-For (a proxy in front of Vercel may rewrite that one)", () => {
    for (const env of [{ VERCEL: "1" }, { LIFELINE_TRUSTED_PROXY: "vercel" }]) {
      expect(trustedProxy(env)).toEqual({ kind: "vercel" });
      expect(
        clientAddress(
          headers({
            "x-vercel-forwarded-for": "203.0.113.7",
            "x-real-ip": "203.0.113.8",
            "x-forwarded-for": "1.1.1.1",
          }),
          env,
        ),
      ).toBe("203.0.113.7");
      expect(clientAddress(headers({ "x-real-ip": "203.0.113.8", "x-forwarded-for": "1.1.1.1" }), env)).toBe(
        "203.0.113.8",
      );
      expect(clientAddress(headers({ "x-forwarded-for": "1.1.1.1" }), env)).toBe(UNPARSABLE_ADDRESS);
      expect(clientAddress(headers({ "x-vercel-forwarded-for": "not-an-ip" }), env)).toBe(UNPARSABLE_ADDRESS);
    }
    // An explicit setting wins over the platform default.
    expect(trustedProxy({ VERCEL: "1", LIFELINE_TRUSTED_PROXY: "none" })).toEqual({ kind: "none" });
  });

  it("LIFELINE_TRUSTED_PROXY is validated at start", () => {
    for (const value of ["none", "vercel", "VERCEL", "1", "9"]) {
      expect(() => parseEnv({ LIFELINE_TRUSTED_PROXY: value }), value).not.toThrow();
    }
    for (const value of ["true", "0", "10", "x-forwarded-for"]) {
      expect(() => parseEnv({ LIFELINE_TRUSTED_PROXY: value }), value).toThrow(/LIFELINE_TRUSTED_PROXY/);
    }
  });
});
