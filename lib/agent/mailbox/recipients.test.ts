import { describe, expect, it } from "vitest";
import { addressOf, unseenAddresses } from "./recipients";

describe("unseenAddresses", () => {
  const known = ["Maya Chen <maya.chen@example.com>", "tom.becker@example.com", '"Dupont, René" <Rene@X.fr>'];

  it("names a recipient whose address the mailbox has never seen, even when the name is familiar", () => {
    expect(unseenAddresses(["maya@example.com"], known)).toEqual(["maya@example.com"]);
    expect(unseenAddresses(["Maya Chen <maya@example.com>"], known)).toEqual(["Maya Chen <maya@example.com>"]);
  });

  it("knows an address in any case, with or without a name, and names each unseen one once", () => {
    expect(unseenAddresses(["MAYA.CHEN@example.com", "Tom <tom.becker@example.com>", "rene@x.fr"], known)).toEqual([]);
    expect(unseenAddresses(["new@x.org", "New <NEW@x.org>"], known)).toEqual(["new@x.org"]);
  });

  it("reads the address inside <…>", () => {
    expect(addressOf('"Chen, Maya" <Maya@X.org>')).toBe("maya@x.org");
  });
});
