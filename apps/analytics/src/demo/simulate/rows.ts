/** Rows produced for one client, as CSV lines per table. */
export interface ClientRows {
  households: string[];
  clients: string[];
  accounts: string[];
  transactions: string[];
  taxLots: string[];
  lotDisposals: string[];
  positions: string[];
  fees: string[];
  taxEstimates: string[];
}

export interface IdCounters {
  transaction: number;
  lot: number;
  disposal: number;
  fee: number;
}

export function csv(values: readonly (string | number | boolean | null)[]): string {
  return `${values
    .map((v) => {
      if (v === null) return "";
      const s = String(v);
      return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    })
    .join(",")}\n`;
}

export const cents = (c: number) => (c / 100).toFixed(2);
export const price = (p4: number) => (p4 / 10_000).toFixed(4);
