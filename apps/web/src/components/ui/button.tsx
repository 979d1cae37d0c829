import type { ComponentProps } from "react";

import { cn } from "./cn";
import { Spinner } from "./spinner";

const variants = {
  primary:
    // The firm's colour (white text on it reaches WCAG AA, checked when it is saved).
    "bg-brand text-white shadow-sm hover:bg-brand/90 active:bg-brand disabled:bg-navy-400 disabled:text-white",
  accent: "bg-emerald-600 text-white shadow-sm hover:bg-emerald-700 disabled:bg-emerald-300",
  secondary:
    "border border-slate-300 bg-white text-navy-900 shadow-sm hover:bg-slate-50 disabled:text-slate-400",
  ghost: "text-navy-800 hover:bg-navy-50 disabled:text-slate-400",
} as const;

const sizes = {
  md: "h-11 px-4 text-sm",
  sm: "h-9 px-3 text-sm",
  /** Inside a table row, beside a badge. */
  xs: "h-7 gap-1.5 px-2 text-xs",
} as const;

export type TButtonProps = ComponentProps<"button"> & {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  isLoading?: boolean;
};

export function buttonClasses(variant: keyof typeof variants = "primary", size: keyof typeof sizes = "md") {
  return cn(
    "inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed",
    variants[variant],
    sizes[size],
  );
}

export function Button({
  variant = "primary",
  size = "md",
  isLoading = false,
  className,
  children,
  disabled,
  type = "button",
  ...props
}: TButtonProps) {
  return (
    <button
      type={type}
      className={cn(buttonClasses(variant, size), className)}
      disabled={disabled || isLoading}
      aria-busy={isLoading || undefined}
      {...props}
    >
      {isLoading ? <Spinner className="size-4" /> : null}
      {children}
    </button>
  );
}
