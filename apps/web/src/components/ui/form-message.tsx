import { CheckIcon } from "lucide-react";
import type { ReactNode } from "react";

import { cn } from "./cn";

const CHECK_MARK = "✅ ";

/**
 * A confirmation that starts with the spec's '✅ ' keeps the character in the text (screen readers, copy and
 * paste, the contract) but shows a drawn check mark instead: without an emoji font the character renders as
 * an empty box.
 */
function withCheckMark(children: ReactNode): ReactNode {
  if (typeof children !== "string" || !children.startsWith(CHECK_MARK)) return children;
  return (
    <span className="inline-flex items-start gap-1.5">
      <CheckIcon strokeWidth={2.4} className="mt-0.5 size-4 shrink-0" />
      <span>
        <span className="sr-only">{CHECK_MARK}</span>
        {children.slice(CHECK_MARK.length)}
      </span>
    </span>
  );
}

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
      {tone === "success" ? withCheckMark(children) : children}
    </div>
  );
}
