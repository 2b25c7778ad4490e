// SPEC H1: a fixed-size digest whatever the input size. SHA-256 hex, as OpenClaw uses; Node's
// one-shot crypto.hash avoids the per-call Hash object that createHash allocates.
import { hash } from "node:crypto";
import { stableSerialize } from "./stableSerialize.js";

export function digestText(text: string): string {
  return hash("sha256", text, "hex");
}

export function digestValue(value: unknown): string {
  return digestText(stableSerialize(value));
}
