import type { Database } from "../db/database.ts";
import { dayOf, isoOf, parts } from "./calendar.ts";
import { generateMarket } from "./market.ts";
import { ASSET_CLASSES, BENCHMARK_NAMES, RISK_PROFILES, SECURITIES, SLEEVES, TARGETS } from "./reference.ts";
import { CREATE_FUNCTIONS, CREATE_INDEXES, CREATE_TABLES, rowSecuritySql } from "./schema.ts";
import { simulateClient } from "./simulate/client.ts";
import type { ClientRows, IdCounters } from "./simulate/rows.ts";

/** Bumped whenever generated figures change, so an existing database is regenerated. */
export const GENERATOR_VERSION = "1";
export const DEFAULT_DEMO_SEED = 24;
export const DEFAULT_HISTORY_YEARS = 2;

/** `tiny` for tests, `small` for a demo, `medium`, `large` (about 10 million transactions, for benchmarks). */
export const DEMO_SIZE_PRESETS = {
  tiny: { clients: 6 },
  small: { clients: 40 },
  medium: { clients: 1_000 },
  large: { transactions: 10_000_000 },
} as const;

export type DemoSize =
  { clients: number; transactions?: undefined } | { transactions: number; clients?: undefined };

/** Parses the size knob: a preset name, a number of clients, or `<n>tx` for a number of transactions. */
export function parseDemoSize(value: string): DemoSize {
  const v = value.trim().toLowerCase();
  if (v in DEMO_SIZE_PRESETS) return DEMO_SIZE_PRESETS[v as keyof typeof DEMO_SIZE_PRESETS];
  const tx = /^(\d+)(k|m)?tx$/.exec(v);
  if (tx) return { transactions: Number(tx[1]) * (tx[2] === "m" ? 1_000_000 : tx[2] === "k" ? 1_000 : 1) };
  if (/^\d+$/.test(v) && Number(v) >= 2) return { clients: Number(v) };
  throw new Error(
    `ANALYTICS_DEMO_SIZE must be tiny, small, medium, large, a number of clients (>= 2) or <n>tx`,
  );
}

export interface DemoDataOptions {
  size: DemoSize;
  seed?: number;
  /** The last day of the history (default: the last business day before today, UTC). */
  asOf?: string;
  years?: number;
  readerRole: string;
  log?: (message: string) => void;
}

export interface DemoMeta {
  asOf: string;
  seed: number;
  size: string;
  generatorVersion: string;
  clients: number;
  transactions: number;
}

export function defaultAsOf(now = new Date()): string {
  let day = dayOf(now.toISOString().slice(0, 10)) - 1;
  while ([0, 6].includes(parts(day).weekday)) day--;
  return isoOf(day);
}

export async function readDemoMeta(db: Database): Promise<DemoMeta | undefined> {
  const exists = await db.query<{ ok: boolean }>("select to_regclass('demo.meta') is not null as ok");
  if (!exists.rows[0]?.ok) return undefined;
  const rows = await db.query<{ key: string; value: string }>("select key, value from demo.meta");
  const m = Object.fromEntries(rows.rows.map((r) => [r.key, r.value]));
  if (!m.as_of || !m.seed || !m.generator_version) return undefined;
  return {
    asOf: m.as_of,
    seed: Number(m.seed),
    size: m.size ?? "",
    generatorVersion: m.generator_version,
    clients: Number(m.clients ?? 0),
    transactions: Number(m.transactions ?? 0),
  };
}

/** Generates the demo data unless the database already holds the same seed, size, version and as-of date. */
export async function ensureDemoData(
  db: Database,
  options: DemoDataOptions,
): Promise<DemoMeta & { generated: boolean }> {
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const asOf = options.asOf ?? defaultAsOf();
  const size = JSON.stringify(options.size);
  const meta = await readDemoMeta(db);
  if (
    meta &&
    meta.seed === seed &&
    meta.asOf === asOf &&
    meta.size === size &&
    meta.generatorVersion === GENERATOR_VERSION
  ) {
    await applyFunctionsAndRowSecurity(db, options.readerRole);
    return { ...meta, generated: false };
  }
  return { ...(await generateDemoData(db, { ...options, seed, asOf })), generated: true };
}

/** Shared functions and row-security policies: idempotent, applied on every boot. */
async function applyFunctionsAndRowSecurity(db: Database, readerRole: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.exec(CREATE_FUNCTIONS);
    await tx.exec(rowSecuritySql(readerRole));
  });
}

function* csvLines<T>(rows: Iterable<T>, toLine: (row: T) => string): Generator<string> {
  let chunk = "";
  for (const row of rows) {
    chunk += toLine(row);
    if (chunk.length > 1 << 20) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

function* joined(lines: string[]): Generator<string> {
  let chunk = "";
  for (const line of lines) {
    chunk += line;
    if (chunk.length > 1 << 20) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

export const CLIENT_TABLES: { key: keyof ClientRows; table: string; columns: string[] }[] = [
  { key: "households", table: "demo.households", columns: ["household_id", "client_id", "name"] },
  {
    key: "clients",
    table: "demo.clients",
    columns: [
      "client_id",
      "household_id",
      "first_name",
      "last_name",
      "email",
      "risk_profile",
      "benchmark_id",
      "state",
      "filing_status",
      "inception_date",
    ],
  },
  {
    key: "accounts",
    table: "demo.accounts",
    columns: ["account_id", "client_id", "account_type", "name", "taxable", "opened_date"],
  },
  {
    key: "transactions",
    table: "demo.transactions",
    columns: [
      "transaction_id",
      "client_id",
      "account_id",
      "trade_date",
      "type",
      "security_id",
      "quantity",
      "price",
      "amount",
      "income_type",
      "description",
    ],
  },
  {
    key: "taxLots",
    table: "demo.tax_lots",
    columns: [
      "lot_id",
      "client_id",
      "account_id",
      "security_id",
      "acquired_date",
      "quantity",
      "cost_basis",
      "remaining_quantity",
      "remaining_cost_basis",
      "buy_transaction_id",
    ],
  },
  {
    key: "lotDisposals",
    table: "demo.lot_disposals",
    columns: [
      "disposal_id",
      "lot_id",
      "client_id",
      "account_id",
      "security_id",
      "acquired_date",
      "sold_date",
      "quantity",
      "proceeds",
      "cost_basis",
      "gain",
      "term",
      "sell_transaction_id",
    ],
  },
  {
    key: "positions",
    table: "demo.positions",
    columns: ["client_id", "account_id", "security_id", "quantity", "cost_basis", "as_of"],
  },
  {
    key: "fees",
    table: "demo.fees",
    columns: [
      "fee_id",
      "client_id",
      "account_id",
      "period_start",
      "period_end",
      "billed_date",
      "aum",
      "annual_rate_bps",
      "amount",
    ],
  },
  {
    key: "taxEstimates",
    table: "demo.tax_estimates",
    columns: [
      "client_id",
      "tax_year",
      "filing_status",
      "federal_ordinary_rate",
      "federal_ltcg_rate",
      "state_rate",
      "niit_rate",
      "estimated_payments",
    ],
  },
];

/**
 * Drops and regenerates schema `demo`: reference data, prices and benchmarks, then clients in batches
 * streamed with COPY, then keys, indexes, row security and statistics.
 */
export async function generateDemoData(
  db: Database,
  options: DemoDataOptions & { seed: number; asOf: string },
): Promise<DemoMeta> {
  const log = options.log ?? (() => undefined);
  const years = options.years ?? DEFAULT_HISTORY_YEARS;
  const started = Date.now();
  const market = generateMarket(options.seed, options.asOf, years);
  await db.exec(CREATE_TABLES);

  await db.copyCsv(
    "demo.asset_classes",
    ["asset_class", "name", "sort_order"],
    csvLines(ASSET_CLASSES, (a) => `${a.id},${a.name},${a.sort}\n`),
  );
  await db.copyCsv(
    "demo.securities",
    [
      "security_id",
      "symbol",
      "name",
      "asset_class",
      "sleeve",
      "income_type",
      "dividend_frequency",
      "distribution_yield",
    ],
    csvLines(SECURITIES, (s) => {
      const sl = SLEEVES.find((x) => x.id === s.sleeve);
      if (!sl) throw new Error(`unknown sleeve ${s.sleeve}`);
      return `${s.id},${s.symbol},${s.name},${s.assetClass},${s.sleeve},${sl.incomeType},${sl.frequency},${sl.yield}\n`;
    }),
  );
  await db.copyCsv(
    "demo.trading_days",
    ["d"],
    csvLines(market.calendar, (d) => `${d.iso}\n`),
  );
  await db.copyCsv(
    "demo.prices",
    ["security_id", "price_date", "close"],
    csvLines(
      SECURITIES.flatMap((s) =>
        market.calendar.map(
          (d, i) => [s.id, d.iso, (market.price4[s.id] as Int32Array)[i] as number] as const,
        ),
      ),
      ([id, iso, p4]) => `${id},${iso},${(p4 / 10_000).toFixed(4)}\n`,
    ),
  );
  await db.copyCsv(
    "demo.target_allocations",
    ["risk_profile", "asset_class", "weight"],
    csvLines(
      RISK_PROFILES.flatMap((rp) => ASSET_CLASSES.map((ac) => [rp, ac.id, TARGETS[rp][ac.id]] as const)),
      ([rp, ac, w]) => `${rp},${ac},${w}\n`,
    ),
  );
  await db.copyCsv(
    "demo.benchmarks",
    ["benchmark_id", "name"],
    csvLines(RISK_PROFILES, (rp) => `${rp},${BENCHMARK_NAMES[rp]}\n`),
  );
  await db.copyCsv(
    "demo.benchmark_returns",
    ["benchmark_id", "return_date", "daily_return"],
    csvLines(
      RISK_PROFILES.flatMap((rp) =>
        market.calendar
          .slice(1)
          .map((d, k) => [rp, d.iso, (market.benchmark[rp] as Float64Array)[k + 1] as number] as const),
      ),
      ([rp, iso, r]) => `${rp},${iso},${r}\n`,
    ),
  );

  const ids: IdCounters = { transaction: 0, lot: 0, disposal: 0, fee: 0 };
  const batchSize = 200;
  let clients = 0;
  const done = () =>
    options.size.clients !== undefined
      ? clients >= options.size.clients
      : ids.transaction >= options.size.transactions;
  while (!done()) {
    const batch: ClientRows = {
      households: [],
      clients: [],
      accounts: [],
      transactions: [],
      taxLots: [],
      lotDisposals: [],
      positions: [],
      fees: [],
      taxEstimates: [],
    };
    for (let k = 0; k < batchSize && !done(); k++) {
      const rows = simulateClient(market, options.seed, clients, ids, options.asOf);
      for (const t of CLIENT_TABLES) for (const line of rows[t.key]) batch[t.key].push(line);
      clients++;
    }
    for (const t of CLIENT_TABLES) await db.copyCsv(t.table, t.columns, joined(batch[t.key]));
    log(
      `demo data: ${clients} clients, ${ids.transaction} transactions (${Math.round((Date.now() - started) / 1000)} s)`,
    );
  }

  await db.exec(CREATE_INDEXES);
  await applyFunctionsAndRowSecurity(db, options.readerRole);
  const meta: DemoMeta = {
    asOf: options.asOf,
    seed: options.seed,
    size: JSON.stringify(options.size),
    generatorVersion: GENERATOR_VERSION,
    clients,
    transactions: ids.transaction,
  };
  await db.query(
    `insert into demo.meta (key, value) values
       ('as_of', $1), ('seed', $2), ('size', $3), ('generator_version', $4), ('clients', $5), ('transactions', $6),
       ('history_start', $7)`,
    [
      meta.asOf,
      String(meta.seed),
      meta.size,
      meta.generatorVersion,
      String(meta.clients),
      String(meta.transactions),
      market.calendar[0]?.iso ?? meta.asOf,
    ],
  );
  await db.exec("analyze");
  log(
    `demo data ready: ${clients} clients, ${ids.transaction} transactions in ${Math.round((Date.now() - started) / 1000)} s`,
  );
  return meta;
}
