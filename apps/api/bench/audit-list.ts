/**
 * The audit log's part of `npm run bench:lists`: a trail of 1k, 100k and 1M rows, written through the real
 * hash chain (`appendChained`, so the indexes and the chain are what production has), and the list's pages
 * under each filter through the API and as SQL through the driver.
 */
import { ZAuditListQuerySchema } from "@portal/contracts";
import { PgDialect } from "drizzle-orm/pg-core";
import type pg from "pg";
import { auditPageQuery } from "../src/audit/queries.ts";
import { appendChained, type PendingRow } from "../src/audit/chain.ts";
import { sealAuditChain } from "../src/audit/sealer.ts";
import type { Database } from "../src/db/client.ts";

// Not a multiple of the 20 kinds of row below, so every person has rows of every kind.
const PEOPLE = 19_999;
const YEAR_MS = 365 * 86_400_000;
const START = Date.UTC(2025, 10, 1);
const BATCH = 5_000;

/** Row `i` of a trail of `size` rows: a year of a firm's traffic, embeds most of it, oldest first. */
function row(i: number, size: number): PendingRow {
  const person = 1 + (i % PEOPLE);
  const email = `client${person}@example.com`;
  const kind = i % 20;
  const base = {
    occurredAt: new Date(START + Math.floor((i / size) * YEAR_MS)),
    ip: "10.0.0.1",
    userAgent: "bench",
    requestId: `r${i}`,
    before: null,
    after: null,
    details: null,
  };
  if (kind < 12) {
    const details = { workbook: `Workbook-${i % 10}`, jti: `j${i}` };
    return {
      ...base,
      action: "embed.issued",
      outcome: "success",
      actorUserId: `bench-c${person}`,
      actorEmail: email,
      targetType: "workbook",
      targetId: String(i % 10),
      details,
    };
  }
  if (kind < 15) {
    return {
      ...base,
      action: "auth.sign_in",
      outcome: kind === 14 && i % 3 === 0 ? "failure" : "success",
      actorUserId: `bench-c${person}`,
      actorEmail: email,
      targetType: null,
      targetId: null,
    };
  }
  if (kind === 15) {
    return {
      ...base,
      action: "access.denied",
      outcome: "denied",
      actorUserId: `bench-c${person}`,
      actorEmail: email,
      targetType: "route",
      targetId: "GET /api/admin/clients",
    };
  }
  const before = { c_id: person, last_name: `Name${i}` };
  const after = { c_id: person, last_name: `Name${i + 1}` };
  return {
    ...base,
    action: "client.updated",
    outcome: "success",
    actorUserId: "bench-admin",
    actorEmail: "bench.admin@example.com",
    targetType: "client",
    targetId: String(person),
    before,
    after,
  };
}

/** Grows the trail from `from` to `to` rows (oldest first), through the chain, in statements of 5,000. */
export async function seedAudit(db: Database, pool: pg.Pool, from: number, to: number): Promise<void> {
  // The people the rows name (when the client list's part has not left a million of them).
  await pool.query(
    `insert into users (id, name, email, email_verified, role)
     select 'bench-c' || i, 'Client ' || i, 'client' || i || '@example.com', true, 'client'
     from generate_series(1, $1::int) i on conflict do nothing`,
    [PEOPLE],
  );
  await pool.query(
    `insert into clients (client_id, first_name, last_name, email, privilege, user_id)
     select 'CL-' || lpad(i::text, 7, '0'), 'Client', 'No' || i, 'client' || i || '@example.com', 'View', 'bench-c' || i
     from generate_series(1, $1::int) i on conflict do nothing`,
    [PEOPLE],
  );
  // The bench's own sign-ins are newer than any seeded row; they stay at the top of the trail.
  for (let start = from; start < to; start += BATCH) {
    const end = Math.min(to, start + BATCH);
    await appendChained(
      db,
      Array.from({ length: end - start }, (_, k) => row(start + k, to)),
    );
  }
  // What the portal's sealer does within a moment of each write (decision 023): every row gets its place.
  while ((await sealAuditChain(db, { wait: true })) !== 0);
  await pool.query("vacuum analyze audit_log");
}

/** The list's cases at one size: URLs for the API, the same filters for the SQL. */
export async function auditCases(pool: pg.Pool) {
  const [middle] = (
    await pool.query<{ id: string }>(
      "select id from audit_log order by occurred_at, id offset (select count(*) / 2 from audit_log) limit 1",
    )
  ).rows;
  const cases: { label: string; query: Record<string, string> }[] = [
    { label: "first page", query: {} },
    { label: "middle", query: { before: middle!.id } },
    { label: "person", query: { person: "client777@example.com" } },
    { label: "action", query: { action: "client.updated" } },
    { label: "outcome", query: { outcome: "denied" } },
    { label: "month", query: { from: "2026-03-01", to: "2026-03-31" } },
    { label: "sign-in failures", query: { action: "auth.sign_in", outcome: "failure" } },
    { label: "none rate-limited", query: { action: "auth.sign_in", outcome: "rate_limited" } },
    { label: "person+action", query: { person: "client42@example.com", action: "auth.sign_in" } },
  ];
  return cases.map((c) => ({ ...c, url: `/api/admin/audit?${new URLSearchParams(c.query).toString()}` }));
}

/** The page statement of a case, compiled for the driver (its person and cursor looked up first). */
export async function auditCaseSql(db: Database, query: Record<string, string>) {
  return new PgDialect().sqlToQuery(await auditPageQuery(db, ZAuditListQuerySchema.parse(query)));
}
