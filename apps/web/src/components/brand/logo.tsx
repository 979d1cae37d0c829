import logoMark from "@/assets/logo-mark.svg";

import { cn } from "../ui/cn";

export const FIRM_NAME = "Meridian Tax & Wealth";

type TLogoProps = {
  /** "light" for dark backgrounds. */
  tone?: "dark" | "light";
  /** Only the square mark (collapsed sidebar). */
  compact?: boolean;
  className?: string;
};

/** The firm's logo: the mark plus the name; the name is real text so it scales and reads out. */
export function Logo({ tone = "dark", compact = false, className }: TLogoProps) {
  return (
    <span className={cn("inline-flex items-center gap-3", className)}>
      <img src={logoMark} alt={compact ? FIRM_NAME : ""} className="size-10 shrink-0" />
      {compact ? null : (
        <span className="text-left leading-tight">
          <span
            className={cn(
              "block text-lg font-semibold tracking-tight",
              tone === "light" ? "text-white" : "text-navy-950",
            )}
          >
            Meridian
          </span>
          <span
            className={cn(
              "block text-[0.68rem] font-medium tracking-[0.18em] uppercase",
              tone === "light" ? "text-emerald-300" : "text-emerald-700",
            )}
          >
            Tax &amp; Wealth
          </span>
        </span>
      )}
    </span>
  );
}
