import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/database.ts";
import { migrate } from "../src/db/migrations.ts";
import { DEFAULT_READER_ROLE, installRowSecurity } from "../src/db/row-security.ts";
import { generateDemoData } from "../src/demo/load.ts";
import { generateMarket } from "../src/demo/market.ts";
import { simulateClient } from "../src/demo/simulate/client.ts";
import { loadWorkbookDefinitions } from "../src/workbooks/catalog.ts";
import { runWorkbookPage, type QueryResult } from "../src/workbooks/run.ts";
import type { TWorkbook } from "../src/workbooks/schema.ts";
import { CLIENT_A, TEST_AS_OF, TEST_SEED, openTestDatabase } from "./helpers.ts";

// Independent checks of the demo workbooks' figures: each is recomputed here in TypeScript from the raw
// ledger (transactions, lots, prices, benchmark returns) and compared with what the workbook's SQL returns.

const ROLE = DEFAULT_READER_ROLE;
const A = CLIENT_A!.clientId;
let db: Database;
let cleanup: () => Promise<void>;
let workbooks: Map<string, TWorkbook>;

beforeAll(async () => {
  ({ db, cleanup } = await openTestDatabase());
  await migrate(db);
  await installRowSecurity(db, ROLE);
  await generateDemoData(db, { size: { clients: 4 }, seed: TEST_SEED, asOf: TEST_AS_OF, readerRole: ROLE });
  workbooks = await loadWorkbookDefinitions();
});
afterAll(async () => {
  await cleanup?.();
});

function workbook(name: string): TWorkbook {
  const wb = [...workbooks.values()].find((w) => w.name === name);
  if (!wb) throw new Error(`no workbook ${name}`);
  return wb;
}

function run(name: string, variables: Record<string, string> = {}, scope = [A]): Promise<QueryResult> {
  return runWorkbookPage(db, ROLE, scope, workbook(name), undefined, variables, (e) => {
    throw e;
  });
}

function row(result: QueryResult, element: string): Record<string, unknown> {
  const r = result.elements[element]?.rows[0];
  if (!r) throw new Error(`no row for ${element}`);
  return r;
}

/** Long term means sold more than one year after acquisition (the day after the anniversary or later). */
function isLongTermIndependent(acquired: string, sold: string): boolean {
  const [y, m, d] = acquired.split("-").map(Number) as [number, number, number];
  const anniversary = new Date(Date.UTC(y + 1, m - 1, d));
  if (anniversary.getUTCMonth() !== m - 1) anniversary.setUTCDate(0); // 29 Feb -> 28 Feb
  return new Date(`${sold}T00:00:00Z`).getTime() > anniversary.getTime();
}

describe("Tax Center figures", () => {
  it("one client's year-to-date realized gains match the lot ledger, reconciled to the cash ledger", async () => {
    const year = TEST_AS_OF.slice(0, 4);
    const disposals = await db.query<{
      lot_id: number;
      sell_transaction_id: number;
      acquired_date: string;
      sold_date: string;
      quantity: number;
      proceeds: number;
      cost_basis: number;
      term: string;
    }>(
      `select d.* from demo.lot_disposals d join demo.accounts a using (account_id)
        where d.client_id = $1 and a.taxable and d.sold_date >= $2::date and d.sold_date <= $3::date`,
      [A, `${year}-01-01`, TEST_AS_OF],
    );
    expect(disposals.rows.length).toBeGreaterThan(0);
    const sells = await db.query<{ transaction_id: number; amount: number; quantity: number }>(
      "select transaction_id, amount, quantity from demo.transactions where client_id = $1 and type = 'sell'",
      [A],
    );
    const sellById = new Map(sells.rows.map((s) => [s.transaction_id, s]));
    const proceedsBySell = new Map<number, { proceeds: number; quantity: number }>();
    let shortTerm = 0;
    let longTerm = 0;
    for (const d of disposals.rows) {
      const gain = d.proceeds - d.cost_basis;
      const long = isLongTermIndependent(d.acquired_date, d.sold_date);
      expect(d.term).toBe(long ? "long" : "short");
      if (long) longTerm += gain;
      else shortTerm += gain;
      const acc = proceedsBySell.get(d.sell_transaction_id) ?? { proceeds: 0, quantity: 0 };
      acc.proceeds += d.proceeds;
      acc.quantity += d.quantity;
      proceedsBySell.set(d.sell_transaction_id, acc);
    }
    // Every sale's lots add up to the sale in the cash ledger.
    for (const [id, acc] of proceedsBySell) {
      const sell = sellById.get(id)!;
      expect(acc.proceeds).toBeCloseTo(sell.amount, 2);
      expect(acc.quantity).toBeCloseTo(-sell.quantity, 6);
    }
    // Every lot's basis is what its purchase cost, split between what was sold and what remains.
    const lots = await db.query<{
      cost_basis: number;
      quantity: number;
      remaining_quantity: number;
      remaining_cost_basis: number;
      buy_amount: number;
      sold_q: number;
      sold_cost: number;
    }>(
      `select l.cost_basis, l.quantity, l.remaining_quantity, l.remaining_cost_basis, -b.amount as buy_amount,
              coalesce((select sum(quantity) from demo.lot_disposals d where d.lot_id = l.lot_id), 0) as sold_q,
              coalesce((select sum(cost_basis) from demo.lot_disposals d where d.lot_id = l.lot_id), 0) as sold_cost
         from demo.tax_lots l join demo.transactions b on b.transaction_id = l.buy_transaction_id
        where l.client_id = $1`,
      [A],
    );
    for (const l of lots.rows) {
      expect(l.cost_basis).toBeCloseTo(l.buy_amount, 2);
      expect(l.sold_q + l.remaining_quantity).toBeCloseTo(l.quantity, 6);
      expect(l.sold_cost + l.remaining_cost_basis).toBeCloseTo(l.cost_basis, 2);
    }
    const tax = await run("Tax Center", { TaxYear: year });
    expect(row(tax, "short-term").net).toBeCloseTo(shortTerm, 2);
    expect(row(tax, "long-term").net).toBeCloseTo(longTerm, 2);
    const monthly = tax.elements["gains-by-month"]!.rows;
    const sum = (k: string) => monthly.reduce((s, r) => s + (r[k] as number), 0);
    expect(sum("short_term")).toBeCloseTo(shortTerm, 2);
    expect(sum("long_term")).toBeCloseTo(longTerm, 2);
  });

  it("never generates a wash sale: no purchase of the fund within 30 days either side of a taxable loss", async () => {
    const res = await db.query<{ n: number }>(
      `select count(*)::int as n
         from demo.lot_disposals d
         join demo.accounts a on a.account_id = d.account_id and a.taxable
         join demo.tax_lots l on l.lot_id = d.lot_id
        where d.gain < 0 and exists (
          select 1 from demo.transactions b
           where b.client_id = d.client_id and b.security_id = d.security_id and b.type = 'buy'
             and b.transaction_id <> l.buy_transaction_id
             and b.trade_date between d.sold_date - 30 and d.sold_date + 30)`,
    );
    expect(res.rows[0]?.n).toBe(0);
    const losses = await db.query<{ n: number }>(
      "select count(*)::int as n from demo.lot_disposals d join demo.accounts a using (account_id) where a.taxable and d.gain < 0",
    );
    expect(losses.rows[0]?.n).toBeGreaterThan(0);
  });

  it("the tax estimate nets gains and losses and applies the client's marginal rates", async () => {
    const year = TEST_AS_OF.slice(0, 4);
    const tax = await run("Tax Center", { TaxYear: year });
    const st = row(tax, "short-term").net as number;
    const lt = row(tax, "long-term").net as number;
    const income = await db.query<{ income_type: string; amount: number }>(
      `select t.income_type, sum(t.amount)::float8 as amount from demo.transactions t join demo.accounts a using (account_id)
        where t.client_id = $1 and a.taxable and t.type in ('dividend', 'interest') and t.trade_date between $2::date and $3::date
        group by 1`,
      [A, `${year}-01-01`, TEST_AS_OF],
    );
    const inc = Object.fromEntries(income.rows.map((r) => [r.income_type, r.amount]));
    const rates = (
      await db.query<{ ord: number; ltcg: number; state: number; niit: number }>(
        `select federal_ordinary_rate::float8 as ord, federal_ltcg_rate::float8 as ltcg, state_rate::float8 as state,
                niit_rate::float8 as niit from demo.tax_estimates where client_id = $1 and tax_year = $2`,
        [A, Number(year)],
      )
    ).rows[0]!;
    const net = st + lt;
    let taxableSt = 0;
    let taxableLt = 0;
    let deduction = 0;
    if (net < 0) deduction = Math.min(3000, -net);
    else if (st < 0) taxableLt = net;
    else if (lt < 0) taxableSt = net;
    else [taxableSt, taxableLt] = [st, lt];
    const qd = inc.qualified ?? 0;
    const oi = inc.ordinary ?? 0;
    const expected =
      (taxableSt + oi - deduction) * rates.ord +
      (taxableLt + qd) * rates.ltcg +
      (taxableSt + taxableLt + qd + oi - deduction) * rates.state +
      (taxableSt + taxableLt + qd + oi) * rates.niit;
    expect(row(tax, "estimated-tax").total_tax).toBeCloseTo(expected, 2);
    const breakdown = tax.elements["estimate-breakdown"]!.rows;
    expect(breakdown.reduce((s, r) => s + (r.tax as number), 0)).toBeCloseTo(expected, 2);
  });
});

describe("Portfolio Overview figures", () => {
  it("the time-weighted return for one month matches a replay of the ledger", async () => {
    const start = "2026-10-01";
    const end = "2026-10-31";
    const days = (
      await db.query<{ d: string }>(
        "select d from demo.trading_days where d >= $1::date - 7 and d <= $2::date order by d",
        [start, end],
      )
    ).rows.map((r) => r.d);
    const base = days.filter((d) => d < start).pop()!;
    const period = days.filter((d) => d >= base);
    const tx = (
      await db.query<{
        trade_date: string;
        type: string;
        security_id: number | null;
        quantity: number | null;
        amount: number;
      }>(
        "select trade_date, type, security_id, quantity, amount from demo.transactions where client_id = $1 and trade_date <= $2::date",
        [A, end],
      )
    ).rows;
    const prices = new Map(
      (
        await db.query<{ security_id: number; price_date: string; close: number }>(
          "select security_id, price_date, close from demo.prices where price_date between $1::date and $2::date",
          [base, end],
        )
      ).rows.map((p) => [`${p.security_id}|${p.price_date}`, p.close]),
    );
    const valueOn = (d: string) => {
      let cash = 0;
      let flow = 0;
      const qty = new Map<number, number>();
      for (const t of tx) {
        if (t.trade_date > d) continue;
        cash += t.amount;
        if (t.trade_date === d && (t.type === "deposit" || t.type === "withdrawal")) flow += t.amount;
        if ((t.type === "buy" || t.type === "sell") && t.security_id !== null) {
          qty.set(t.security_id, (qty.get(t.security_id) ?? 0) + (t.quantity ?? 0));
        }
      }
      let mv = cash;
      for (const [sec, q] of qty) if (q) mv += q * (prices.get(`${sec}|${d}`) as number);
      return { mv, flow };
    };
    let growth = 1;
    let prev = valueOn(base).mv;
    for (const d of period.slice(1)) {
      const { mv, flow } = valueOn(d);
      growth *= (mv - flow) / prev;
      prev = mv;
    }
    const twr = growth - 1;
    const client = await db.query<{ benchmark_id: string }>(
      "select benchmark_id from demo.clients where client_id = $1",
      [A],
    );
    const bench = await db.query<{ r: number }>(
      "select daily_return as r from demo.benchmark_returns where benchmark_id = $1 and return_date > $2::date and return_date <= $3::date",
      [client.rows[0]!.benchmark_id, base, end],
    );
    const benchmark = bench.rows.reduce((g, r) => g * (1 + r.r), 1) - 1;

    const overview = await run("Portfolio Overview", { Period: `min:${start},max:${end}` });
    expect(overview.variables.Period).toBe(`min:${start},max:${end}`);
    const r = row(overview, "period-return");
    expect(r.twr as number).toBeCloseTo(twr, 10);
    expect(r.benchmark as number).toBeCloseTo(benchmark, 10);
    expect(Math.abs(twr)).toBeGreaterThan(0);
    // The MTD bar as of the end of October is the same month.
    const mtd = overview.elements["returns-vs-benchmark"]!.rows.find((x) => x.period === "MTD")!;
    expect(mtd.twr as number).toBeCloseTo(twr, 10);
  });

  it("allocation weights sum to 100 % and agree with the holdings and the total value", async () => {
    const overview = await run("Portfolio Overview");
    const alloc = overview.elements["allocation-vs-target"]!.rows;
    expect(alloc.length).toBe(5);
    expect(alloc.reduce((s, r) => s + (r.actual as number), 0)).toBeCloseTo(1, 10);
    expect(alloc.reduce((s, r) => s + (r.target as number), 0)).toBeCloseTo(1, 10);
    const total = row(overview, "total-value").value as number;
    const pie = overview.elements.allocation!.rows;
    expect(pie.reduce((s, r) => s + (r.market_value as number), 0)).toBeCloseTo(total, 2);
    const holdings = overview.elements.holdings!.rows;
    expect(holdings.reduce((s, r) => s + (r.market_value as number), 0)).toBeCloseTo(total, 2);
    expect(holdings.reduce((s, r) => s + (r.weight as number), 0)).toBeCloseTo(1, 10);
    for (const h of holdings.filter((x) => x.symbol !== "CASH")) {
      expect(h.unrealized_gain as number).toBeCloseTo(
        (h.market_value as number) - (h.cost_basis as number),
        2,
      );
    }
  });

  it("positions, open lots and the transaction ledger agree share for share", async () => {
    const res = await db.query<{ n: number }>(
      `with ledger as (
         select account_id, security_id, sum(quantity) as q from demo.transactions
          where type in ('buy', 'sell') group by 1, 2 having sum(quantity) <> 0),
       lots as (
         select account_id, security_id, sum(remaining_quantity) as q from demo.tax_lots
          group by 1, 2 having sum(remaining_quantity) <> 0)
       select count(*)::int as n from ledger
         full join lots using (account_id, security_id)
         full join demo.positions p using (account_id, security_id)
        where ledger.q is distinct from lots.q or lots.q is distinct from p.quantity`,
    );
    expect(res.rows[0]?.n).toBe(0);
  });
});

describe("Income and Fees figures", () => {
  it("income and the effective fee rate follow from the ledger and the tiered schedule", async () => {
    const start = "2025-11-21";
    const end = TEST_AS_OF;
    const result = await run("Income and Fees", { Period: `min:${start},max:${end}` });
    const income = await db.query<{ type: string; amount: number }>(
      "select type, sum(amount)::float8 as amount from demo.transactions where client_id = $1 and type in ('dividend', 'interest') and trade_date between $2::date and $3::date group by 1",
      [A, start, end],
    );
    const byType = Object.fromEntries(income.rows.map((r) => [r.type, r.amount]));
    expect(row(result, "income-total")).toMatchObject({
      dividends: expect.closeTo(byType.dividend ?? 0, 2),
      interest: expect.closeTo(byType.interest ?? 0, 2),
    });
    const monthly = result.elements["income-by-month"]!.rows;
    const monthlyTotal = monthly.reduce(
      (s, r) =>
        s +
        (r.qualified as number) +
        (r.ordinary as number) +
        (r.tax_exempt as number) +
        (r.interest as number),
      0,
    );
    expect(monthlyTotal).toBeCloseTo((byType.dividend ?? 0) + (byType.interest ?? 0), 2);

    const fees = await db.query<{ billed_date: string; aum: number; amount: number }>(
      "select billed_date, aum::float8 as aum, amount::float8 as amount from demo.fees where client_id = $1 and billed_date between $2::date and $3::date",
      [A, start, end],
    );
    expect(fees.rows.length).toBeGreaterThan(0);
    // Tiered annual schedule on household assets: 1.00 % to $1M, 0.80 % to $3M, 0.60 % to $10M, 0.40 % above.
    const annual = (aum: number) =>
      Math.min(aum, 1e6) * 0.01 +
      Math.max(0, Math.min(aum, 3e6) - 1e6) * 0.008 +
      Math.max(0, Math.min(aum, 1e7) - 3e6) * 0.006 +
      Math.max(0, aum - 1e7) * 0.004;
    const byBill = new Map<string, { aum: number; amount: number }>();
    for (const f of fees.rows) {
      const b = byBill.get(f.billed_date) ?? { aum: 0, amount: 0 };
      b.aum += f.aum;
      b.amount += f.amount;
      byBill.set(f.billed_date, b);
    }
    for (const b of byBill.values()) expect(b.amount).toBeCloseTo(annual(b.aum) / 4, 1);
    const totalFees = fees.rows.reduce((s, f) => s + f.amount, 0);
    const bps = (10_000 * totalFees) / (fees.rows.reduce((s, f) => s + f.aum, 0) / 4);
    expect(row(result, "fees-total").fees as number).toBeCloseTo(totalFees, 2);
    expect(row(result, "effective-rate").bps as number).toBeCloseTo(bps, 6);
    expect(bps).toBeGreaterThan(60);
    expect(bps).toBeLessThan(100);
  });
});

describe("demo data generation", () => {
  it("is deterministic: the same seed gives the same client, another seed another one", () => {
    const market = generateMarket(TEST_SEED, TEST_AS_OF, 2);
    const ids = () => ({ transaction: 0, lot: 0, disposal: 0, fee: 0 });
    const a1 = simulateClient(market, TEST_SEED, 0, ids(), TEST_AS_OF);
    const a2 = simulateClient(generateMarket(TEST_SEED, TEST_AS_OF, 2), TEST_SEED, 0, ids(), TEST_AS_OF);
    expect(a2.transactions).toEqual(a1.transactions);
    expect(a2.lotDisposals).toEqual(a1.lotDisposals);
    const other = simulateClient(
      generateMarket(TEST_SEED + 1, TEST_AS_OF, 2),
      TEST_SEED + 1,
      0,
      ids(),
      TEST_AS_OF,
    );
    expect(other.transactions).not.toEqual(a1.transactions);
  });
});
