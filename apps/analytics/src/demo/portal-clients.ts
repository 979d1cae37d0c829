import type { Database } from "../db/database.ts";
import { CLIENT_TABLES, DEFAULT_HISTORY_YEARS, readDemoMeta } from "./load.ts";
import { generateMarket, type Market } from "./market.ts";
import { simulateClient } from "./simulate/client.ts";
import type { IdCounters } from "./simulate/rows.ts";

/** A client as the portal holds them, from an embed token's claims. Names only from their own token. */
export interface PortalClient {
  clientId: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
}

const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const markets = new Map<string, Market>();
/** One client at a time: new rows take the next free ids of the demo tables. */
let queue: Promise<unknown> = Promise.resolve();
/** Counts the changes made here to the demo data, so results computed before one are not used after it. */
let version = 0;

/** The demo data's version in this process: it moves once a change below has been written. */
export function demoDataVersion(): number {
  return version;
}

/**
 * The portal is the system of record for people: a client the portal embeds is shown under the name the
 * portal holds (its own token's names replace whatever the demo data had under that client id), and a
 * client id the demo data does not have gets its own deterministic demo portfolio, made on first use. So
 * nobody ever sees another person's name or figures. One analytics process: clients are handled one at a
 * time in memory; a half-written client (a crash mid-way) is cleared and written again.
 */
export async function ensurePortalClients(db: Database, clients: readonly PortalClient[]): Promise<void> {
  for (const client of clients) {
    if (!CLIENT_ID.test(client.clientId)) continue;
    const next = queue.then(() => ensureOne(db, client));
    queue = next.catch(() => undefined);
    await next;
  }
}

async function ensureOne(db: Database, client: PortalClient): Promise<void> {
  const found = await db.query("select 1 from demo.clients where client_id = $1", [client.clientId]);
  let changed = false;
  try {
    if (found.rows.length === 0) {
      changed = true;
      await generate(db, client.clientId);
    }
    if (client.firstName !== undefined || client.lastName !== undefined) {
      const renamed = await db.query(
        `update demo.clients set first_name = coalesce($2, first_name), last_name = coalesce($3, last_name),
                email = coalesce($4, email)
          where client_id = $1 and (first_name, last_name, email) is distinct from
                (coalesce($2, first_name), coalesce($3, last_name), coalesce($4, email))
          returning client_id`,
        [client.clientId, client.firstName ?? null, client.lastName ?? null, client.email ?? null],
      );
      changed ||= renamed.rows.length > 0;
      if (client.lastName) {
        const household = await db.query(
          "update demo.households set name = $2 where client_id = $1 and name <> $2 returning client_id",
          [client.clientId, `${client.lastName} Household`],
        );
        changed ||= household.rows.length > 0;
      }
    }
  } finally {
    // After the writes (and after a failed one, which may have written part): a result computed from now
    // on is keyed by the new version.
    if (changed) version += 1;
  }
}

async function generate(db: Database, clientId: string): Promise<void> {
  const meta = await readDemoMeta(db);
  if (!meta) return;
  const key = `${meta.seed}:${meta.asOf}`;
  let market = markets.get(key);
  if (!market) {
    market = generateMarket(meta.seed, meta.asOf, DEFAULT_HISTORY_YEARS);
    markets.clear();
    markets.set(key, market);
  }
  const max = async (table: string, column: string) =>
    Number(
      (await db.query<{ n: number }>(`select coalesce(max(${column}), 0)::bigint as n from ${table}`)).rows[0]
        ?.n ?? 0,
    );
  const ids: IdCounters = {
    transaction: await max("demo.transactions", "transaction_id"),
    lot: await max("demo.tax_lots", "lot_id"),
    disposal: await max("demo.lot_disposals", "disposal_id"),
    fee: await max("demo.fees", "fee_id"),
  };
  const rows = simulateClient(market, meta.seed, -1, ids, meta.asOf, clientId);
  // Anything left by an interrupted earlier attempt goes first; the client row is written last, so its
  // presence means the whole portfolio is there.
  for (const t of CLIENT_TABLES) await db.query(`delete from ${t.table} where client_id = $1`, [clientId]);
  for (const t of CLIENT_TABLES.filter((x) => x.key !== "clients")) {
    if (rows[t.key].length > 0) await db.copyCsv(t.table, t.columns, rows[t.key]);
  }
  const clientsTable = CLIENT_TABLES.find((x) => x.key === "clients")!;
  await db.copyCsv(clientsTable.table, clientsTable.columns, rows.clients);
}
