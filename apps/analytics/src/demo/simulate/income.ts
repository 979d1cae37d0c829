import { CASH_RATE, type Security, type Sleeve } from "../reference.ts";
import { N_SEC, SECURITY, SLEEVE, isOpen, prevPx, tx, type ClientSim } from "./state.ts";

/**
 * A month's end: each open account's dividends (quarterly sleeves at a quarter's end only), on the holdings
 * at the start of the day, and the interest on its cash, both paid to cash.
 */
export function payIncome(sim: ClientSim): void {
  const { today } = sim;
  for (const a of sim.accounts) {
    if (!isOpen(sim, a) || a.openIndex === sim.i) continue;
    for (let sec = 1; sec < N_SEC; sec++) {
      const q = a.qty[sec] as number;
      if (!q) continue;
      const sl = SLEEVE[(SECURITY[sec] as Security).sleeve] as Sleeve;
      if (sl.frequency === 4 && !today.quarterEnd) continue;
      const perShare4 = Math.round((prevPx(sim, sec) * sl.yield) / sl.frequency);
      const amount = Math.round((q * perShare4) / 100);
      if (amount <= 0) continue;
      a.cash += amount;
      tx(
        sim,
        a,
        "dividend",
        sec,
        null,
        perShare4,
        amount,
        sl.incomeType,
        `Dividend ${SECURITY[sec]?.symbol}`,
      );
    }
    if (a.cash > 0) {
      const interest = Math.round((a.cash * CASH_RATE) / 12);
      if (interest > 0) {
        a.cash += interest;
        tx(sim, a, "interest", null, null, null, interest, "ordinary", "Interest on cash sweep");
      }
    }
  }
}
