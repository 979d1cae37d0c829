import { isoOf, type CalendarDay } from "../calendar.ts";
import { cents, csv } from "./rows.ts";
import { N_SEC, type ClientSim } from "./state.ts";

/** Every lot the client bought, with what is left of it at the end of the history. */
export function writeTaxLots(sim: ClientSim): void {
  for (const lot of sim.allLots) {
    sim.out.taxLots.push(
      csv([
        lot.id,
        sim.profile.clientId,
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
}

/** Each account's holdings as of `asOf`, with their remaining cost basis. */
export function writePositions(sim: ClientSim, asOf: string): void {
  for (const a of sim.accounts) {
    for (let sec = 1; sec < N_SEC; sec++) {
      const q = a.qty[sec] as number;
      if (!q) continue;
      const basis = a.lots.filter((l) => l.sec === sec).reduce((s, l) => s + l.remCostCents, 0);
      sim.out.positions.push(csv([sim.profile.clientId, a.id, sec, q, cents(basis), asOf]));
    }
  }
}

/** The client's tax rates for each year of the history, and the estimated tax payments made in it. */
export function writeTaxEstimates(sim: ClientSim): void {
  const { profile: p, cal, rng } = sim;
  const firstYear = (cal[0] as CalendarDay).year;
  const lastYear = (cal[cal.length - 1] as CalendarDay).year;
  for (let year = firstYear; year <= lastYear; year++) {
    sim.out.taxEstimates.push(
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
}
