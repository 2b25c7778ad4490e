// SPEC H1: a serialization in which object key order never matters, arrays keep their order,
// any value serializes (strings, numbers, null, undefined, bigint...), and cycles are written as
// a back-reference to the ancestor by distance, so two equal cyclic shapes serialize equally.
// It runs on every call and outcome, so plain objects and arrays take the shortest path.

const quotedKeys = new Map<string, string>();
const QUOTED_KEY_CAPACITY = 4096;

function quoteKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < QUOTED_KEY_CAPACITY) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/** Keys whose quoted form is cached, for the test that the cache stays within its capacity. */
export function quotedKeyCacheSize(): number {
  return quotedKeys.size;
}

export function stableSerialize(value: unknown): string {
  return serializeValue(value, []);
}

function serializeValue(value: unknown, ancestors: object[]): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : `#${String(value)}`;
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return "#undefined";
    case "bigint":
      return `#${value.toString()}n`;
    case "symbol":
      return `#symbol(${value.description ?? ""})`;
    case "function":
      return "#function";
    case "object":
      return value === null ? "null" : serializeObject(value, ancestors);
  }
}

function serializeObject(value: object, ancestors: object[]): string {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    if (ancestors[i] === value) return `#cycle(${ancestors.length - i})`;
  }
  ancestors.push(value);
  let out: string;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) out = serializeRecord(value as Record<string, unknown>, ancestors);
  else if (Array.isArray(value)) {
    out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += serializeValue(value[i], ancestors);
    }
    out += "]";
  } else if (value instanceof Error) {
    out = `#error(${JSON.stringify(value.name)},${JSON.stringify(value.message)})`;
  } else if (value instanceof Date) {
    out = `#date(${String(value.getTime())})`;
  } else if (value instanceof Map) {
    out = `#map(${serializeValue([...value.entries()], ancestors)})`;
  } else if (value instanceof Set) {
    out = `#set(${serializeValue([...value.values()], ancestors)})`;
  } else out = serializeRecord(value as Record<string, unknown>, ancestors);
  ancestors.pop();
  return out;
}

function serializeRecord(record: Record<string, unknown>, ancestors: object[]): string {
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  let out = "{";
  let first = true;
  for (const key of keys) {
    const field = record[key];
    // Absent and undefined fields mean the same thing in a JSON trace.
    if (field === undefined) continue;
    if (!first) out += ",";
    first = false;
    out += quoteKey(key) + ":" + serializeValue(field, ancestors);
  }
  return out + "}";
}
