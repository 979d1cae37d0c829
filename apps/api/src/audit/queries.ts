import { AUDIT_COUNT_CAP, type TAuditEntry, type auditFilterShape } from "@portal/contracts";
import { sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { AUDIT_OUTCOMES } from "./actions.ts";
import type { Executor } from "../db/client.ts";
import { rows } from "../db/rows.ts";

/**
 * The audit log for admins (/admin/audit): newest first by `(occurred_at, id)`, filtered by person, action,
 * outcome and time, paged by keyset. Every filter has a B-tree index that ends in `(occurred_at, id)`
 * (migration 0012), so a page reads about as many index entries as it shows, at any depth and table size.
 */

export type AuditFilters = { [K in keyof typeof auditFilterShape]?: z.output<(typeof auditFilterShape)[K]> };

/** Where a page starts: just past the row at this position, going older ("before") or newer ("after"). */
export interface AuditCursor {
  /** occurred_at as PostgreSQL text (microseconds kept, which a JS Date would drop). */
  at: string;
  id: number;
  direction: "before" | "after";
}

/** A person, as the trail names them: their sign-in account and their client or employee records. */
interface Person {
  email: string;
  userId: string | null;
  /** `client`/`employee` and its c_id/e_id: the records they have, and had (a deleted client keeps its trail). */
  records: { type: string; id: string }[];
}

async function findPerson(db: Executor, email: string): Promise<Person> {
  // A deleted record is found through the row that created it (partial index audit_log_created_email_idx).
  const [found] = rows<{ user_id: string | null; records: string[] | null }>(
    await db.execute(sql`
      select (select u.id from users u where u.email = ${email} limit 1) as user_id,
             array(select 'client:' || c.c_id from clients c where c.email = ${email}
                   union select 'employee:' || e.e_id from employees e where e.email = ${email}
                   union select a.target_type || ':' || a.target_id from audit_log a
                          where a.action in ('client.created', 'employee.created') and a.after->>'email' = ${email}
                   ) as records`),
  );
  const records = (found?.records ?? []).map((record) => {
    const [type, id] = record.split(":") as [string, string];
    return { type, id };
  });
  return { email, userId: found?.user_id ?? null, records };
}

/**
 * "Rows of a person": one condition per way the trail names them. Each is answered by its own index and the
 * branches are merged (UNION), because one OR over them could not be read in time order from any index.
 */
function personBranches(person: Person): SQL[] {
  const branches = [sql`a.actor_email = ${person.email}`];
  if (person.userId) {
    branches.push(sql`a.actor_user_id = ${person.userId}`);
    branches.push(sql`a.target_type = 'user' and a.target_id = ${person.userId}`);
  }
  for (const record of person.records) {
    branches.push(sql`a.target_type = ${record.type} and a.target_id = ${record.id}`);
  }
  return branches;
}

function filterConditions(filters: AuditFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.action) conditions.push(sql`a.action = ${filters.action}`);
  if (filters.outcome) conditions.push(sql`a.outcome = ${filters.outcome}`);
  if (filters.from) conditions.push(sql`a.occurred_at >= ${filters.from.toISOString()}::timestamptz`);
  if (filters.to) conditions.push(sql`a.occurred_at < ${filters.to.toISOString()}::timestamptz`);
  return conditions;
}

const and = (conditions: SQL[]) => (conditions.length ? sql.join(conditions, sql` and `) : sql`true`);

/**
 * The filters as branches whose union is the answer, each one ordered range of an index. An action without
 * an outcome is read as one branch per outcome from the (action, outcome, occurred_at, id) index, so that
 * action and outcome together are a range too, and counting reads the index alone (a rare outcome of a
 * common action would otherwise be found by visiting every row of that action).
 */
async function branchesFor(db: Executor, filters: AuditFilters): Promise<SQL[]> {
  if (filters.person) {
    const common = filterConditions(filters);
    const person = await findPerson(db, filters.person);
    return personBranches(person).map((branch) => and([branch, ...common]));
  }
  if (filters.action && !filters.outcome) {
    // recordAudit writes only these outcomes (audit/actions.ts).
    return AUDIT_OUTCOMES.map((outcome) => and(filterConditions({ ...filters, outcome })));
  }
  return [and(filterConditions(filters))];
}

/**
 * A row's chain position: its own for the first chain (decision 007), else from the seal that lists it
 * (decision 023, found through the seals' GIN index); null before the chain, and until the row is sealed.
 */
const CHAIN_POSITION = sql`coalesce(a.chain_seq, (select s.first_seq + array_position(s.row_ids, a.id) - 1
  from audit_seals s where s.row_ids @> array[a.id] limit 1))`;

const COLUMNS = sql`a.id, to_char(a.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
  a.occurred_at::text as cursor_at, a.actor_user_id, a.actor_email, a.action, a.outcome, a.target_type, a.target_id,
  a.ip, a.user_agent, a.request_id, a.before, a.after, a.details, ${CHAIN_POSITION} as chain_seq`;

type Row = TAuditEntry & { cursor_at: string };

/** One statement: each branch reads at most `limit` rows from its index, the union is cut to `limit`. */
function pageStatement(branches: SQL[], cursor: AuditCursor | undefined, limit: number): SQL {
  const newer = cursor?.direction === "after";
  const order = newer ? sql`occurred_at asc, id asc` : sql`occurred_at desc, id desc`;
  const keyset = cursor
    ? newer
      ? sql` and (a.occurred_at, a.id) > (${cursor.at}::timestamptz, ${cursor.id}::bigint)`
      : sql` and (a.occurred_at, a.id) < (${cursor.at}::timestamptz, ${cursor.id}::bigint)`
    : sql``;
  const ids = sql.join(
    branches.map(
      (where) =>
        sql`(select a.id, a.occurred_at from audit_log a where ${where}${keyset} order by ${order} limit ${limit})`,
    ),
    sql` union `,
  );
  return sql`
    with page as (select id, occurred_at from (${ids}) u order by ${order} limit ${limit})
    select ${COLUMNS} from audit_log a join page p on p.id = a.id
    order by ${newer ? sql`a.occurred_at asc, a.id asc` : sql`a.occurred_at desc, a.id desc`}`;
}

/** How many rows match, counted up to `cap` (null: all of them). */
async function countMatching(db: Executor, branches: SQL[], cap: number | null): Promise<number> {
  const limit = cap === null ? sql`` : sql` limit ${cap + 1}`;
  const ids = sql.join(
    branches.map((where) => sql`(select a.id from audit_log a where ${where}${limit})`),
    sql` union `,
  );
  const [row] = rows<{ n: number }>(await db.execute(sql`select count(*)::int as n from (${ids}) u`));
  return Number(row?.n ?? 0);
}

/** The position of the row a cursor names, or null if there is no such row. */
async function cursorOf(db: Executor, id: number, direction: AuditCursor["direction"]) {
  const [row] = rows<{ at: string }>(
    await db.execute(sql`select occurred_at::text as at from audit_log where id = ${id}`),
  );
  return row ? { at: row.at, id, direction } : null;
}

const strip = ({ cursor_at: _cursor, ...entry }: Row): TAuditEntry => ({
  ...entry,
  id: Number(entry.id),
  chain_seq: entry.chain_seq === null ? null : Number(entry.chain_seq),
});

export interface AuditPage {
  rows: TAuditEntry[];
  /** Matching rows, counted up to AUDIT_COUNT_CAP. */
  total: number;
  capped: boolean;
  /** Cursors of the neighbouring pages (row ids), null where there is none. */
  older: number | null;
  newer: number | null;
}

type PageQuery = AuditFilters & { limit: number; before?: number | undefined; after?: number | undefined };

/** The filter's branches and the row a page starts from (undefined: the first page; null: no such row). */
async function pageInputs(db: Executor, query: PageQuery) {
  const branches = await branchesFor(db, query);
  const cursorId = query.before ?? query.after;
  const cursor =
    cursorId === undefined ? undefined : await cursorOf(db, cursorId, query.after ? "after" : "before");
  return { branches, cursor };
}

export async function listAudit(db: Executor, query: PageQuery): Promise<AuditPage> {
  const { branches, cursor } = await pageInputs(db, query);
  const total = await countMatching(db, branches, AUDIT_COUNT_CAP);
  const capped = total > AUDIT_COUNT_CAP;
  if (cursor === null)
    return { rows: [], total: Math.min(total, AUDIT_COUNT_CAP), capped, older: null, newer: null };
  // One more than asked: whether there is a page beyond this one.
  const found = rows<Row>(await db.execute(pageStatement(branches, cursor, query.limit + 1)));
  const more = found.length > query.limit;
  const page = found.slice(0, query.limit);
  if (cursor?.direction === "after") page.reverse();
  const first = page[0];
  const last = page.at(-1);
  const goingNewer = cursor?.direction === "after";
  return {
    rows: page.map(strip),
    total: Math.min(total, AUDIT_COUNT_CAP),
    capped,
    older: last && (goingNewer || more) ? Number(last.id) : null,
    newer: first && (goingNewer ? more : cursor !== undefined) ? Number(first.id) : null,
  };
}

/** Every matching row, newest first, `batch` rows per statement: what the CSV export streams. */
export async function* auditBatches(
  db: Executor,
  filters: AuditFilters,
  batch = 1000,
): AsyncGenerator<TAuditEntry[]> {
  const branches = await branchesFor(db, filters);
  let cursor: AuditCursor | undefined;
  for (;;) {
    const found = rows<Row>(await db.execute(pageStatement(branches, cursor, batch)));
    if (found.length > 0) yield found.map(strip);
    if (found.length < batch) return;
    const last = found.at(-1)!;
    cursor = { at: last.cursor_at, id: Number(last.id), direction: "before" };
  }
}

export async function countAudit(db: Executor, filters: AuditFilters): Promise<number> {
  return countMatching(db, await branchesFor(db, filters), null);
}

/** The SQL of a page of the list (for the benchmark, which runs it through the driver as well). */
export async function auditPageQuery(db: Executor, query: PageQuery): Promise<SQL> {
  const { branches, cursor } = await pageInputs(db, query);
  return pageStatement(branches, cursor ?? undefined, query.limit + 1);
}
