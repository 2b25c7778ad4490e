// Goose: rmcp's CallToolRequestParams carries `arguments: Option<JsonObject>`; the
// RepetitionInspector compares the name as given and the arguments as a serde_json Value, with
// missing args as Null (so missing and null are one value, and {} another). serde_json's object
// equality ignores key order. REP-002 compares the tool name and the error's first 100 chars.
import type { CallNormalization } from "./callView.js";

export const GOOSE_NORMALIZATION: CallNormalization = {
  runtime: "goose",
  rule: "name as given; missing and null args are one value (None → Null), {} another; key order ignored",
  source: "aaif-goose/goose crates/goose/src/tool_monitor.rs InternalToolCall::from_tool_call (arguments.map(Value::Object).unwrap_or(Value::Null))",
  view: (tool, params) => ({ tool, params: params === undefined ? null : params }),
};
