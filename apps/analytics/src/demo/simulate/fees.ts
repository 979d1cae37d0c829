import type { CalendarDay } from "../calendar.ts";
import { annualFee } from "../reference.ts";
import { raiseCash } from "./allocation.ts";
import { cents, csv } from "./rows.ts";
import { isOpen, marketValue, tx, type ClientSim } from "./state.ts";

/** The quarter running and the one last ended, whose fee is billed on the next quarter's first day. */
export interface QuarterBilling {
  /** The first day of the quarter running. */
  runningStart: string;
  periodStart: string;
  periodEnd: string;
  /** Each account's value at the end of the billed quarter, and their total (0 once billed). */
  values: number[];
  total: number;
}

export function startBilling(cal: readonly CalendarDay[]): QuarterBilling {
  return {
    runningStart: (cal[0] as CalendarDay).iso.slice(0, 8) + "01",
    periodStart: "",
    periodEnd: "",
    values: [],
    total: 0,
  };
}

/** The advisory fee for the quarter that just ended: the household's tiered rate, shared by value. */
export function billFees(sim: ClientSim, billing: QuarterBilling): void {
  const { accounts, today } = sim;
  const feeTotal = Math.round((annualFee(billing.total / 100) / 4) * 100);
  const rateBps = ((annualFee(billing.total / 100) / (billing.total / 100)) * 10_000).toFixed(2);
  let left = feeTotal;
  const billable = accounts.filter((a, k) => (billing.values[k] as number) > 0);
  billable.forEach((a, k) => {
    const value = billing.values[accounts.indexOf(a)] as number;
    const amount = k === billable.length - 1 ? left : Math.round((feeTotal * value) / billing.total);
    left -= amount;
    if (amount <= 0) return;
    if (a.cash < amount) raiseCash(sim, a, amount, "fee");
    a.cash -= amount;
    tx(
      sim,
      a,
      "fee",
      null,
      null,
      null,
      -amount,
      null,
      `Advisory fee ${billing.periodStart} to ${billing.periodEnd}`,
    );
    sim.out.fees.push(
      csv([
        ++sim.ids.fee,
        sim.profile.clientId,
        a.id,
        billing.periodStart,
        billing.periodEnd,
        today.iso,
        cents(value),
        rateBps,
        cents(amount),
      ]),
    );
  });
  billing.total = 0;
}

/** A quarter's last day: the accounts' values it is billed on. */
export function closeQuarter(sim: ClientSim, billing: QuarterBilling): void {
  billing.values = sim.accounts.map((a) => (isOpen(sim, a) ? marketValue(sim, a) : 0));
  billing.total = billing.values.reduce((s, v) => s + v, 0);
  billing.periodStart = billing.runningStart;
  const { year, month } = sim.today;
  billing.periodEnd = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}
