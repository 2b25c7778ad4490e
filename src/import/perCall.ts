// A value derived from one mined call, worked out once. The miner's rules compare each call with
// up to ten calls before it (re-checks, facts heard again), and working out a call's files, its
// command, its quoted terms or its lines again for every comparison made `loopsim loops` slow in
// proportion to the window (issue 35, bench row "loops"). The values are kept beside the call
// object, weakly: a session's go when its calls do, so memory stays flat over a run. Only pure
// derivations belong here (the same call always gives the same value), so the output cannot change.
export function perCall<C extends object, T>(derive: (c: C) => T): (c: C) => T {
  // Each value sits in a box, so one lookup tells a value worked out (undefined included) from
  // none: has-then-get looked every call up twice, and these are asked once per pair in a window.
  const known = new WeakMap<C, { readonly value: T }>();
  return (c: C): T => {
    const box = known.get(c);
    if (box !== undefined) return box.value;
    const value = derive(c);
    known.set(c, { value });
    return value;
  };
}
