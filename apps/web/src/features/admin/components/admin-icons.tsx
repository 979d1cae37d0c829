import type { ComponentProps, ReactNode } from "react";

type TIconProps = Omit<ComponentProps<"svg">, "children">;

/** Outline icons of the back office, drawn like the shared set (24px grid, 1.8 stroke); decorative. */
function icon(paths: ReactNode) {
  return function Icon({ className, ...props }: TIconProps) {
    return (
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        className={className ?? "size-5"}
        {...props}
      >
        {paths}
      </svg>
    );
  };
}

export const PlusIcon = icon(
  <>
    <path d="M12 5v14" />
    <path d="M5 12h14" />
  </>,
);

export const SearchIcon = icon(
  <>
    <circle cx="11" cy="11" r="6.5" />
    <path d="M20 20l-4.2-4.2" />
  </>,
);

export const RetryIcon = icon(
  <>
    <path d="M4.5 12a7.5 7.5 0 0 1 13.1-5" />
    <path d="M18 3.5V7h-3.5" />
    <path d="M19.5 12a7.5 7.5 0 0 1-13.1 5" />
    <path d="M6 20.5V17h3.5" />
  </>,
);

export const TrashIcon = icon(
  <>
    <path d="M4 7h16" />
    <path d="M9.5 7V4.5h5V7" />
    <path d="M6 7l1 12.5a1.5 1.5 0 0 0 1.5 1.5h7a1.5 1.5 0 0 0 1.5-1.5L18 7" />
    <path d="M10 11v6" />
    <path d="M14 11v6" />
  </>,
);

export const XIcon = icon(
  <>
    <path d="M6 6l12 12" />
    <path d="M18 6L6 18" />
  </>,
);

export const CheckIcon = icon(<path d="M5 12.5l4.5 4.5L19 7.5" />);

export const ChevronLeftIcon = icon(<path d="M15 6l-6 6 6 6" />);

/** A palette: the firm's look (sidebar entry of /admin/settings). */
export const PaletteIcon = icon(
  <>
    <path d="M12 3a9 9 0 1 0 0 18c1.1 0 1.8-.8 1.8-1.7 0-.5-.2-.9-.5-1.2-.3-.3-.5-.7-.5-1.2 0-.9.8-1.7 1.7-1.7H16a5 5 0 0 0 5-5c0-3.9-4-7.2-9-7.2Z" />
    <circle cx="7.5" cy="11.5" r="1.2" />
    <circle cx="10.5" cy="7.5" r="1.2" />
    <circle cx="15" cy="8" r="1.2" />
  </>,
);
