// One listed session of a `loops` run, read and mined into its row: the same work whether the run
// mines in its own thread or deals sessions to worker threads (loopsThreads.ts), so that a row is
// the same bytes either way.
import type { DetectedFormat } from "../import/detect.js";
import type { ElementSpan } from "../import/jsonDocument.js";
import { sessionRow, type SessionRow } from "../realLoops/catalogue.js";
import { labelFor, type DatasetLabels } from "../realLoops/labels.js";
import type { MineParameters } from "../realLoops/mine.js";
import { sessionModel } from "../realLoops/sessionModel.js";
import { readSessionEvents } from "../sessions/recorded.js";

/** A session as the listing found it, with its place in the whole listing. */
export interface ListedSession {
  readonly at: number;
  readonly ref: string;
  readonly id: string;
  readonly span?: ElementSpan;
  readonly format?: DetectedFormat;
}

/** The session's row; a file that cannot be read throws its UserError (the caller reports it or stops). */
export async function minedSessionRow(session: ListedSession, parameters: MineParameters, labels: readonly DatasetLabels[]): Promise<SessionRow> {
  const { at, ref, id, span, format } = session;
  // The model from the file's head first, while its text is at hand: the reader then takes that text and lets it go.
  const model = sessionModel(ref);
  // The span found by the listing: a session of a multi-session file is read from its bytes alone.
  const read = await readSessionEvents(ref, span, format);
  const label = labelFor(ref, labels);
  return sessionRow(at, id, read.format, read.events, parameters, { ...(model === undefined ? {} : { model }), ...(label === undefined ? {} : { label }) });
}
