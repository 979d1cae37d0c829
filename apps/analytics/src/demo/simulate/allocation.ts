import { SLEEVES, type AssetClassId, type Security } from "../reference.ts";
import {
  N_SEC,
  SECURITY,
  SLEEVE_SECURITIES,
  canBuy,
  marketValue,
  px,
  sleeveValue,
  washSafe,
  type Account,
  type ClientSim,
} from "./state.ts";
import { buy, sell } from "./trades.ts";

/** Buys toward the sleeve targets with cash above the account's cash target. */
export function investCash(sim: ClientSim, a: Account, why: string): void {
  const mv = marketValue(sim, a);
  const investable = a.cash - a.cashTarget * mv;
  if (investable < Math.max(50_000, 0.005 * mv)) return;
  const deficits = SLEEVES.map((sl) => ({
    sl,
    d: Math.max(0, (a.sleeveTarget[sl.id] as number) * mv - sleeveValue(sim, a, sl.id)),
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
    const sec = canBuy(sim, preferred) ? preferred : canBuy(sim, other) ? other : 0;
    if (!sec) continue;
    const qty = Math.floor((amount * 100) / px(sim, sec));
    if (qty * px(sim, sec) > 50_000 * 100) buy(sim, a, sec, qty, why);
  }
}

/** Sells from overweight sleeves until cash covers `needCents` (plus a small buffer). */
export function raiseCash(sim: ClientSim, a: Account, needCents: number, why: string): void {
  for (let guard = 0; guard < 10 && a.cash < needCents; guard++) {
    const mv = marketValue(sim, a);
    const ranked = SLEEVES.map((sl) => ({
      sl,
      over: sleeveValue(sim, a, sl.id) - (a.sleeveTarget[sl.id] as number) * mv,
    }))
      .filter((x) => sleeveValue(sim, a, x.sl.id) > 0)
      .sort((x, y) => y.over - x.over);
    let progressed = false;
    for (const { sl } of ranked) {
      if (a.cash >= needCents) break;
      const [s0, s1] = SLEEVE_SECURITIES[sl.id] as [number, number];
      for (const sec of [a.active[sl.id] === s0 ? s1 : s0, a.active[sl.id] as number]) {
        if (a.cash >= needCents || !(a.qty[sec] as number)) continue;
        const shares = Math.ceil(((needCents - a.cash) * 100) / px(sim, sec)) + 1;
        if (sell(sim, a, sec, shares, "tax-aware", why) > 0) progressed = true;
      }
    }
    if (!progressed) break;
  }
}

/** Sells overweight sleeves and invests the cash when an asset class has drifted more than `threshold`. */
export function rebalance(sim: ClientSim, a: Account, threshold: number): void {
  const mv = marketValue(sim, a);
  if (mv <= 0) return;
  const byClass: Partial<Record<AssetClassId, number>> = { cash: a.cash };
  for (const sl of SLEEVES) {
    byClass[sl.assetClass] = (byClass[sl.assetClass] ?? 0) + sleeveValue(sim, a, sl.id);
  }
  const drift = Math.max(
    ...(Object.keys(sim.target) as AssetClassId[]).map((ac) => {
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
    const excess = sleeveValue(sim, a, sl.id) - (a.sleeveTarget[sl.id] as number) * mv;
    if (excess <= 0.01 * mv) continue;
    const [s0, s1] = SLEEVE_SECURITIES[sl.id] as [number, number];
    let left = excess;
    for (const sec of [a.active[sl.id] === s0 ? s1 : s0, a.active[sl.id] as number]) {
      if (left <= 0 || !(a.qty[sec] as number)) continue;
      const shares = Math.floor((left * 100) / px(sim, sec));
      left -= sell(sim, a, sec, shares, "tax-aware", "rebalance");
    }
  }
  investCash(sim, a, "rebalance");
}

/** Sells the losing lots of each fund with a large enough loss and buys its partner fund instead. */
export function harvestLosses(sim: ClientSim, a: Account): void {
  for (let sec = 1; sec < N_SEC; sec++) {
    if (!(a.qty[sec] as number) || !washSafe(sim, sec)) continue;
    const unit = px(sim, sec);
    const losing = a.lots.filter((l) => l.sec === sec && (l.remQty * unit) / 100 < l.remCostCents);
    const loss = losing.reduce((s, l) => s + l.remCostCents - (l.remQty * unit) / 100, 0);
    const basis = losing.reduce((s, l) => s + l.remCostCents, 0);
    if (loss < Math.max(100_000, 0.05 * basis)) continue;
    const shares = losing.reduce((s, l) => s + l.remQty, 0);
    const proceeds = sell(sim, a, sec, shares, "losses-only", "tax-loss harvest");
    const security = SECURITY[sec] as Security;
    const [s0, s1] = SLEEVE_SECURITIES[security.sleeve] as [number, number];
    const partner = sec === s0 ? s1 : s0;
    a.active[security.sleeve] = partner;
    if (proceeds > 0 && canBuy(sim, partner))
      buy(sim, a, partner, Math.floor((proceeds * 100) / px(sim, partner)), "harvest swap");
  }
}
