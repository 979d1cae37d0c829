import type { TFormat } from "./schema.ts";

const currency = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const currency0 = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  maximumFractionDigits: 0,
});
const percent = new Intl.NumberFormat("en-US", {
  style: "percent",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const shares = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });
const date = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "short",
  day: "numeric",
  timeZone: "UTC",
});

export function formatValue(value: unknown, format: TFormat = "text"): string {
  if (value === null || value === undefined || value === "") return "—";
  if (format === "text") return String(value);
  if (format === "date") {
    const s = String(value);
    return /^\d{4}-\d{2}-\d{2}$/.test(s) ? date.format(new Date(`${s}T00:00:00Z`)) : s;
  }
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) return String(value);
  switch (format) {
    case "currency":
      return currency.format(n);
    case "currency0":
      return currency0.format(n);
    case "percent":
      return percent.format(n);
    case "integer":
      return integer.format(n);
    case "bps":
      return `${number.format(n)} bps`;
    case "shares":
      return shares.format(n);
    default:
      return number.format(n);
  }
}

/** Compact axis labels: $1.2M, 12%, Nov 2026. */
export function formatAxis(value: unknown, format: TFormat = "number"): string {
  const n = typeof value === "number" ? value : Number(value);
  if (format === "date") return formatValue(value, "date");
  if (!Number.isFinite(n)) return String(value);
  if (format === "percent") return `${(n * 100).toFixed(Math.abs(n) < 0.1 ? 1 : 0)}%`;
  const abs = Math.abs(n);
  const prefix = format === "currency" || format === "currency0" ? "$" : "";
  const sign = n < 0 ? "-" : "";
  if (abs >= 1e6) return `${sign}${prefix}${(abs / 1e6).toFixed(abs >= 1e7 ? 0 : 1)}M`;
  if (abs >= 1e3) return `${sign}${prefix}${(abs / 1e3).toFixed(abs >= 1e4 ? 0 : 1)}K`;
  return `${sign}${prefix}${abs.toFixed(abs < 10 && abs % 1 ? 1 : 0)}`;
}
