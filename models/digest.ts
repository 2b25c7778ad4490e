// SPEC H1: a fixed-size digest whatever the input size. Two are offered, behind one interface:
// - walk128 (the default): a 128-bit MurmurHash3 computed while walking the value, with no
//   intermediate string and no native call. It is what makes the engine cheaper than the code
//   it models; bench/ measures it against a shipped release.
// - sha256: SHA-256 hex of the stable serialization, the digest OpenClaw itself uses, for anyone
//   who wants the reference's hashes to read like a release's.
// Verdicts never depend on which digest is chosen (only on equality of digests), so traces,
// verdicts and reports are byte-identical either way except where a hash is printed.
import { hash } from "node:crypto";
import { stableSerialize } from "./stableSerialize.js";
import { walkDigestText, walkDigestValue } from "./walkDigest.js";

export const DIGEST_NAMES = ["walk128", "sha256"] as const;
export type DigestName = (typeof DIGEST_NAMES)[number];
export const DEFAULT_DIGEST: DigestName = "walk128";

export interface Digest {
  readonly name: DigestName;
  /** The digest of a value's stable serialization. */
  value(value: unknown): string;
  /** The digest of a text, as a value. */
  text(text: string): string;
}

/** SHA-256 hex; also the fingerprint of recorded scenario outputs, whatever digest the engine uses. */
export function sha256Text(text: string): string {
  // Node's one-shot crypto.hash avoids the per-call Hash object that createHash allocates.
  return hash("sha256", text, "hex");
}

const DIGESTS: { readonly [N in DigestName]: Digest } = {
  walk128: { name: "walk128", value: walkDigestValue, text: walkDigestText },
  sha256: { name: "sha256", value: (value) => sha256Text(stableSerialize(value)), text: sha256Text },
};

export function digestNamed(name: DigestName): Digest {
  return DIGESTS[name];
}

export function isDigestName(name: string): name is DigestName {
  return (DIGEST_NAMES as readonly string[]).includes(name);
}
