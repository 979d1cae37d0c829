import { useId } from "react";
import type { ReactNode } from "react";

import { cn } from "./cn";

type TSwitchProps = {
  label: string;
  /** One line under the label: what turning it on does. */
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** Shown beside the label while a change is being saved. */
  busy?: boolean;
};

/**
 * An on/off setting after the WAI-ARIA switch pattern: a button with role=switch, named by its label and
 * described by its line of explanation. The state is also written out ("On"/"Off"), not shown by colour alone.
 */
export function Switch({
  label,
  description,
  checked,
  onChange,
  disabled = false,
  busy = false,
}: TSwitchProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label id={labelId} htmlFor={id} className="block text-sm font-medium text-navy-900">
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="mt-0.5 text-sm text-slate-500">
            {description}
          </p>
        ) : null}
      </div>
      <span className="flex shrink-0 items-center gap-2">
        <span aria-hidden="true" className="w-7 text-right text-sm font-medium text-slate-700">
          {checked ? "On" : "Off"}
        </span>
        <button
          id={id}
          type="button"
          role="switch"
          aria-checked={checked}
          aria-labelledby={labelId}
          aria-describedby={descriptionId}
          aria-busy={busy || undefined}
          disabled={disabled}
          onClick={() => onChange(!checked)}
          className={cn(
            "relative inline-flex h-7 w-12 items-center rounded-full p-0.5 transition-colors focus-visible:ring-3 focus-visible:ring-emerald-500/40 focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-60",
            checked ? "bg-emerald-700" : "bg-slate-400",
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              "size-6 rounded-full bg-white shadow-sm transition-transform",
              checked ? "translate-x-5" : "translate-x-0",
            )}
          />
        </button>
      </span>
    </div>
  );
}
