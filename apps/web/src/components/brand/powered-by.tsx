import poweredBySigma from "@/assets/powered-by-sigma.svg";

import { cn } from "../ui/cn";

/** "Powered by" the analytics service whose workbooks the portal embeds. For dark backgrounds. */
export function PoweredBy({ className }: { className?: string }) {
  return (
    <p className={cn("inline-flex items-center gap-2.5 text-xs font-medium text-navy-200", className)}>
      <span>Powered by</span>
      <img src={poweredBySigma} alt="Sigma" className="h-6 w-auto" />
    </p>
  );
}
