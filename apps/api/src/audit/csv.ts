import { Readable, pipeline } from "node:stream";
import type { TAuditEntry } from "@portal/contracts";
import { stringify } from "csv-stringify";
import type { Executor } from "../db/client.ts";
import { auditBatches, type AuditFilters } from "./queries.ts";

/** The export's columns, in order: the list's fields, JSON values as JSON text. */
const COLUMNS = [
  "id",
  "occurred_at",
  "actor_email",
  "actor_user_id",
  "action",
  "outcome",
  "target_type",
  "target_id",
  "ip",
  "user_agent",
  "request_id",
  "before",
  "after",
  "details",
  "chain_seq",
] as const satisfies readonly (keyof TAuditEntry)[];

/**
 * A spreadsheet opening the file must not run anything in it: a cell that starts with = + - @, a tab or a
 * carriage return would be read as a formula, so it gets a leading apostrophe (OWASP's CSV injection advice).
 * The trail holds text people typed (names, user agents, search text in refused paths).
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

function record(entry: TAuditEntry) {
  return {
    ...entry,
    before: json(entry.before),
    after: json(entry.after),
    details: json(entry.details),
  };
}

/**
 * Every matching row as CSV, read from the database in keyset batches as the client takes the bytes
 * (backpressure through the pipeline), so an export of a million rows holds one batch in memory.
 */
export function auditCsvStream(db: Executor, filters: AuditFilters): Readable {
  const source = Readable.from(
    (async function* () {
      for await (const batch of auditBatches(db, filters)) {
        for (const entry of batch) yield record(entry);
      }
    })(),
  );
  const csv = stringify({
    header: true,
    columns: [...COLUMNS],
    cast: { string: (value) => neutraliseCell(value) },
  });
  // A failure half-way ends the download early (the status line has gone); the error is not swallowed.
  pipeline(source, csv, (error) => {
    if (error) csv.destroy(error);
  });
  return csv;
}
