// Crush (internal/agent/loop_detection.go): a step's signature hashes each call's tool name and its
// input exactly as the model sent them (the raw JSON text), so nothing is trimmed, aliased or
// key-sorted, and a missing input is the empty text.
import { asGiven } from "./callView.js";

export const CRUSH_NORMALIZATION = asGiven("crush", "name as given, args as the JSON text the model sent (key order counts; missing args are empty text)", "read: internal/agent/loop_detection.go (charmbracelet/crush)");
