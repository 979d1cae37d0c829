import { isLongTerm, isoOf } from "../calendar.ts";
import { cents, csv } from "./rows.ts";
import {
  SECURITY,
  WASH_SALE_DAYS,
  canBuy,
  px,
  tx,
  washSafe,
  type Account,
  type ClientSim,
  type Lot,
} from "./state.ts";

/** Buys `qty` shares of `sec` (unless a loss sale blocks it) as a new tax lot. */
export function buy(sim: ClientSim, a: Account, sec: number, qty: number, why: string): void {
  if (qty <= 0 || !canBuy(sim, sec)) return;
  const { today } = sim;
  const cost = Math.round((qty * px(sim, sec)) / 100);
  a.cash -= cost;
  a.qty[sec] = (a.qty[sec] as number) + qty;
  const buyTxId = tx(
    sim,
    a,
    "buy",
    sec,
    qty,
    px(sim, sec),
    -cost,
    null,
    `Buy ${qty} ${SECURITY[sec]?.symbol} (${why})`,
  );
  const lot: Lot = {
    id: ++sim.ids.lot,
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
  sim.allLots.push(lot);
  sim.lastBuy[sec] = today.day;
}

/**
 * The lots a sale may relieve, in order. In a taxable account: lots at a loss (unless that would be a wash
 * sale), then, `tax-aware` only, long-term and then short-term gains, each the highest basis first; elsewhere
 * FIFO.
 */
function lotsToSell(sim: ClientSim, a: Account, sec: number, mode: "tax-aware" | "losses-only"): Lot[] {
  const { today } = sim;
  const unit = px(sim, sec);
  let lots = a.lots.filter((l) => l.sec === sec && l.remQty > 0);
  const gainPerShare = (l: Lot) => unit / 100 - l.remCostCents / l.remQty;
  if (a.taxable) {
    const lossesAllowed = washSafe(sim, sec);
    lots = lots.filter((l) => (gainPerShare(l) < 0 ? lossesAllowed : mode === "tax-aware"));
    const rank = (l: Lot) => (gainPerShare(l) < 0 ? 0 : isLongTerm(l.acquired, today.day) ? 1 : 2);
    lots.sort((x, y) => rank(x) - rank(y) || gainPerShare(x) - gainPerShare(y) || x.id - y.id);
  } else {
    lots.sort((x, y) => x.acquired - y.acquired || x.id - y.id);
  }
  return lots;
}

/** Sells up to `wanted` shares of `sec` from the lots `mode` allows; records each lot's disposal. */
export function sell(
  sim: ClientSim,
  a: Account,
  sec: number,
  wanted: number,
  mode: "tax-aware" | "losses-only",
  why: string,
): number {
  const { today, ids, out } = sim;
  const unit = px(sim, sec);
  const picks: { lot: Lot; q: number }[] = [];
  let remaining = Math.min(wanted, a.qty[sec] as number);
  for (const lot of lotsToSell(sim, a, sec, mode)) {
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
    sim,
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
        sim.profile.clientId,
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
  if (a.taxable && realizedLoss) sim.blockedUntil[sec] = today.day + WASH_SALE_DAYS;
  return proceeds;
}
