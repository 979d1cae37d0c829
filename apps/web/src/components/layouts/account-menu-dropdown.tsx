import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { ReactElement, ReactNode } from "react";

import type { TAccountMenuItemProps } from "./account-menu-item";

type TAccountMenuDropdownProps = {
  user: { name?: string | null; email?: string | null };
  /** The avatar button (AccountMenu's), which Radix makes the menu's trigger. */
  trigger: ReactElement;
  /** Opens at once: the button was pressed before this module had loaded. */
  defaultOpen: boolean;
  /** AccountMenuItem elements. */
  children: ReactNode;
};

/**
 * The account menu itself (Radix handles focus, arrows, Escape and ARIA). Loaded after the first screen has
 * painted, by AccountMenu (decision 015): Radix's menu and its positioning library are not needed to show it.
 */
export function AccountMenuDropdown({ user, trigger, defaultOpen, children }: TAccountMenuDropdownProps) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-56 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg"
        >
          <DropdownMenu.Label className="px-3 py-2">
            <span className="block truncate text-sm font-semibold text-navy-950">{user.name}</span>
            <span className="block truncate text-xs text-slate-500">{user.email}</span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** What AccountMenuItem renders once the menu has loaded. */
export function renderAccountMenuItem({ icon, onSelect, children }: TAccountMenuItemProps) {
  return (
    <DropdownMenu.Item
      onSelect={onSelect}
      className="flex items-center gap-2.5 rounded-lg px-3 py-2 text-sm text-navy-900 outline-none select-none data-[highlighted]:bg-navy-50"
    >
      <span className="text-slate-500">{icon}</span>
      {children}
    </DropdownMenu.Item>
  );
}
