import type { CalendarDay } from "../calendar.ts";
import type { Market } from "../market.ts";
import { Prng } from "../prng.ts";
import { TARGETS } from "../reference.ts";
import { openAccounts, writeClientRows } from "./accounts.ts";
import { harvestLosses, investCash, raiseCash, rebalance } from "./allocation.ts";
import { fund, monthlyFlows } from "./cash-flows.ts";
import { writePositions, writeTaxEstimates, writeTaxLots } from "./closing.ts";
import { billFees, closeQuarter, startBilling, type QuarterBilling } from "./fees.ts";
import { payIncome } from "./income.ts";
import { clientProfile } from "./profile.ts";
import { csv, type ClientRows, type IdCounters } from "./rows.ts";
import { N_SEC, isOpen, type Account, type ClientSim } from "./state.ts";

/**
 * Simulates each client's accounts day by day over the market history: funding, contributions and
 * withdrawals, dividends and interest to cash, quarterly advisory fees, investing cash toward the model,
 * quarterly rebalancing, and monthly tax-loss harvesting in taxable accounts. Trades keep tax lots;
 * sales relieve lots (tax-aware in taxable accounts, FIFO elsewhere) and record realized gains.
 *
 * Wash sales never occur by construction, so realized losses need no adjustment: a taxable account
 * never sells a lot at a loss within 30 days after the client bought the same fund in any account, and
 * after a loss sale the client buys that fund in no account for the next 30 days.
 */
export function simulateClient(
  market: Market,
  seed: number,
  index: number,
  ids: IdCounters,
  asOf: string,
  /** A client the portal added under an id the demo data does not have (see clientProfile). */
  portalClientId?: string,
): ClientRows {
  const p = clientProfile(seed, index, portalClientId);
  const rng = new Prng(seed, "activity", p.clientId);
  const cal = market.calendar;
  const target = TARGETS[p.riskProfile];
  const sim: ClientSim = {
    market,
    cal,
    profile: p,
    rng,
    ids,
    out: {
      households: [csv([p.householdId, p.clientId, p.householdName])],
      clients: [],
      accounts: [],
      transactions: [],
      taxLots: [],
      lotDisposals: [],
      positions: [],
      fees: [],
      taxEstimates: [],
    },
    accounts: [],
    allLots: [],
    lastBuy: new Int32Array(N_SEC).fill(-1_000_000),
    blockedUntil: new Int32Array(N_SEC).fill(-1_000_000),
    target,
    asOfYear: Number(asOf.slice(0, 4)),
    monthlySaving: p.saver ? Math.round(rng.between(500, 5000) / 100) * 10_000 : 0,
    i: 0,
    today: cal[0] as CalendarDay,
  };
  sim.accounts = openAccounts(p, target, cal);
  writeClientRows(sim);

  const billing = startBilling(cal);
  for (sim.i = 0; sim.i < cal.length; sim.i++) simulateDay(sim, billing);
  sim.i = cal.length - 1;

  writeTaxLots(sim);
  writePositions(sim, asOf);
  writeTaxEstimates(sim);
  return sim.out;
}

/** One business day: income, the quarter's fee, each account's day, the quarter's closing values. */
function simulateDay(sim: ClientSim, billing: QuarterBilling): void {
  const today = (sim.today = sim.cal[sim.i] as CalendarDay);
  if (today.quarterStart) billing.runningStart = `${today.iso.slice(0, 8)}01`;

  // Income on holdings at the start of the day.
  if (today.monthEnd) payIncome(sim);

  // Advisory fee for the quarter that just ended, billed on its first business day.
  if (today.quarterStart && billing.total > 0) billFees(sim, billing);

  for (const a of sim.accounts) simulateAccountDay(sim, a);

  if (today.quarterEnd) closeQuarter(sim, billing);
}

/**
 * An open account's day: funded on its first; on a month's first, its cash flows, then tax-loss harvesting
 * (taxable accounts), and a rebalance at a quarter's start or else investing the cash; never left overdrawn.
 */
function simulateAccountDay(sim: ClientSim, a: Account): void {
  const { today } = sim;
  if (!isOpen(sim, a)) return;
  if (a.openIndex === sim.i) {
    fund(sim, a);
    return;
  }
  if (today.monthStart) {
    const flowed = monthlyFlows(sim, a);
    if (a.taxable) harvestLosses(sim, a);
    if (today.quarterStart) rebalance(sim, a, today.month === 1 ? 0.02 : 0.05);
    else investCash(sim, a, flowed ? "invest contribution" : "invest cash");
  }
  if (a.cash < 0) raiseCash(sim, a, 0, "cover cash");
}
