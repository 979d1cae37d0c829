import { DEMO_CLIENTS } from "@portal/contracts/demo";
import { isLongTerm, isoOf, type CalendarDay, type Day } from "./calendar.ts";
import type { Market } from "./market.ts";
import { Prng } from "./prng.ts";
import {
  ACCOUNT_TYPES,
  CASH_RATE,
  FIRST_NAMES,
  LAST_NAMES,
  RISK_PROFILES,
  SECURITIES,
  SLEEVES,
  STATES,
  TARGETS,
  annualFee,
  type AccountType,
  type AssetClassId,
  type RiskProfile,
  type Sleeve,
} from "./reference.ts";

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

const N_SEC = SECURITIES.length + 1;
const WASH_SALE_DAYS = 30;
const SECURITY = SECURITIES.reduce<Record<number, (typeof SECURITIES)[number]>>((m, s) => {
  m[s.id] = s;
  return m;
}, {});
const SLEEVE = SLEEVES.reduce<Record<string, Sleeve>>((m, s) => {
  m[s.id] = s;
  return m;
}, {});
const SLEEVE_SECURITIES: Record<string, [number, number]> = {};
for (const s of SECURITIES) {
  const pair = (SLEEVE_SECURITIES[s.sleeve] ??= [0, 0]);
  pair[s.rank] = s.id;
}

export interface ClientProfile {
  clientId: string;
  householdId: string;
  householdName: string;
  firstName: string;
  lastName: string;
  email: string;
  riskProfile: RiskProfile;
  state: string;
  stateRate: number;
  filingStatus: "single" | "married_joint";
  ordinaryRate: number;
  ltcgRate: number;
  niitRate: number;
  saver: boolean;
  retiree: boolean;
  /** A one-off withdrawal from the taxable account in the as-of year (month 1-12), in dollars. */
  lumpWithdrawal?: { month: number; dollars: number; description: string };
  accounts: { type: AccountType; name: string; initialDollars: number; openOffsetDays: number }[];
}

/** The portal's demo clients, with the profiles their workbooks show. */
const FIXED_PROFILES: Record<string, Omit<ClientProfile, "clientId" | "firstName" | "lastName" | "email">> = {
  "CL-1001": {
    householdId: "HH-1001",
    householdName: "Bennett Household",
    riskProfile: "growth",
    state: "NY",
    stateRate: 0.0685,
    filingStatus: "married_joint",
    ordinaryRate: 0.32,
    ltcgRate: 0.15,
    niitRate: 0.038,
    saver: true,
    retiree: false,
    lumpWithdrawal: { month: 6, dollars: 150_000, description: "Home renovation" },
    accounts: [
      { type: "taxable", name: "Joint Brokerage", initialDollars: 1_250_000, openOffsetDays: 0 },
      { type: "ira", name: "Rollover IRA", initialDollars: 640_000, openOffsetDays: 0 },
      { type: "roth", name: "Roth IRA", initialDollars: 145_000, openOffsetDays: 0 },
    ],
  },
  "CL-1002": {
    householdId: "HH-1002",
    householdName: "Chen Household",
    riskProfile: "moderate",
    state: "CA",
    stateRate: 0.093,
    filingStatus: "married_joint",
    ordinaryRate: 0.35,
    ltcgRate: 0.2,
    niitRate: 0.038,
    saver: false,
    retiree: true,
    accounts: [
      { type: "taxable", name: "Individual Brokerage", initialDollars: 820_000, openOffsetDays: 0 },
      { type: "trust", name: "Chen Family Revocable Trust", initialDollars: 2_150_000, openOffsetDays: 0 },
      { type: "ira", name: "Traditional IRA", initialDollars: 910_000, openOffsetDays: 0 },
    ],
  },
};

export function clientIdOf(index: number): string {
  return `CL-${1001 + index}`;
}

/**
 * The profile of the demo client at `index`, or — given `portalClientId` — of a client the portal added under
 * an id the demo data does not have: deterministic from that id, so the same client always gets the same
 * portfolio (embed/portal-clients.ts).
 */
export function clientProfile(seed: number, index: number, portalClientId?: string): ClientProfile {
  const clientId = portalClientId ?? clientIdOf(index);
  const tag = portalClientId ?? String(1001 + index);
  const demo = DEMO_CLIENTS.find((c) => c.clientId === clientId);
  const fixed = FIXED_PROFILES[clientId];
  if (demo && fixed) {
    return { clientId, firstName: demo.firstName, lastName: demo.lastName, email: demo.email, ...fixed };
  }
  const rng = new Prng(seed, "profile", clientId);
  const firstName = rng.pick(FIRST_NAMES);
  const lastName = rng.pick(LAST_NAMES);
  const state = rng.pick(STATES);
  const wealth = Math.min(25_000_000, Math.max(60_000, Math.exp(Math.log(700_000) + 0.9 * rng.normal())));
  const ordinaryRate =
    wealth > 3_000_000 ? 0.37 : wealth > 1_000_000 ? rng.pick([0.32, 0.35]) : rng.pick([0.22, 0.24]);
  const retiree = rng.chance(0.3);
  const types: AccountType[] = ["taxable"];
  if (rng.chance(0.75)) types.push("ira");
  if (rng.chance(0.45)) types.push("roth");
  if (wealth > 2_000_000 && rng.chance(0.5)) types.push("trust");
  const weights = types.map((t) => (t === "roth" ? 0.3 : t === "trust" ? 2 : 1) * rng.between(0.6, 1.4));
  const total = weights.reduce((a, b) => a + b, 0);
  return {
    clientId,
    householdId: `HH-${tag}`,
    householdName: `${lastName} Household`,
    firstName,
    lastName,
    email: `${firstName}.${lastName}.${tag}@example.com`.toLowerCase(),
    riskProfile: retiree ? rng.pick(["conservative", "moderate"] as const) : rng.pick(RISK_PROFILES),
    state: state.code,
    stateRate: state.rate,
    filingStatus: rng.chance(0.65) ? "married_joint" : "single",
    ordinaryRate,
    ltcgRate: ordinaryRate >= 0.35 ? 0.2 : 0.15,
    niitRate: ordinaryRate >= 0.32 ? 0.038 : 0,
    saver: !retiree && rng.chance(0.6),
    retiree,
    ...(rng.chance(0.15)
      ? {
          lumpWithdrawal: {
            month: rng.int(1, 10),
            dollars: Math.round(wealth * rng.between(0.04, 0.1)),
            description: "Withdrawal",
          },
        }
      : {}),
    accounts: types.map((type, k) => ({
      type,
      name:
        type === "taxable"
          ? rng.pick(["Individual Brokerage", "Joint Brokerage"])
          : ACCOUNT_TYPES[type].label,
      initialDollars: Math.round((wealth * (weights[k] as number)) / total / 100) * 100,
      openOffsetDays: k > 0 && rng.chance(0.15) ? rng.int(60, 400) : 0,
    })),
  };
}

/** Rows produced for one client, as CSV lines per table. */
export interface ClientRows {
  households: string[];
  clients: string[];
  accounts: string[];
  transactions: string[];
  taxLots: string[];
  lotDisposals: string[];
  positions: string[];
  fees: string[];
  taxEstimates: string[];
}

export interface IdCounters {
  transaction: number;
  lot: number;
  disposal: number;
  fee: number;
}

function csv(values: readonly (string | number | boolean | null)[]): string {
  return `${values
    .map((v) => {
      if (v === null) return "";
      const s = String(v);
      return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    })
    .join(",")}\n`;
}

const cents = (c: number) => (c / 100).toFixed(2);
const price = (p4: number) => (p4 / 10_000).toFixed(4);

interface Lot {
  id: number;
  accountId: string;
  sec: number;
  acquired: Day;
  qty: number;
  costCents: number;
  remQty: number;
  remCostCents: number;
  buyTxId: number;
}

interface Account {
  id: string;
  type: AccountType;
  taxable: boolean;
  openIndex: number;
  initialCents: number;
  cash: number;
  qty: Float64Array;
  lots: Lot[];
  active: Record<string, number>;
  sleeveTarget: Record<string, number>;
  cashTarget: number;
  quarterEndValue: number;
}

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
  const out: ClientRows = {
    households: [csv([p.householdId, p.clientId, p.householdName])],
    clients: [],
    accounts: [],
    transactions: [],
    taxLots: [],
    lotDisposals: [],
    positions: [],
    fees: [],
    taxEstimates: [],
  };
  const lastBuy = new Int32Array(N_SEC).fill(-1_000_000);
  const blockedUntil = new Int32Array(N_SEC).fill(-1_000_000);
  const allLots: Lot[] = [];
  const target = TARGETS[p.riskProfile];
  const asOfYear = Number(asOf.slice(0, 4));
  const monthlySaving = p.saver ? Math.round(rng.between(500, 5000) / 100) * 10_000 : 0;

  const accounts: Account[] = p.accounts.map((a, k) => {
    const taxable = ACCOUNT_TYPES[a.type].taxable;
    const sleeveTarget: Record<string, number> = {};
    for (const sl of SLEEVES) {
      sleeveTarget[sl.id] = target[sl.assetClass] * (taxable ? sl.shareTaxable : sl.shareDeferred);
    }
    const active: Record<string, number> = {};
    for (const sl of SLEEVES) active[sl.id] = (SLEEVE_SECURITIES[sl.id] as [number, number])[0];
    const openIndex = Math.min(
      cal.length - 1,
      a.openOffsetDays > 0 ? Math.floor((a.openOffsetDays * 252) / 365) : 0,
    );
    return {
      id: `${p.clientId}-${String(k + 1).padStart(2, "0")}`,
      type: a.type,
      taxable,
      openIndex,
      initialCents: a.initialDollars * 100,
      cash: 0,
      qty: new Float64Array(N_SEC),
      lots: [],
      active,
      sleeveTarget,
      cashTarget: target.cash,
      quarterEndValue: 0,
    };
  });

  const inception = cal[Math.min(...accounts.map((a) => a.openIndex))] as CalendarDay;
  out.clients.push(
    csv([
      p.clientId,
      p.householdId,
      p.firstName,
      p.lastName,
      p.email,
      p.riskProfile,
      p.riskProfile,
      p.state,
      p.filingStatus,
      inception.iso,
    ]),
  );
  for (const a of accounts) {
    const cfg = p.accounts[accounts.indexOf(a)] as ClientProfile["accounts"][number];
    out.accounts.push(
      csv([a.id, p.clientId, a.type, cfg.name, a.taxable, (cal[a.openIndex] as CalendarDay).iso]),
    );
  }

  let i = 0;
  let today = cal[0] as CalendarDay;
  const px = (sec: number) => (market.price4[sec] as Int32Array)[i] as number;
  const prevPx = (sec: number) => (market.price4[sec] as Int32Array)[Math.max(0, i - 1)] as number;
  const isOpen = (a: Account) => a.openIndex <= i;

  const tx = (
    a: Account,
    type: string,
    sec: number | null,
    quantity: number | null,
    unit: number | null,
    amount: number,
    incomeType: string | null,
    description: string,
  ): number => {
    const id = ++ids.transaction;
    out.transactions.push(
      csv([
        id,
        p.clientId,
        a.id,
        today.iso,
        type,
        sec,
        quantity,
        unit === null ? null : price(unit),
        cents(amount),
        incomeType,
        description,
      ]),
    );
    return id;
  };

  const marketValue = (a: Account): number => {
    let v = a.cash;
    for (let s = 1; s < N_SEC; s++) if (a.qty[s]) v += ((a.qty[s] as number) * px(s)) / 100;
    return v;
  };
  const sleeveValue = (a: Account, sleeveId: string): number => {
    const [s0, s1] = SLEEVE_SECURITIES[sleeveId] as [number, number];
    return (((a.qty[s0] as number) * px(s0)) / 100 + ((a.qty[s1] as number) * px(s1)) / 100) as number;
  };

  const canBuy = (sec: number) => today.day > (blockedUntil[sec] as number);
  const buy = (a: Account, sec: number, qty: number, why: string) => {
    if (qty <= 0 || !canBuy(sec)) return;
    const cost = Math.round((qty * px(sec)) / 100);
    a.cash -= cost;
    a.qty[sec] = (a.qty[sec] as number) + qty;
    const buyTxId = tx(
      a,
      "buy",
      sec,
      qty,
      px(sec),
      -cost,
      null,
      `Buy ${qty} ${SECURITY[sec]?.symbol} (${why})`,
    );
    const lot: Lot = {
      id: ++ids.lot,
      accountId: a.id,
      sec,
      acquired: today.day,
      qty,
      costCents: cost,
      remQty: qty,
      remCostCents: cost,
      buyTxId,
    };
    a.lots.push(lot);
    allLots.push(lot);
    lastBuy[sec] = today.day;
  };

  /** Whether selling `sec` at a loss today would be a wash sale (a purchase in the last 30 days). */
  const washSafe = (sec: number) => today.day - (lastBuy[sec] as number) > WASH_SALE_DAYS;

  const sell = (
    a: Account,
    sec: number,
    wanted: number,
    mode: "tax-aware" | "losses-only",
    why: string,
  ): number => {
    const unit = px(sec);
    let lots = a.lots.filter((l) => l.sec === sec && l.remQty > 0);
    const gainPerShare = (l: Lot) => unit / 100 - l.remCostCents / l.remQty;
    if (a.taxable) {
      const lossesAllowed = washSafe(sec);
      lots = lots.filter((l) => (gainPerShare(l) < 0 ? lossesAllowed : mode === "tax-aware"));
      const rank = (l: Lot) => (gainPerShare(l) < 0 ? 0 : isLongTerm(l.acquired, today.day) ? 1 : 2);
      lots.sort((x, y) => rank(x) - rank(y) || gainPerShare(x) - gainPerShare(y) || x.id - y.id);
    } else {
      lots.sort((x, y) => x.acquired - y.acquired || x.id - y.id);
    }
    const picks: { lot: Lot; q: number }[] = [];
    let remaining = Math.min(wanted, a.qty[sec] as number);
    for (const lot of lots) {
      if (remaining <= 0) break;
      const q = Math.min(lot.remQty, remaining);
      picks.push({ lot, q });
      remaining -= q;
    }
    const sold = picks.reduce((s, x) => s + x.q, 0);
    if (sold <= 0) return 0;
    const proceeds = Math.round((sold * unit) / 100);
    a.cash += proceeds;
    a.qty[sec] = (a.qty[sec] as number) - sold;
    const sellTxId = tx(
      a,
      "sell",
      sec,
      -sold,
      unit,
      proceeds,
      null,
      `Sell ${sold} ${SECURITY[sec]?.symbol} (${why})`,
    );
    let proceedsLeft = proceeds;
    let realizedLoss = false;
    picks.forEach(({ lot, q }, k) => {
      const part = k === picks.length - 1 ? proceedsLeft : Math.round((q * unit) / 100);
      proceedsLeft -= part;
      const basis = q === lot.remQty ? lot.remCostCents : Math.round((lot.remCostCents * q) / lot.remQty);
      lot.remQty -= q;
      lot.remCostCents -= basis;
      const gain = part - basis;
      if (gain < 0) realizedLoss = true;
      out.lotDisposals.push(
        csv([
          ++ids.disposal,
          lot.id,
          p.clientId,
          a.id,
          sec,
          isoOf(lot.acquired),
          today.iso,
          q,
          cents(part),
          cents(basis),
          cents(gain),
          isLongTerm(lot.acquired, today.day) ? "long" : "short",
          sellTxId,
        ]),
      );
    });
    a.lots = a.lots.filter((l) => l.remQty > 0);
    if (a.taxable && realizedLoss) blockedUntil[sec] = today.day + WASH_SALE_DAYS;
    return proceeds;
  };

  /** Buys toward the sleeve targets with cash above the account's cash target. */
  const investCash = (a: Account, why: string) => {
    const mv = marketValue(a);
    const investable = a.cash - a.cashTarget * mv;
    if (investable < Math.max(50_000, 0.005 * mv)) return;
    const deficits = SLEEVES.map((sl) => ({
      sl,
      d: Math.max(0, (a.sleeveTarget[sl.id] as number) * mv - sleeveValue(a, sl.id)),
    })).filter((x) => (a.sleeveTarget[x.sl.id] as number) > 0);
    const totalDeficit = deficits.reduce((s, x) => s + x.d, 0);
    for (const { sl, d } of deficits) {
      const share =
        totalDeficit >= investable || totalDeficit <= 0
          ? totalDeficit > 0
            ? d / totalDeficit
            : (a.sleeveTarget[sl.id] as number) / (1 - a.cashTarget)
          : (d + ((investable - totalDeficit) * (a.sleeveTarget[sl.id] as number)) / (1 - a.cashTarget)) /
            investable;
      const amount = investable * share;
      const [s0, s1] = SLEEVE_SECURITIES[sl.id] as [number, number];
      const preferred = a.active[sl.id] as number;
      const other = preferred === s0 ? s1 : s0;
      const sec = canBuy(preferred) ? preferred : canBuy(other) ? other : 0;
      if (!sec) continue;
      const qty = Math.floor((amount * 100) / px(sec));
      if (qty * px(sec) > 50_000 * 100) buy(a, sec, qty, why);
    }
  };

  /** Sells from overweight sleeves until cash covers `needCents` (plus a small buffer). */
  const raiseCash = (a: Account, needCents: number, why: string) => {
    for (let guard = 0; guard < 10 && a.cash < needCents; guard++) {
      const mv = marketValue(a);
      const ranked = SLEEVES.map((sl) => ({
        sl,
        over: sleeveValue(a, sl.id) - (a.sleeveTarget[sl.id] as number) * mv,
      }))
        .filter((x) => sleeveValue(a, x.sl.id) > 0)
        .sort((x, y) => y.over - x.over);
      let progressed = false;
      for (const { sl } of ranked) {
        if (a.cash >= needCents) break;
        const [s0, s1] = SLEEVE_SECURITIES[sl.id] as [number, number];
        for (const sec of [a.active[sl.id] === s0 ? s1 : s0, a.active[sl.id] as number]) {
          if (a.cash >= needCents || !(a.qty[sec] as number)) continue;
          const shares = Math.ceil(((needCents - a.cash) * 100) / px(sec)) + 1;
          if (sell(a, sec, shares, "tax-aware", why) > 0) progressed = true;
        }
      }
      if (!progressed) break;
    }
  };

  const rebalance = (a: Account, threshold: number) => {
    const mv = marketValue(a);
    if (mv <= 0) return;
    const byClass: Partial<Record<AssetClassId, number>> = { cash: a.cash };
    for (const sl of SLEEVES) byClass[sl.assetClass] = (byClass[sl.assetClass] ?? 0) + sleeveValue(a, sl.id);
    const drift = Math.max(
      ...(Object.keys(target) as AssetClassId[]).map((ac) => {
        const accountTarget =
          ac === "cash"
            ? a.cashTarget
            : SLEEVES.filter((s) => s.assetClass === ac).reduce(
                (s, sl) => s + (a.sleeveTarget[sl.id] as number),
                0,
              );
        return Math.abs((byClass[ac] ?? 0) / mv - accountTarget);
      }),
    );
    if (drift <= threshold) return;
    for (const sl of SLEEVES) {
      const excess = sleeveValue(a, sl.id) - (a.sleeveTarget[sl.id] as number) * mv;
      if (excess <= 0.01 * mv) continue;
      const [s0, s1] = SLEEVE_SECURITIES[sl.id] as [number, number];
      let left = excess;
      for (const sec of [a.active[sl.id] === s0 ? s1 : s0, a.active[sl.id] as number]) {
        if (left <= 0 || !(a.qty[sec] as number)) continue;
        const shares = Math.floor((left * 100) / px(sec));
        left -= sell(a, sec, shares, "tax-aware", "rebalance");
      }
    }
    investCash(a, "rebalance");
  };

  const harvestLosses = (a: Account) => {
    for (let sec = 1; sec < N_SEC; sec++) {
      if (!(a.qty[sec] as number) || !washSafe(sec)) continue;
      const unit = px(sec);
      const losing = a.lots.filter((l) => l.sec === sec && (l.remQty * unit) / 100 < l.remCostCents);
      const loss = losing.reduce((s, l) => s + l.remCostCents - (l.remQty * unit) / 100, 0);
      const basis = losing.reduce((s, l) => s + l.remCostCents, 0);
      if (loss < Math.max(100_000, 0.05 * basis)) continue;
      const shares = losing.reduce((s, l) => s + l.remQty, 0);
      const proceeds = sell(a, sec, shares, "losses-only", "tax-loss harvest");
      const security = SECURITY[sec] as (typeof SECURITIES)[number];
      const [s0, s1] = SLEEVE_SECURITIES[security.sleeve] as [number, number];
      const partner = sec === s0 ? s1 : s0;
      a.active[security.sleeve] = partner;
      if (proceeds > 0 && canBuy(partner))
        buy(a, partner, Math.floor((proceeds * 100) / px(partner)), "harvest swap");
    }
  };

  const quarterBilling: { periodStart: string; periodEnd: string; values: number[]; total: number } = {
    periodStart: "",
    periodEnd: "",
    values: [],
    total: 0,
  };
  let quarterStartIso = (cal[0] as CalendarDay).iso.slice(0, 8) + "01";

  for (i = 0; i < cal.length; i++) {
    today = cal[i] as CalendarDay;
    if (today.quarterStart) quarterStartIso = `${today.iso.slice(0, 8)}01`;

    // Income on holdings at the start of the day.
    if (today.monthEnd) {
      for (const a of accounts) {
        if (!isOpen(a) || a.openIndex === i) continue;
        for (let sec = 1; sec < N_SEC; sec++) {
          const q = a.qty[sec] as number;
          if (!q) continue;
          const sl = SLEEVE[(SECURITY[sec] as (typeof SECURITIES)[number]).sleeve] as Sleeve;
          if (sl.frequency === 4 && !today.quarterEnd) continue;
          const perShare4 = Math.round((prevPx(sec) * sl.yield) / sl.frequency);
          const amount = Math.round((q * perShare4) / 100);
          if (amount <= 0) continue;
          a.cash += amount;
          tx(a, "dividend", sec, null, perShare4, amount, sl.incomeType, `Dividend ${SECURITY[sec]?.symbol}`);
        }
        if (a.cash > 0) {
          const interest = Math.round((a.cash * CASH_RATE) / 12);
          if (interest > 0) {
            a.cash += interest;
            tx(a, "interest", null, null, null, interest, "ordinary", "Interest on cash sweep");
          }
        }
      }
    }

    // Advisory fee for the quarter that just ended, billed on its first business day.
    if (today.quarterStart && quarterBilling.total > 0) {
      const feeTotal = Math.round((annualFee(quarterBilling.total / 100) / 4) * 100);
      const rateBps = (
        (annualFee(quarterBilling.total / 100) / (quarterBilling.total / 100)) *
        10_000
      ).toFixed(2);
      let left = feeTotal;
      const billable = accounts.filter((a, k) => (quarterBilling.values[k] as number) > 0);
      billable.forEach((a, k) => {
        const value = quarterBilling.values[accounts.indexOf(a)] as number;
        const amount =
          k === billable.length - 1 ? left : Math.round((feeTotal * value) / quarterBilling.total);
        left -= amount;
        if (amount <= 0) return;
        if (a.cash < amount) raiseCash(a, amount, "fee");
        a.cash -= amount;
        tx(
          a,
          "fee",
          null,
          null,
          null,
          -amount,
          null,
          `Advisory fee ${quarterBilling.periodStart} to ${quarterBilling.periodEnd}`,
        );
        out.fees.push(
          csv([
            ++ids.fee,
            p.clientId,
            a.id,
            quarterBilling.periodStart,
            quarterBilling.periodEnd,
            today.iso,
            cents(value),
            rateBps,
            cents(amount),
          ]),
        );
      });
      quarterBilling.total = 0;
    }

    for (const a of accounts) {
      if (!isOpen(a)) continue;
      if (a.openIndex === i) {
        a.cash += a.initialCents;
        tx(a, "deposit", null, null, null, a.initialCents, null, "Initial funding");
        investCash(a, "initial investment");
        continue;
      }
      let flowed = false;
      if (today.monthStart) {
        if (monthlySaving > 0 && a.type === "taxable") {
          a.cash += monthlySaving;
          tx(a, "deposit", null, null, null, monthlySaving, null, "Monthly contribution");
          flowed = true;
        }
        if (p.saver && today.month === 4 && a.type === "ira") {
          a.cash += 700_000;
          tx(a, "deposit", null, null, null, 700_000, null, "IRA contribution");
          flowed = true;
        }
        if (p.saver && today.month === 1 && a.type === "roth") {
          a.cash += 700_000;
          tx(a, "deposit", null, null, null, 700_000, null, "Roth IRA contribution");
          flowed = true;
        }
        if (p.retiree && (a.type === "taxable" || (a.type === "ira" && today.month === 12))) {
          const mv = marketValue(a);
          const amount = Math.round((a.type === "ira" ? 0.04 : 0.003) * mv);
          if (amount > 0) {
            raiseCash(a, amount, "withdrawal");
            const paid = Math.min(amount, Math.max(0, a.cash));
            if (paid > 0) {
              a.cash -= paid;
              tx(
                a,
                "withdrawal",
                null,
                null,
                null,
                -paid,
                null,
                a.type === "ira" ? "Required minimum distribution" : "Monthly distribution",
              );
            }
          }
        }
        if (today.quarterStart && a.type === "taxable" && rng.chance(0.08)) {
          const amount = Math.round(marketValue(a) * rng.between(0.03, 0.12));
          if (rng.chance(0.6)) {
            a.cash += amount;
            tx(a, "deposit", null, null, null, amount, null, "Additional deposit");
          } else {
            raiseCash(a, amount, "withdrawal");
            const paid = Math.min(amount, Math.max(0, a.cash));
            a.cash -= paid;
            if (paid > 0) tx(a, "withdrawal", null, null, null, -paid, null, "Withdrawal");
          }
          flowed = true;
        }
        const lump = p.lumpWithdrawal;
        if (lump && a.type === "taxable" && today.year === asOfYear && today.month === lump.month) {
          const amount = lump.dollars * 100;
          raiseCash(a, amount, "withdrawal");
          const paid = Math.min(amount, Math.max(0, a.cash));
          a.cash -= paid;
          if (paid > 0) tx(a, "withdrawal", null, null, null, -paid, null, lump.description);
          flowed = true;
        }
        if (a.taxable) harvestLosses(a);
        if (today.quarterStart) rebalance(a, today.month === 1 ? 0.02 : 0.05);
        else investCash(a, flowed ? "invest contribution" : "invest cash");
      }
      if (a.cash < 0) raiseCash(a, 0, "cover cash");
    }

    if (today.quarterEnd) {
      quarterBilling.values = accounts.map((a) => (isOpen(a) ? marketValue(a) : 0));
      quarterBilling.total = quarterBilling.values.reduce((s, v) => s + v, 0);
      quarterBilling.periodStart = quarterStartIso;
      const { year, month } = today;
      quarterBilling.periodEnd = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
    }
  }
  i = cal.length - 1;

  for (const lot of allLots) {
    out.taxLots.push(
      csv([
        lot.id,
        p.clientId,
        lot.accountId,
        lot.sec,
        isoOf(lot.acquired),
        lot.qty,
        cents(lot.costCents),
        lot.remQty,
        cents(lot.remCostCents),
        lot.buyTxId,
      ]),
    );
  }
  for (const a of accounts) {
    for (let sec = 1; sec < N_SEC; sec++) {
      const q = a.qty[sec] as number;
      if (!q) continue;
      const basis = a.lots.filter((l) => l.sec === sec).reduce((s, l) => s + l.remCostCents, 0);
      out.positions.push(csv([p.clientId, a.id, sec, q, cents(basis), asOf]));
    }
  }
  const firstYear = (cal[0] as CalendarDay).year;
  const lastYear = (cal[cal.length - 1] as CalendarDay).year;
  for (let year = firstYear; year <= lastYear; year++) {
    out.taxEstimates.push(
      csv([
        p.clientId,
        year,
        p.filingStatus,
        p.ordinaryRate,
        p.ltcgRate,
        p.stateRate,
        p.niitRate,
        cents(Math.round(rng.between(0, 4) * 250_000)),
      ]),
    );
  }
  return out;
}
