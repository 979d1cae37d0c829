import type { Database, Queryable } from "./database.ts";
import { quoteIdent } from "./database.ts";

/**
 * Row-level security for the demo data (decision record docs/decisions/019-analytics-row-security.md).
 *
 * Element queries run as a NOLOGIN, non-owner, read-only role with `SET LOCAL ROLE` inside a transaction
 * that is always rolled back. The client ids the request may see are written, before the role switch, to
 * `rls.request_context` keyed by the transaction id; every client-scoped table has a policy comparing its
 * `client_id` with `rls.client_ids()`, a SECURITY DEFINER function that reads that row. The reader role
 * cannot write the context (a custom setting could be forged by any SQL, this cannot); with no context
 * row the function returns an empty array, so a missing attribute yields no rows, never all rows.
 */
export const DEFAULT_READER_ROLE = "analytics_reader";

export async function installRowSecurity(db: Database, readerRole: string): Promise<void> {
  const role = quoteIdent(readerRole);
  await db.exec(`
    do $$
    begin
      if not exists (select 1 from pg_roles where rolname = '${readerRole}') then
        begin
          create role ${role} nologin;
        exception when duplicate_object or unique_violation then null;
        end;
      end if;
    end $$;
    alter role ${role} nologin nosuperuser nocreatedb nocreaterole noinherit nobypassrls noreplication;
    create schema if not exists rls;
    revoke all on schema rls from public;
    create table if not exists rls.request_context (
      txid bigint primary key,
      client_ids text[] not null
    );
    revoke all on rls.request_context from public;
    create or replace function rls.client_ids() returns text[]
      language sql stable security definer
      set search_path = pg_catalog, pg_temp
      as $fn$
        select coalesce(
          (select c.client_ids from rls.request_context c where c.txid = txid_current_if_assigned()),
          '{}'::text[])
      $fn$;
    revoke all on function rls.client_ids() from public;
    grant usage on schema rls to ${role};
    grant execute on function rls.client_ids() to ${role};
  `);
  // The connection's own user may switch roles (it must, to become the reader), so a statement running as the
  // reader could switch back with set_config('role', ...). Nobody but superusers may call set_config here;
  // the server itself only uses SET LOCAL statements.
  try {
    await db.exec(`revoke execute on function pg_catalog.set_config(text, text, boolean) from public;`);
  } catch (error) {
    throw new Error(
      "The analytics database user must be able to revoke EXECUTE on pg_catalog.set_config from PUBLIC " +
        `(a superuser, in a database used only by the analytics server): ${(error as Error).message}`,
    );
  }
  const unsafe = await db.query<{ rolsuper: boolean; rolbypassrls: boolean; memberships: number }>(
    `select r.rolsuper, r.rolbypassrls,
            (select count(*) from pg_auth_members m where m.member = r.oid) as memberships
       from pg_roles r where r.rolname = $1`,
    [readerRole],
  );
  const r = unsafe.rows[0];
  if (!r || r.rolsuper || r.rolbypassrls || Number(r.memberships) > 0) {
    throw new Error(`role ${readerRole} must be a plain role without superuser, BYPASSRLS or memberships`);
  }
}

/** Parses the embed user's attributes into the client ids row security allows (empty = no rows). */
export function clientIdsFromAttributes(attributes: Record<string, string> | undefined): string[] {
  const ids = new Set<string>();
  for (const name of ["client_id", "client_ids"]) {
    for (const part of (attributes?.[name] ?? "").split(",")) {
      const id = part.trim();
      if (id) ids.add(id);
    }
  }
  return [...ids].sort();
}

/**
 * Runs `fn` as the reader role, seeing only rows of `clientIds`. The transaction is read only and always
 * rolled back, so the context row never outlives it.
 */
export function withClientScope<T>(
  db: Database,
  readerRole: string,
  clientIds: readonly string[],
  fn: (q: Queryable) => Promise<T>,
  options: { statementTimeoutMs?: number } = {},
): Promise<T> {
  const role = quoteIdent(readerRole);
  const timeout = Math.max(1, Math.floor(options.statementTimeoutMs ?? 10_000));
  return db.transaction(
    async (tx) => {
      await tx.query(
        "insert into rls.request_context (txid, client_ids) values (txid_current(), $1::text[])",
        [[...clientIds]],
      );
      await tx.exec(`set transaction read only; set local statement_timeout = ${timeout}`);
      // The role is set again before every statement, so no statement can leave a different one for the next.
      const reader: Queryable = {
        query: async (sql, params) => {
          await tx.exec(`set local role ${role}`);
          return tx.query(sql, params);
        },
        exec: async (sql) => {
          // After a failed statement the transaction accepts nothing but a rollback, so going back to a
          // savepoint cannot set the role first; it restores the role of the savepoint's time, which was
          // set before the savepoint was made (`savepoint` itself goes through the branch below).
          if (/^\s*rollback\s+to\s+savepoint\s+\w+\s*;?\s*$/i.test(sql)) {
            await tx.exec(sql);
            return;
          }
          await tx.exec(`set local role ${role}`);
          await tx.exec(sql);
        },
      };
      return fn(reader);
    },
    { rollbackOnly: true },
  );
}
