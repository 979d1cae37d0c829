import { DEMO_CLIENTS } from "@portal/contracts/demo";
import { Prng } from "../prng.ts";
import {
  ACCOUNT_TYPES,
  FIRST_NAMES,
  LAST_NAMES,
  RISK_PROFILES,
  STATES,
  type AccountType,
  type RiskProfile,
} from "../reference.ts";

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
 * portfolio (demo/portal-clients.ts).
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
