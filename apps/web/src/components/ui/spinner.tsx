import { cn } from "./cn";

export function Spinner({ className }: { className?: string }) {
  return (
    <svg
      className={cn("animate-spin", className ?? "size-5")}
      viewBox="0 0 24 24"
      fill="none"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="9.5" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
      <path d="M21.5 12A9.5 9.5 0 0 0 12 2.5" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}

/** Covers the screen while something the whole page depends on is loading. */
export function FullScreenSpinner({ label }: { label: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-slate-50 text-navy-800"
    >
      <Spinner className="size-10 text-emerald-600" />
      <p className="text-base font-medium">{label}</p>
    </div>
  );
}

export function CheckingAuthentication() {
  return <FullScreenSpinner label="Checking authentication..." />;
}
