import type { CalendarDay, Day } from "../calendar.ts";
import type { Market } from "../market.ts";
import type { Prng } from "../prng.ts";
import { SECURITIES, SLEEVES, type AccountType, type AssetClassId, type Sleeve } from "../reference.ts";
import type { ClientProfile } from "./profile.ts";
import { cents, csv, price, type ClientRows, type IdCounters } from "./rows.ts";

export const N_SEC = SECURITIES.length + 1;
export const WASH_SALE_DAYS = 30;
export const SECURITY = SECURITIES.reduce<Record<number, (typeof SECURITIES)[number]>>((m, s) => {
  m[s.id] = s;
  return m;
}, {});
export const SLEEVE = SLEEVES.reduce<Record<string, Sleeve>>((m, s) => {
  m[s.id] = s;
  return m;
}, {});
export const SLEEVE_SECURITIES: Record<string, [number, number]> = {};
for (const s of SECURITIES) {
  const pair = (SLEEVE_SECURITIES[s.sleeve] ??= [0, 0]);
  pair[s.rank] = s.id;
}

export interface Lot {
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

export interface Account {
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

/** One client's simulation as it runs: what every step reads and changes. */
export interface ClientSim {
  market: Market;
  cal: CalendarDay[];
  profile: ClientProfile;
  rng: Prng;
  ids: IdCounters;
  out: ClientRows;
  accounts: Account[];
  /** Every lot bought, open or closed: the client's tax lots. */
  allLots: Lot[];
  /** Per security, the last day the client bought it in any account. */
  lastBuy: Int32Array;
  /** Per security, the day until which no account buys it (after a loss sale in a taxable account). */
  blockedUntil: Int32Array;
  target: Record<AssetClassId, number>;
  asOfYear: number;
  monthlySaving: number;
  /** The day simulated: its index in the calendar, and the day. */
  i: number;
  today: CalendarDay;
}

export const px = (sim: ClientSim, sec: number) => (sim.market.price4[sec] as Int32Array)[sim.i] as number;
export const prevPx = (sim: ClientSim, sec: number) =>
  (sim.market.price4[sec] as Int32Array)[Math.max(0, sim.i - 1)] as number;
export const isOpen = (sim: ClientSim, a: Account) => a.openIndex <= sim.i;

export function tx(
  sim: ClientSim,
  a: Account,
  type: string,
  sec: number | null,
  quantity: number | null,
  unit: number | null,
  amount: number,
  incomeType: string | null,
  description: string,
): number {
  const id = ++sim.ids.transaction;
  sim.out.transactions.push(
    csv([
      id,
      sim.profile.clientId,
      a.id,
      sim.today.iso,
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
}

export function marketValue(sim: ClientSim, a: Account): number {
  let v = a.cash;
  for (let s = 1; s < N_SEC; s++) if (a.qty[s]) v += ((a.qty[s] as number) * px(sim, s)) / 100;
  return v;
}

export function sleeveValue(sim: ClientSim, a: Account, sleeveId: string): number {
  const [s0, s1] = SLEEVE_SECURITIES[sleeveId] as [number, number];
  return (((a.qty[s0] as number) * px(sim, s0)) / 100 +
    ((a.qty[s1] as number) * px(sim, s1)) / 100) as number;
}

export const canBuy = (sim: ClientSim, sec: number) => sim.today.day > (sim.blockedUntil[sec] as number);

/** Whether selling `sec` at a loss today would be a wash sale (a purchase in the last 30 days). */
export const washSafe = (sim: ClientSim, sec: number) =>
  sim.today.day - (sim.lastBuy[sec] as number) > WASH_SALE_DAYS;
