import { investCash, raiseCash } from "./allocation.ts";
import { marketValue, tx, type Account, type ClientSim } from "./state.ts";

/** The account's opening day: its initial funding, invested at once. */
export function fund(sim: ClientSim, a: Account): void {
  a.cash += a.initialCents;
  tx(sim, a, "deposit", null, null, null, a.initialCents, null, "Initial funding");
  investCash(sim, a, "initial investment");
}

/** Pays out up to `amount` (what the account can raise), recorded as a withdrawal. */
function withdraw(sim: ClientSim, a: Account, amount: number, description: string): void {
  raiseCash(sim, a, amount, "withdrawal");
  const paid = Math.min(amount, Math.max(0, a.cash));
  a.cash -= paid;
  if (paid > 0) tx(sim, a, "withdrawal", null, null, null, -paid, null, description);
}

/**
 * A month's first day: the client's contributions and withdrawals for the account (savings, IRA and Roth
 * contributions, a retiree's distributions, an occasional deposit or withdrawal, the year's one-off
 * withdrawal). Whether money came in or went out other than a retiree's distribution.
 */
export function monthlyFlows(sim: ClientSim, a: Account): boolean {
  const { profile: p, rng, today, monthlySaving } = sim;
  let flowed = false;
  if (monthlySaving > 0 && a.type === "taxable") {
    a.cash += monthlySaving;
    tx(sim, a, "deposit", null, null, null, monthlySaving, null, "Monthly contribution");
    flowed = true;
  }
  if (p.saver && today.month === 4 && a.type === "ira") {
    a.cash += 700_000;
    tx(sim, a, "deposit", null, null, null, 700_000, null, "IRA contribution");
    flowed = true;
  }
  if (p.saver && today.month === 1 && a.type === "roth") {
    a.cash += 700_000;
    tx(sim, a, "deposit", null, null, null, 700_000, null, "Roth IRA contribution");
    flowed = true;
  }
  if (p.retiree && (a.type === "taxable" || (a.type === "ira" && today.month === 12))) {
    const amount = Math.round((a.type === "ira" ? 0.04 : 0.003) * marketValue(sim, a));
    if (amount > 0) {
      withdraw(sim, a, amount, a.type === "ira" ? "Required minimum distribution" : "Monthly distribution");
    }
  }
  if (today.quarterStart && a.type === "taxable" && rng.chance(0.08)) {
    const amount = Math.round(marketValue(sim, a) * rng.between(0.03, 0.12));
    if (rng.chance(0.6)) {
      a.cash += amount;
      tx(sim, a, "deposit", null, null, null, amount, null, "Additional deposit");
    } else {
      withdraw(sim, a, amount, "Withdrawal");
    }
    flowed = true;
  }
  const lump = p.lumpWithdrawal;
  if (lump && a.type === "taxable" && today.year === sim.asOfYear && today.month === lump.month) {
    withdraw(sim, a, lump.dollars * 100, lump.description);
    flowed = true;
  }
  return flowed;
}
