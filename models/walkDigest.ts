// SPEC H1 allows any fixed-size digest of the stable serialization. This one is computed while
// walking the value, in the serialization's own canonical order (sorted keys, undefined fields
// skipped, cycles by distance), so no intermediate string is built and no native call is made.
// Two values get the same digest exactly when stableSerialize gives them the same text (barring a
// 128-bit collision); a property test holds it to that.
//
// The mixing is MurmurHash3 x86_128 (public domain, Austin Appleby) over 4-word blocks of
// structure tags, lengths, number bits, and string code units packed two to a word. Every token
// starts a block with its tag and length, so the block stream is unambiguous.

const C1 = 0x239b961b;
const C2 = 0xab0e9789;
const C3 = 0x38b34ae5;
const C4 = 0xa1e38b93;

/** Tags of the word stream; one per kind of token that stableSerialize writes. */
const enum Tag {
  String = 1,
  Number,
  True,
  False,
  Undefined,
  BigInt,
  Symbol,
  Function,
  Null,
  Cycle,
  Array,
  Error,
  Date,
  Map,
  Set,
  Key,
  RecordEnd,
}

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const numberView = new Float64Array(1);
const numberWords = new Uint32Array(numberView.buffer);

// The MurmurHash3 x86_128 state, module-level because the walk is synchronous and never
// reentrant, and plain `let`s are the cheapest state V8 has. Every token is mixed as whole 4-word
// blocks (its tag and length first, zero-padded), so no partial block is ever carried over.
let h1 = 0;
let h2 = 0;
let h3 = 0;
let h4 = 0;
let blocks = 0;

function block(k1: number, k2: number, k3: number, k4: number): void {
  blocks++;
  k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2);
  h1 ^= k1;
  h1 = rotl(h1, 19) + h2;
  h1 = (Math.imul(h1, 5) + 0x561ccd1b) | 0;
  k2 = Math.imul(rotl(Math.imul(k2, C2), 16), C3);
  h2 ^= k2;
  h2 = rotl(h2, 17) + h3;
  h2 = (Math.imul(h2, 5) + 0x0bcaa747) | 0;
  k3 = Math.imul(rotl(Math.imul(k3, C3), 17), C4);
  h3 ^= k3;
  h3 = rotl(h3, 15) + h4;
  h3 = (Math.imul(h3, 5) + 0x96cd1c35) | 0;
  k4 = Math.imul(rotl(Math.imul(k4, C4), 18), C1);
  h4 ^= k4;
  h4 = rotl(h4, 13) + h1;
  h4 = (Math.imul(h4, 5) + 0x32ac3b17) | 0;
}

function reset(): void {
  h1 = h2 = h3 = h4 = 0;
  blocks = 0;
}

/** The 128-bit digest as 32 hex digits: MurmurHash3's finalisation. */
function finish(): string {
  const bytes = blocks * 16;
  h1 ^= bytes;
  h2 ^= bytes;
  h3 ^= bytes;
  h4 ^= bytes;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  return hex128(h1, h2, h3, h4);
}

/**
 * Two UTF-16 code units in one word; past the end reads as 0 (the length is already mixed). Bitwise
 * operators would read charCodeAt's NaN past the end as 0 anyway, but an out-of-range read costs
 * V8 a slow path on every short key, so the end is tested.
 */
function pairAt(text: string, i: number, n: number): number {
  if (i + 1 < n) return text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
  return i < n ? text.charCodeAt(i) : 0;
}

function mixString(text: string, tag: Tag = Tag.String): void {
  const n = text.length;
  block(tag, n, pairAt(text, 0, n), pairAt(text, 2, n));
  let i = 4;
  for (; i + 8 <= n; i += 8) {
    block(
      text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16),
      text.charCodeAt(i + 2) | (text.charCodeAt(i + 3) << 16),
      text.charCodeAt(i + 4) | (text.charCodeAt(i + 5) << 16),
      text.charCodeAt(i + 6) | (text.charCodeAt(i + 7) << 16),
    );
  }
  if (i < n) block(pairAt(text, i, n), pairAt(text, i + 2, n), pairAt(text, i + 4, n), pairAt(text, i + 6, n));
}

function mixNumber(value: number): void {
  // stableSerialize writes String(value): -0 reads as 0, and every NaN as one NaN.
  numberView[0] = value === 0 ? 0 : Number.isNaN(value) ? Number.NaN : value;
  block(Tag.Number, numberWords[0] as number, numberWords[1] as number, 0);
}

const mixTag = (tag: Tag, count = 0): void => block(tag, count, 0, 0);

// Number#toString(16) with padStart took half the digest's time, and concatenating table
// entries builds a rope V8 must flatten before hashing the key; one fromCharCode call builds the
// 32 hex digits flat.
const HEX_CODES = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
const nibble = (h: number, shift: number): number => HEX_CODES[(h >>> shift) & 15] as number;
function hex128(a: number, b: number, c: number, d: number): string {
  return String.fromCharCode(
    nibble(a, 28), nibble(a, 24), nibble(a, 20), nibble(a, 16), nibble(a, 12), nibble(a, 8), nibble(a, 4), nibble(a, 0),
    nibble(b, 28), nibble(b, 24), nibble(b, 20), nibble(b, 16), nibble(b, 12), nibble(b, 8), nibble(b, 4), nibble(b, 0),
    nibble(c, 28), nibble(c, 24), nibble(c, 20), nibble(c, 16), nibble(c, 12), nibble(c, 8), nibble(c, 4), nibble(c, 0),
    nibble(d, 28), nibble(d, 24), nibble(d, 20), nibble(d, 16), nibble(d, 12), nibble(d, 8), nibble(d, 4), nibble(d, 0),
  );
}

/**
 * The keys of every record being walked, nested records' above their parents', reused from walk
 * to walk. Object.keys would allocate an array per record, a third of the digest's garbage. The
 * stack grows to the most keys a walk held at once and is shortened (which lets V8 drop its
 * storage) only past KEY_STACK_KEPT, after a walk of some very wide record.
 */
// Stryker disable next-line ArrayDeclaration: equivalent, every walk starts at keyTop 0 and writes a slot before reading it
const keyStack: string[] = [];
let keyTop = 0;
const KEY_STACK_KEPT = 1024;

/** The containers being walked, reused from walk to walk. */
const ancestors: object[] = [];

export function walkDigestValue(value: unknown): string {
  reset();
  // Every walk pops what it pushes; only a walk cut short by a throwing getter leaves any. Setting
  // the length of an empty array would still drop its storage, and the next push reallocate it.
  // Stryker disable next-line ConditionalExpression: equivalent, emptying an empty list changes only the cost
  if (ancestors.length !== 0) ancestors.length = 0;
  keyTop = 0;
  walkValue(value, ancestors);
  // A record with a great many keys is not kept alive by the stack until the next such record.
  // Stryker disable next-line all: equivalent, when the stack's storage is let go changes only memory
  if (keyStack.length > KEY_STACK_KEPT) keyStack.length = 0;
  return finish();
}

export function walkDigestText(text: string): string {
  reset();
  mixString(text);
  return finish();
}

function walkValue(value: unknown, ancestors: object[]): void {
  switch (typeof value) {
    case "string":
      return mixString(value);
    case "number":
      return mixNumber(value);
    case "boolean":
      return mixTag(value ? Tag.True : Tag.False);
    case "undefined":
      return mixTag(Tag.Undefined);
    case "bigint":
      mixTag(Tag.BigInt);
      return mixString(value.toString());
    case "symbol":
      mixTag(Tag.Symbol);
      return mixString(value.description ?? "");
    case "function":
      return mixTag(Tag.Function);
    case "object":
      return value === null ? mixTag(Tag.Null) : walkObject(value, ancestors);
  }
}

function walkObject(value: object, ancestors: object[]): void {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    if (ancestors[i] === value) {
      mixTag(Tag.Cycle, ancestors.length - i);
      return;
    }
  }
  ancestors.push(value);
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) walkRecord(value as Record<string, unknown>, ancestors);
  else if (Array.isArray(value)) walkArray(value, ancestors);
  else if (value instanceof Error) {
    mixTag(Tag.Error);
    mixString(value.name);
    mixString(value.message);
  } else if (value instanceof Date) {
    mixTag(Tag.Date);
    mixNumber(value.getTime());
  } else if (value instanceof Map) {
    // Through walkValue, as the serialization does, so the entries array counts as an ancestor.
    mixTag(Tag.Map);
    walkValue([...value.entries()], ancestors);
  } else if (value instanceof Set) {
    mixTag(Tag.Set);
    walkValue([...value.values()], ancestors);
  } else walkRecord(value as Record<string, unknown>, ancestors);
  ancestors.pop();
}

function walkArray(items: readonly unknown[], ancestors: object[]): void {
  mixTag(Tag.Array, items.length);
  for (let i = 0; i < items.length; i++) walkValue(items[i], ancestors);
}

/**
 * The serialization's key order (Array#sort's default: UTF-16 code units), for the keys in
 * keyStack[from, to). Records have few keys, and an insertion sort with `<` beats the generic
 * sort, which compares through strings; a large record is sorted as a copy.
 */
function sortKeys(from: number, to: number): void {
  if (to - from > 16) {
    const sorted = keyStack.slice(from, to).sort();
    for (let i = 0; i < sorted.length; i++) keyStack[from + i] = sorted[i] as string;
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const key = keyStack[i] as string;
    let j = i - 1;
    while (j >= from && (keyStack[j] as string) > key) {
      keyStack[j + 1] = keyStack[j] as string;
      j--;
    }
    keyStack[j + 1] = key;
  }
}

function walkRecord(record: Record<string, unknown>, ancestors: object[]): void {
  // Object.keys' set of keys: own, enumerable, string-keyed. for-in adds inherited enumerable
  // ones, which hasOwn removes; it walks V8's cached key list without allocating.
  const from = keyTop;
  for (const key in record) {
    // An assignment at the length appends, as push does, and keeps the array packed.
    if (Object.hasOwn(record, key)) keyStack[keyTop++] = key;
  }
  const to = keyTop;
  sortKeys(from, to);
  // Undefined fields are skipped, as in the serialization. A record is its fields, each key
  // tagged as a key (only records have keys), then an end tag with the field count: no opening
  // token and no second pass to count the fields first.
  let fields = 0;
  for (let i = from; i < to; i++) {
    const key = keyStack[i] as string;
    const field = record[key];
    if (field === undefined) continue;
    fields++;
    mixString(key, Tag.Key);
    walkValue(field, ancestors);
  }
  keyTop = from;
  mixTag(Tag.RecordEnd, fields);
}
