import type { ReactNode } from "react";

/** One entry of the account menu (`AccountMenuItem`), as the dropdown renders it. */
export type TAccountMenuItemProps = {
  icon: ReactNode;
  onSelect: () => void;
  children: ReactNode;
};
