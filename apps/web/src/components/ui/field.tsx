import { useId } from "react";
import type { ComponentProps, ReactNode } from "react";

import { cn } from "./cn";

/** Classes of a text-like form control; exported for inputs that are not wrapped in TextField. */
export const controlClasses =
  "block w-full rounded-lg border bg-white px-3.5 text-base text-slate-900 shadow-sm transition-colors placeholder:text-slate-400 focus:border-emerald-600 focus:ring-3 focus:ring-emerald-500/30 focus:outline-none sm:text-sm";

type TFieldShellProps = {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
};

/** Label, control, hint and error message wired together with ids and aria attributes. */
function FieldShell({ label, error, hint, children }: TFieldShellProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-navy-900">
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type TTextFieldProps = ComponentProps<"input"> & {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
};

export function TextField({ label, error, hint, className, ...inputProps }: TTextFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(controlClasses, "h-11", invalid ? "border-red-400" : "border-slate-300", className)}
          {...inputProps}
        />
      )}
    </FieldShell>
  );
}

type TSelectFieldProps = ComponentProps<"select"> & {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  options: ReadonlyArray<{ value: string; label: string }>;
};

export function SelectField({ label, error, hint, options, className, ...selectProps }: TSelectFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={cn(
            controlClasses,
            "select-chevron h-11 appearance-none pr-10",
            invalid ? "border-red-400" : "border-slate-300",
            className,
          )}
          {...selectProps}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}
