import type { ReactNode } from "react";

import { cn } from "./cn";

/**
 * The outcome of a form action, shown under the form. Errors are announced at once (role=alert),
 * confirmations politely (role=status).
 */
export function FormMessage({ tone, children }: { tone: "error" | "success" | "info"; children: ReactNode }) {
  return (
    <div
      role={tone === "error" ? "alert" : tone === "success" ? "status" : undefined}
      className={cn(
        "rounded-lg border px-3.5 py-2.5 text-sm",
        tone === "error" && "border-red-200 bg-red-50 text-red-700",
        tone === "success" && "border-emerald-200 bg-emerald-50 text-emerald-800",
        tone === "info" && "border-navy-100 bg-navy-50 text-navy-800",
      )}
    >
      {children}
    </div>
  );
}
