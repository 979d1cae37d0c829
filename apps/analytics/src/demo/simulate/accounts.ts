import type { CalendarDay } from "../calendar.ts";
import { ACCOUNT_TYPES, SLEEVES, type AssetClassId } from "../reference.ts";
import type { ClientProfile } from "./profile.ts";
import { csv } from "./rows.ts";
import { N_SEC, SLEEVE_SECURITIES, type Account, type ClientSim } from "./state.ts";

/** The client's accounts, empty, each holding its sleeves' first funds and opening on its own day. */
export function openAccounts(
  p: ClientProfile,
  target: Record<AssetClassId, number>,
  cal: readonly CalendarDay[],
): Account[] {
  return p.accounts.map((a, k) => {
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
}

/** The client's row (its inception: the first account's opening) and its accounts' rows. */
export function writeClientRows(sim: ClientSim): void {
  const { profile: p, cal, accounts, out } = sim;
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
}
