import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { raterAgreement } from "../src/stats/raterAgreement.js";

describe("agreement of two readers", () => {
  it("matches a worked example: 20 items, 17 alike, kappa 0.66", () => {
    // first: 12 yes, 8 no; second agrees on 10 yes and 7 no, differs on 2 + 1.
    const first = [...Array<boolean>(12).fill(true), ...Array<boolean>(8).fill(false)];
    const second = [...Array<boolean>(10).fill(true), false, false, ...Array<boolean>(7).fill(false), true];
    const a = raterAgreement({ first, second });
    expect(a).toMatchObject({ n: 20, agree: 17, observed: 0.85, firstYes: 12, secondYes: 11 });
    // chance = 0.6*0.55 + 0.4*0.45 = 0.51; kappa = (0.85-0.51)/0.49 = 0.6939
    expect(a.kappa).toBe(0.69);
  });
  it("is null, not 1 or 0, when both readers answered everything alike (chance agreement 1)", () => {
    expect(raterAgreement({ first: [true, true], second: [true, true] }).kappa).toBeNull();
    expect(raterAgreement({ first: [], second: [] })).toMatchObject({ n: 0, kappa: null });
  });
  it("refuses answer lists of different lengths", () => {
    expect(() => raterAgreement({ first: [true], second: [] })).toThrow(RangeError);
  });
  test.prop([fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 60 })])("is symmetric, at most 1, and 1 exactly when every answer matches and both kinds occur", (pairs) => {
    const first = pairs.map((p) => p[0]);
    const second = pairs.map((p) => p[1]);
    const ab = raterAgreement({ first, second });
    const ba = raterAgreement({ first: second, second: first });
    expect(ab.kappa).toBe(ba.kappa);
    expect(ab.agree).toBe(pairs.filter(([a, b]) => a === b).length);
    if (ab.kappa !== null) expect(ab.kappa).toBeLessThanOrEqual(1);
    const identical = pairs.every(([a, b]) => a === b);
    const mixed = first.includes(true) && first.includes(false);
    if (identical && mixed) expect(ab.kappa).toBe(1);
  });
});
