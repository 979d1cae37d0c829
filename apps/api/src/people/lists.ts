import type { TPersonKind } from "@portal/contracts";
import { sql, type SQL } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { rows } from "../db/rows.ts";
import { prefixSearch } from "../db/search.ts";
import { invitationStateColumn } from "../invitations/invitations.ts";
import { AppError } from "../lib/errors.ts";
import { accountStateColumns } from "./account-state.ts";
import { personTable, type PersonKind } from "./kinds.ts";

/** The back office's lists of clients and employees, and a person as the list shows them. */

/** One query for a page of people in the spec's shape; related lists are aggregated per returned row. */
function selectPeople(kind: PersonKind, where: SQL, order: SQL, limit: number, offset: number, total: SQL) {
  const { table, id, businessId } = personTable(kind);
  return sql`
    select person.${id}, person.${businessId}, person.first_name, person.last_name, person.email, person.privilege,
      ${kind.ownColumns},
      ${accountStateColumns(sql`person.user_id`)},
      ${invitationStateColumn(kind.kind, sql`person.${id}`, sql`person.user_id`)},
      ${total} as total
    from ${table} person
    where ${where}
    order by ${order}
    limit ${limit} offset ${offset}`;
}

type Row = { total: number; invitation?: unknown };
// `invitation` is listed only while the person has not set a password (D55).
function strip<R>({ total: _total, invitation, ...person }: Row): R {
  return (invitation ? { ...person, invitation } : person) as R;
}

interface ListQuery {
  q?: string | undefined;
  sort: string;
  limit: number;
  offset: number;
}

/** The SQL of one page of a list (exported so the benchmark can run it through the driver). */
export function personListQuery(kind: PersonKind, query: ListQuery) {
  const { table, businessId } = personTable(kind);
  const where = query.q
    ? prefixSearch(
        [sql`person.${businessId}`, sql`person.first_name`, sql`person.last_name`, sql`person.email`],
        query.q,
      )
    : sql`true`;
  const total = query.q
    ? sql`(select count(*) from ${table} person where ${where})::int`
    : sql`(select row_count from table_row_counts where table_name = ${kind.table.name})::int`;
  const order = (kind.orders as Record<string, SQL>)[query.sort];
  if (!order) throw new AppError(400, "Unknown sort.", "INVALID_INPUT");
  return { where, statement: selectPeople(kind, where, order, query.limit, query.offset, total) };
}

export async function listPeople<R extends object>(
  db: Executor,
  kind: PersonKind<TPersonKind, R>,
  query: ListQuery,
) {
  const { table } = personTable(kind);
  const { where, statement } = personListQuery(kind, query);
  const list = rows<Row>(await db.execute(statement));
  const count =
    list[0]?.total ??
    rows<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from ${table} person where ${where}`),
    )[0]!.n;
  return { rows: list.map((row) => strip<R>(row)), total: count };
}

/** People by internal id, as the list shows them (in the order of `ids`' ids ascending). */
export async function getPeople<R extends object>(
  db: Executor,
  kind: PersonKind<TPersonKind, R>,
  ids: number[],
) {
  if (ids.length === 0) return [];
  const { id } = personTable(kind);
  const found = rows<Row>(
    await db.execute(
      selectPeople(
        kind,
        sql`person.${id} = any(${sql.param(ids)}::int[])`,
        sql`person.${id}`,
        ids.length,
        0,
        sql`1`,
      ),
    ),
  );
  return found.map((row) => strip<R>(row));
}

export async function getPerson<R extends object>(
  db: Executor,
  kind: PersonKind<TPersonKind, R>,
  personId: number,
) {
  const [person] = await getPeople(db, kind, [personId]);
  return person;
}
