/** Reference data of the demo: asset classes, sleeves, securities, model portfolios, fee schedule. */

export const ASSET_CLASSES = [
  { id: "us_equity", name: "US Equity", sort: 1 },
  { id: "intl_equity", name: "International Equity", sort: 2 },
  { id: "fixed_income", name: "Fixed Income", sort: 3 },
  { id: "real_estate", name: "Real Estate", sort: 4 },
  { id: "cash", name: "Cash", sort: 5 },
] as const;
export type AssetClassId = (typeof ASSET_CLASSES)[number]["id"];

export type IncomeType = "qualified" | "ordinary" | "tax_exempt";

/**
 * A sleeve is one building block of a model portfolio, held through one of two funds that track different
 * indexes (so they are not "substantially identical" and can replace each other when harvesting losses).
 */
export interface Sleeve {
  id: string;
  assetClass: AssetClassId;
  /** Annual total return, volatility, correlation with the equity market factor. */
  mu: number;
  vol: number;
  rho: number;
  /** Annual distribution yield, payments per year, tax character of the distributions. */
  yield: number;
  frequency: 4 | 12;
  incomeType: IncomeType;
  /** Share of the asset class held in this sleeve, for taxable and for tax-deferred accounts. */
  shareTaxable: number;
  shareDeferred: number;
}

export const SLEEVES: readonly Sleeve[] = [
  {
    id: "us_large",
    assetClass: "us_equity",
    mu: 0.09,
    vol: 0.16,
    rho: 0.95,
    yield: 0.014,
    frequency: 4,
    incomeType: "qualified",
    shareTaxable: 0.8,
    shareDeferred: 0.8,
  },
  {
    id: "us_small",
    assetClass: "us_equity",
    mu: 0.095,
    vol: 0.21,
    rho: 0.85,
    yield: 0.013,
    frequency: 4,
    incomeType: "qualified",
    shareTaxable: 0.2,
    shareDeferred: 0.2,
  },
  {
    id: "intl_dev",
    assetClass: "intl_equity",
    mu: 0.07,
    vol: 0.16,
    rho: 0.8,
    yield: 0.03,
    frequency: 4,
    incomeType: "qualified",
    shareTaxable: 0.8,
    shareDeferred: 0.8,
  },
  {
    id: "intl_em",
    assetClass: "intl_equity",
    mu: 0.075,
    vol: 0.21,
    rho: 0.7,
    yield: 0.026,
    frequency: 4,
    incomeType: "qualified",
    shareTaxable: 0.2,
    shareDeferred: 0.2,
  },
  {
    id: "bonds",
    assetClass: "fixed_income",
    mu: 0.04,
    vol: 0.055,
    rho: 0.1,
    yield: 0.038,
    frequency: 12,
    incomeType: "ordinary",
    shareTaxable: 0.5,
    shareDeferred: 1,
  },
  {
    id: "munis",
    assetClass: "fixed_income",
    mu: 0.032,
    vol: 0.045,
    rho: 0.1,
    yield: 0.03,
    frequency: 12,
    incomeType: "tax_exempt",
    shareTaxable: 0.5,
    shareDeferred: 0,
  },
  {
    id: "reit",
    assetClass: "real_estate",
    mu: 0.07,
    vol: 0.19,
    rho: 0.7,
    yield: 0.038,
    frequency: 4,
    incomeType: "ordinary",
    shareTaxable: 1,
    shareDeferred: 1,
  },
];

export interface Security {
  id: number;
  symbol: string;
  name: string;
  sleeve: string;
  assetClass: AssetClassId;
  /** 0 = the sleeve's primary fund, 1 = its tax-loss-harvesting partner. */
  rank: 0 | 1;
}

export const SECURITIES: readonly Security[] = [
  {
    id: 1,
    symbol: "USTM",
    name: "US Total Market Index ETF",
    sleeve: "us_large",
    assetClass: "us_equity",
    rank: 0,
  },
  {
    id: 2,
    symbol: "LCCR",
    name: "US Large Cap Core ETF",
    sleeve: "us_large",
    assetClass: "us_equity",
    rank: 1,
  },
  {
    id: 3,
    symbol: "SMCP",
    name: "US Small Cap Index ETF",
    sleeve: "us_small",
    assetClass: "us_equity",
    rank: 0,
  },
  {
    id: 4,
    symbol: "SMCB",
    name: "US Small Cap Blend ETF",
    sleeve: "us_small",
    assetClass: "us_equity",
    rank: 1,
  },
  {
    id: 5,
    symbol: "DVMK",
    name: "Developed Markets ex-US Index ETF",
    sleeve: "intl_dev",
    assetClass: "intl_equity",
    rank: 0,
  },
  {
    id: 6,
    symbol: "INTC",
    name: "International Core Equity ETF",
    sleeve: "intl_dev",
    assetClass: "intl_equity",
    rank: 1,
  },
  {
    id: 7,
    symbol: "EMKT",
    name: "Emerging Markets Index ETF",
    sleeve: "intl_em",
    assetClass: "intl_equity",
    rank: 0,
  },
  {
    id: 8,
    symbol: "EMCR",
    name: "Emerging Markets Core ETF",
    sleeve: "intl_em",
    assetClass: "intl_equity",
    rank: 1,
  },
  {
    id: 9,
    symbol: "AGGB",
    name: "Core US Aggregate Bond ETF",
    sleeve: "bonds",
    assetClass: "fixed_income",
    rank: 0,
  },
  {
    id: 10,
    symbol: "TBIX",
    name: "Total Bond Market Index ETF",
    sleeve: "bonds",
    assetClass: "fixed_income",
    rank: 1,
  },
  {
    id: 11,
    symbol: "MUNI",
    name: "National Municipal Bond ETF",
    sleeve: "munis",
    assetClass: "fixed_income",
    rank: 0,
  },
  {
    id: 12,
    symbol: "TXFR",
    name: "Tax-Exempt Bond Index ETF",
    sleeve: "munis",
    assetClass: "fixed_income",
    rank: 1,
  },
  {
    id: 13,
    symbol: "REIT",
    name: "US Real Estate Index ETF",
    sleeve: "reit",
    assetClass: "real_estate",
    rank: 0,
  },
  {
    id: 14,
    symbol: "GLRE",
    name: "Global Real Estate ETF",
    sleeve: "reit",
    assetClass: "real_estate",
    rank: 1,
  },
];

export const RISK_PROFILES = ["conservative", "moderate", "growth", "aggressive"] as const;
export type RiskProfile = (typeof RISK_PROFILES)[number];

/** Target weights by asset class (each row sums to 1). */
export const TARGETS: Record<RiskProfile, Record<AssetClassId, number>> = {
  conservative: { us_equity: 0.22, intl_equity: 0.08, fixed_income: 0.6, real_estate: 0.03, cash: 0.07 },
  moderate: { us_equity: 0.38, intl_equity: 0.17, fixed_income: 0.37, real_estate: 0.04, cash: 0.04 },
  growth: { us_equity: 0.48, intl_equity: 0.22, fixed_income: 0.23, real_estate: 0.04, cash: 0.03 },
  aggressive: { us_equity: 0.58, intl_equity: 0.28, fixed_income: 0.08, real_estate: 0.04, cash: 0.02 },
};

export const BENCHMARK_NAMES: Record<RiskProfile, string> = {
  conservative: "Conservative blend (30/70)",
  moderate: "Moderate blend (55/45)",
  growth: "Growth blend (70/30)",
  aggressive: "Aggressive blend (86/14)",
};

/** Yield on uninvested cash (the sweep), annual. */
export const CASH_RATE = 0.04;

/** Advisory fee: tiered annual rate on household assets, billed quarterly in arrears. */
export const FEE_TIERS: readonly { upTo: number; rate: number }[] = [
  { upTo: 1_000_000, rate: 0.01 },
  { upTo: 3_000_000, rate: 0.008 },
  { upTo: 10_000_000, rate: 0.006 },
  { upTo: Infinity, rate: 0.004 },
];

/** Annual fee in dollars for household assets `aum` dollars. */
export function annualFee(aum: number): number {
  let fee = 0;
  let lower = 0;
  for (const tier of FEE_TIERS) {
    if (aum <= lower) break;
    fee += (Math.min(aum, tier.upTo) - lower) * tier.rate;
    lower = tier.upTo;
  }
  return fee;
}

export const ACCOUNT_TYPES = {
  taxable: { label: "Brokerage", taxable: true },
  ira: { label: "Traditional IRA", taxable: false },
  roth: { label: "Roth IRA", taxable: false },
  trust: { label: "Revocable Trust", taxable: true },
} as const;
export type AccountType = keyof typeof ACCOUNT_TYPES;

export const STATES = [
  { code: "NY", rate: 0.0685 },
  { code: "CA", rate: 0.093 },
  { code: "TX", rate: 0 },
  { code: "FL", rate: 0 },
  { code: "IL", rate: 0.0495 },
  { code: "MA", rate: 0.05 },
  { code: "NJ", rate: 0.0637 },
  { code: "WA", rate: 0 },
  { code: "CO", rate: 0.044 },
  { code: "GA", rate: 0.0539 },
] as const;

export const FIRST_NAMES = [
  "James",
  "Mary",
  "Robert",
  "Patricia",
  "John",
  "Jennifer",
  "Michael",
  "Linda",
  "David",
  "Elizabeth",
  "William",
  "Barbara",
  "Richard",
  "Susan",
  "Joseph",
  "Jessica",
  "Thomas",
  "Sarah",
  "Charles",
  "Karen",
  "Daniel",
  "Lisa",
  "Matthew",
  "Nancy",
  "Anthony",
  "Sandra",
  "Mark",
  "Ashley",
  "Steven",
  "Emily",
  "Andrew",
  "Donna",
  "Joshua",
  "Michelle",
  "Kevin",
  "Carol",
  "Brian",
  "Amanda",
  "George",
  "Melissa",
  "Aisha",
  "Hiroshi",
  "Sofia",
  "Mateo",
  "Ingrid",
  "Ravi",
  "Chen",
  "Fatima",
  "Lukas",
  "Amara",
] as const;

export const LAST_NAMES = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Gonzalez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Perez",
  "Thompson",
  "White",
  "Harris",
  "Sanchez",
  "Clark",
  "Ramirez",
  "Lewis",
  "Robinson",
  "Walker",
  "Young",
  "Allen",
  "King",
  "Wright",
  "Scott",
  "Torres",
  "Nguyen",
  "Hill",
  "Flores",
  "Okafor",
  "Tanaka",
  "Rossi",
  "Novak",
  "Larsen",
  "Iyer",
  "Kowalski",
  "Haddad",
  "Schmidt",
  "Mensah",
] as const;
