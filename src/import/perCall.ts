// A value derived from one mined call, worked out once. The miner's rules compare each call with
// up to ten calls before it (re-checks, facts heard again), and working out a call's files, its
// command, its quoted terms or its lines again for every comparison made `loopsim loops` slow in
// proportion to the window (issue 35, bench row "loops"). Only pure derivations belong here (the
// same call always gives the same value), so the output cannot change.
// The values are kept on the call object itself, in one hidden slot array (a symbol-keyed,
// non-enumerable property: JSON, Object.keys and spreads never see it), so a session's values go
// when its calls do and memory stays flat over a run. A WeakMap per derivation did the same, but
// every call set an entry in each of them, and that (with the collector's ephemeron work) was a
// tenth of the run. An object that takes no new property (frozen) falls back to a WeakMap.
const SLOTS = Symbol("perCall values");
/** What a slot holds for a derived undefined (an empty slot is undefined too). */
const UNDEFINED = Symbol("undefined");
let derivations = 0;

export function perCall<C extends object, T>(derive: (c: C) => T): (c: C) => T {
  const slot = derivations++;
  const known = new WeakMap<C, { readonly value: T }>();
  return (c: C): T => {
    let slots = (c as unknown as Record<symbol, unknown[] | undefined>)[SLOTS];
    if (slots === undefined) {
      if (!Object.isExtensible(c)) {
        const box = known.get(c);
        if (box !== undefined) return box.value;
        const value = derive(c);
        known.set(c, { value });
        return value;
      }
      slots = [];
      Object.defineProperty(c, SLOTS, { value: slots });
    }
    const held = slots[slot];
    if (held !== undefined) return (held === UNDEFINED ? undefined : held) as T;
    const value = derive(c);
    slots[slot] = value === undefined ? UNDEFINED : value;
    return value;
  };
}
