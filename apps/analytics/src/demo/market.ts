import { businessCalendar, dayOf, parts, type CalendarDay } from "./calendar.ts";
import { Prng } from "./prng.ts";
import {
  ASSET_CLASSES,
  CASH_RATE,
  RISK_PROFILES,
  SECURITIES,
  SLEEVES,
  TARGETS,
  type RiskProfile,
} from "./reference.ts";

const TRADING_DAYS_PER_YEAR = 252;
const IDIOSYNCRATIC_VOL = 0.02;

export interface Market {
  calendar: CalendarDay[];
  /** price4[securityId][dayIndex] = closing price in units of $0.0001. */
  price4: Int32Array[];
  /** Daily total return of each risk profile's blended benchmark (index 0 is 0: the base day). */
  benchmark: Record<RiskProfile, Float64Array>;
}

export function historyStart(asOf: string, years: number): string {
  return `${parts(dayOf(asOf)).year - years}-01-01`;
}

/**
 * Daily prices of the demo securities and the benchmark returns: a one-factor model (equity market plus
 * a factor per sleeve plus a small fund-specific part), geometric, with the distribution yield taken out of
 * the price drift because it is paid as dividends. Depends only on the seed and the dates, never on the
 * number of clients, so a client's figures are the same at every demo size.
 */
export function generateMarket(seed: number, asOf: string, years: number): Market {
  const calendar = businessCalendar(dayOf(historyStart(asOf, years)), dayOf(asOf));
  const n = calendar.length;
  const rng = new Prng(seed, "market");
  const price4: Int32Array[] = [new Int32Array(0)];
  const logPrice = SECURITIES.map(() => Math.log(rng.between(25, 250)));
  for (const s of SECURITIES) price4[s.id] = new Int32Array(n);
  const sleeveReturn: Record<string, Float64Array> = {};
  for (const sl of SLEEVES) sleeveReturn[sl.id] = new Float64Array(n);

  for (let i = 0; i < n; i++) {
    if (i > 0) {
      const zMarket = rng.normal();
      const sleeveLog: Record<string, number> = {};
      for (const sl of SLEEVES) {
        const z = sl.rho * zMarket + Math.sqrt(1 - sl.rho * sl.rho) * rng.normal();
        const dailyVol = sl.vol / Math.sqrt(TRADING_DAYS_PER_YEAR);
        const drift = (sl.mu - sl.yield - (sl.vol * sl.vol) / 2) / TRADING_DAYS_PER_YEAR;
        const r = drift + dailyVol * z;
        sleeveLog[sl.id] = r;
        (sleeveReturn[sl.id] as Float64Array)[i] = Math.exp(r) - 1 + sl.yield / TRADING_DAYS_PER_YEAR;
      }
      for (const [k, s] of SECURITIES.entries()) {
        const idio =
          (IDIOSYNCRATIC_VOL / Math.sqrt(TRADING_DAYS_PER_YEAR)) * rng.normal() -
          (IDIOSYNCRATIC_VOL * IDIOSYNCRATIC_VOL) / 2 / TRADING_DAYS_PER_YEAR;
        logPrice[k] = (logPrice[k] as number) + (sleeveLog[s.sleeve] as number) + idio;
      }
    }
    for (const [k, s] of SECURITIES.entries()) {
      (price4[s.id] as Int32Array)[i] = Math.max(1, Math.round(Math.exp(logPrice[k] as number) * 10_000));
    }
  }

  // Benchmarks: each asset class's index is a fixed blend of sleeve indexes; cash earns the sweep rate.
  const classIndex = (ac: string, i: number): number => {
    const r = (id: string) => (sleeveReturn[id] as Float64Array)[i] as number;
    switch (ac) {
      case "us_equity":
        return 0.8 * r("us_large") + 0.2 * r("us_small");
      case "intl_equity":
        return 0.8 * r("intl_dev") + 0.2 * r("intl_em");
      case "fixed_income":
        return r("bonds");
      case "real_estate":
        return r("reit");
      default:
        return CASH_RATE / TRADING_DAYS_PER_YEAR;
    }
  };
  const benchmark = {} as Record<RiskProfile, Float64Array>;
  for (const profile of RISK_PROFILES) {
    const series = new Float64Array(n);
    for (let i = 1; i < n; i++) {
      let r = 0;
      for (const ac of ASSET_CLASSES) r += TARGETS[profile][ac.id] * classIndex(ac.id, i);
      series[i] = r;
    }
    benchmark[profile] = series;
  }
  return { calendar, price4, benchmark };
}
