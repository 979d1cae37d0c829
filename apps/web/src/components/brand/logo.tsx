import logoMark from "@/assets/logo-mark.svg";
import { useFirm } from "@/lib/branding";

import { cn } from "../ui/cn";

type TLogoProps = {
  /** "light" for dark backgrounds. */
  tone?: "dark" | "light";
  /** Only the square mark (collapsed sidebar). */
  compact?: boolean;
  className?: string;
};

/**
 * The firm's logo: its own image (or the built-in mark) plus its name, whose first word is the wordmark and the
 * rest the small line under it ("Meridian" / "TAX & WEALTH"). The name is real text so it scales and reads out.
 */
export function Logo({ tone = "dark", compact = false, className }: TLogoProps) {
  const firm = useFirm();
  const [first = "", ...rest] = firm.firmName.split(/\s+/);
  return (
    <span className={cn("inline-flex items-center gap-3", className)}>
      <img
        src={firm.logoUrl ?? logoMark}
        alt={compact ? firm.firmName : ""}
        data-testid="firm-logo"
        className={cn("h-10 shrink-0 object-contain", compact ? "w-10" : "w-auto max-w-32 min-w-10")}
      />
      {compact ? null : (
        <span className="min-w-0 text-left leading-tight">
          <span
            className={cn(
              "block truncate text-lg font-semibold tracking-tight",
              tone === "light" ? "text-white" : "text-navy-950",
            )}
          >
            {first}
          </span>
          {rest.length > 0 ? (
            <span
              className={cn(
                "block truncate text-[0.68rem] font-medium tracking-[0.18em] uppercase",
                tone === "light" ? "text-emerald-300" : "text-emerald-700",
              )}
            >
              {rest.join(" ")}
            </span>
          ) : null}
        </span>
      )}
    </span>
  );
}
