// Known answers of the walk128 digest. Its equalities are held to the stable serialization by a
// property (properties/digestEquivalence.test.ts), but a change to its mixing would keep every
// equality and still change every digest: scenario fingerprints, warning keys and the argsHash in
// every timeline would all move. These pinned values make such a change a visible decision.
import { describe, expect, it } from "vitest";
import { DEFAULT_DIGEST, DIGEST_NAMES, digestNamed, isDigestName, sha256Text } from "../../models/digest.js";
import { stableSerialize } from "../../models/stableSerialize.js";
import { walkDigestText, walkDigestValue } from "../../models/walkDigest.js";
import { sameJsonValue } from "../../models/callHash.js";
import { CASES, TEXTS } from "./digestKnownAnswers.cases.js";

const VALUE_DIGESTS: readonly (readonly [string, string])[] = [
  ["empty string", "a31379a3e45d6f9e6b4ad58091ca4982"],
  ["1 unit", "1939c3a07f093679ecd9a9ead40c1129"],
  ["2 units", "bbbee77e6fb8c7b65ad2cdfefc126323"],
  ["3 units", "11c46b03e1f7021f80a568fe5aa9e7bf"],
  ["7 units", "768ef9de3df5e6f0c202eb75db45dc0c"],
  ["8 units", "d977b7dea48221e731b5847d657f1b68"],
  ["9 units", "e57cb54445f004f4e781cb323749fabb"],
  ["17 units", "addd4811abcbda7b7f4be00f5f708a67"],
  ["non-ASCII", "d61a5a97cec271a1c94d823197642d49"],
  ["zero", "0ecf9ab09d3991dbc7f96ba531e11a7c"],
  ["one", "0fb091e79b703b0de9a6b4ed18531a95"],
  ["a fraction", "a019911d2686e06db4b1bd8c33af1bb5"],
  ["a large integer", "a4501807c374c771262800d353b540b1"],
  ["a negative", "2c36083e46a030e6495dbd23730e0498"],
  ["NaN", "069ac3203e8aa11f9939dc79de7e2013"],
  ["infinity", "586a90e691e28052659486c92a3a8ee0"],
  ["true", "fcdfe8042c719bcd2b8c29e1b214c7b5"],
  ["false", "cfe40ee1ad37992bbb85e47cbedca920"],
  ["undefined", "8cfb82b43f406382a8507c8ee7c7b46a"],
  ["null", "927449da2aa219fb3cf0eedde2f9b770"],
  ["a bigint", "522a12ad4888f348f4847d7756ab76dd"],
  ["a symbol", "e4078f47a3d08167fbaa0a7e45db46ce"],
  ["a function", "24addf37d194509e162c38415ecd7b7c"],
  ["an empty array", "a49f12e06f1305ac87854636f06d4de4"],
  ["an array", "b4a37e4442d3d7faa4e4bfa15388c0dc"],
  ["an empty record", "3fbf65be56b23aa350a675a839d33535"],
  ["a record", "12edad472b3ac1504e11ea62d77c9744"],
  ["a wide record", "5586ecdfc40d5e856476372f4dfe81f5"],
  ["a cycle", "db5ca42c6ece0de5ae90a953402b99e0"],
  ["an error", "16543a9e14be2d0dd21e4a905f1e8674"],
  ["a date", "9ce6c34242fe9140fff6a835b10af411"],
  ["a map", "a1d45bea5a28cfc3e99643dc3e457b90"],
  ["a set", "a7f9a3407f99cb6bb95ac2ae92c42f12"],
  ["an instance", "8c6423200c4b37726a0035031e2c6da1"],
  ["4 units", "3d3c52d9569f3eb70a60b73b649d4a8f"],
  ["12 units", "c593ad3bbf00bfb2698f5baec2f9e8a1"],
  ["a symbol with no description", "7b7213b799ed38cf67a6561521b0279e"],
  ["a cycle below the root", "171b7a0e5a993883b92428e264884646"],
];

const TEXT_DIGESTS: readonly string[] = [
  "a31379a3e45d6f9e6b4ad58091ca4982",
  "1939c3a07f093679ecd9a9ead40c1129",
  "bbbee77e6fb8c7b65ad2cdfefc126323",
  "e57cb54445f004f4e781cb323749fabb",
  "d61a5a97cec271a1c94d823197642d49",
];

describe("H1 walk128 known answers", () => {
  it.each(CASES)("H1 walk128 of %s", (name, value) => {
    const pinned = VALUE_DIGESTS.find(([n]) => n === name);
    expect(pinned, `no known answer pinned for "${name}"`).toBeDefined();
    expect(walkDigestValue(value)).toBe(pinned?.[1]);
  });
  it("H1 walk128 of texts: the digest of the text as a value", () => {
    expect(TEXTS.map((text) => walkDigestText(text))).toEqual(TEXT_DIGESTS);
    for (const text of TEXTS) expect(walkDigestText(text)).toBe(walkDigestValue(text));
  });
  it("H1 digests after a cycle are unaffected by it (the walk's state is reset)", () => {
    const before = walkDigestValue({ a: [1, 2] });
    const cyclic: unknown[] = [];
    cyclic.push(cyclic);
    walkDigestValue(cyclic);
    expect(walkDigestValue({ a: [1, 2] })).toBe(before);
  });
  it("H1 a walk cut short by a throwing getter leaves nothing behind for the next one", () => {
    let first = true;
    const flaky = {
      get x(): number {
        if (first) {
          first = false;
          throw new Error("not yet");
        }
        return 1;
      },
    };
    expect(() => walkDigestValue(flaky)).toThrow("not yet");
    // Had the interrupted walk left flaky among the ancestors, it would now read as a cycle.
    expect(walkDigestValue(flaky)).toBe(walkDigestValue({ x: 1 }));
  });
  it("H1 a record is its own enumerable keys: inherited ones, even on Object.prototype, are no part of it", () => {
    const plain = walkDigestValue({ own: 2, nested: { a: 1 } });
    const child = Object.assign(Object.create({ inherited: 1 }) as object, { own: 2, nested: { a: 1 } });
    expect(walkDigestValue(child)).toBe(plain);
    // A polluted Object.prototype (a dependency's doing) must not change any call's identity.
    Object.defineProperty(Object.prototype, "polluted", { value: 1, enumerable: true, configurable: true, writable: true });
    try {
      expect(walkDigestValue({ own: 2, nested: { a: 1 } })).toBe(plain);
      expect(stableSerialize({ own: 2 })).toBe('{"own":2}');
      expect(sameJsonValue({ a: 1 }, { a: 1 })).toBe(true);
      expect(sameJsonValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });
});

describe("H1 the two digests by name", () => {
  it("H1 each digest carries its own name; walk128 is the default; sha256 is SHA-256 of the serialization", () => {
    expect(DIGEST_NAMES).toEqual(["walk128", "sha256"]);
    expect(DEFAULT_DIGEST).toBe("walk128");
    for (const name of DIGEST_NAMES) expect(digestNamed(name).name).toBe(name);
    expect(digestNamed("sha256").value({ b: 1, a: 2 })).toBe(sha256Text(stableSerialize({ a: 2, b: 1 })));
    expect(digestNamed("sha256").text("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(digestNamed("walk128").value("abc")).toBe(walkDigestValue("abc"));
    expect(digestNamed("walk128").text("abc")).toBe(walkDigestText("abc"));
  });
  it("H1 only the two names are digest names", () => {
    expect(isDigestName("walk128")).toBe(true);
    expect(isDigestName("sha256")).toBe(true);
    for (const name of ["", "md5", "SHA256", "walk"]) expect(isDigestName(name)).toBe(false);
  });
});
