import { describe, expect, it } from "vitest";
import { conditionalTracing, devOrigins, EMBEDDED_DATABASE_FILES, OFFLINE_ASSETS } from "./next.config";

describe("conditionalTracing", () => {
  it("carries PGlite and the word vectors into a build with neither DATABASE_URL nor an API embedder", () => {
    expect(conditionalTracing({})).toEqual([...EMBEDDED_DATABASE_FILES, OFFLINE_ASSETS]);
    expect(conditionalTracing({ DATABASE_URL: " ", OPENAI_API_KEY: "  " })).toEqual([
      ...EMBEDDED_DATABASE_FILES,
      OFFLINE_ASSETS,
    ]);
  });

  it("leaves PGlite out of a build with DATABASE_URL, and the word vectors out of one with an API embedder", () => {
    expect(conditionalTracing({ DATABASE_URL: "postgres://db/lifeline" })).toEqual([OFFLINE_ASSETS]);
    expect(conditionalTracing({ OPENAI_API_KEY: "sk-test" })).toEqual(EMBEDDED_DATABASE_FILES);
    expect(conditionalTracing({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })).toEqual(EMBEDDED_DATABASE_FILES);
    expect(conditionalTracing({ DATABASE_URL: "postgres://db/lifeline", OPENAI_API_KEY: "sk-test" })).toEqual([]);
  });
});

describe("devOrigins", () => {
  it("lets next dev be opened through 127.0.0.1, this machine's addresses (the Network URL) and its name", () => {
    const interfaces = {
      lo: [
        { address: "127.0.0.1", family: "IPv4", internal: true, netmask: "", mac: "", cidr: null },
        { address: "::1", family: "IPv6", internal: true, scopeid: 0, netmask: "", mac: "", cidr: null },
      ],
      eth0: [
        { address: "192.168.1.23", family: "IPv4", internal: false, netmask: "", mac: "", cidr: null },
        { address: "fe80::1", family: "IPv6", internal: false, scopeid: 2, netmask: "", mac: "", cidr: null },
        { address: "2001:db8::5", family: "IPv6", internal: false, scopeid: 0, netmask: "", mac: "", cidr: null },
      ],
    } as unknown as Parameters<typeof devOrigins>[0];
    expect(devOrigins(interfaces, "Dev-Box")).toEqual([
      "127.0.0.1",
      "[::1]",
      "dev-box",
      "192.168.1.23",
      "[2001:db8::5]",
    ]);
  });
});
