import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import type { ReactNode } from "react";

import { Avatar } from "../ui/avatar";
import { ChevronDownIcon } from "../ui/icons";

type TAccountMenuProps = {
  user: { name?: string | null; email?: string | null; image?: string | null };
  /** AccountMenuItem elements. */
  children: ReactNode;
};

/** The avatar button in the header and its menu (Radix handles focus, arrows, Escape and ARIA). */
export function AccountMenu({ user, children }: TAccountMenuProps) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          aria-label="Open account menu"
          className="flex items-center gap-2 rounded-full p-1 pr-2 text-navy-800 transition-colors hover:bg-navy-50 data-[state=open]:bg-navy-50"
        >
          <Avatar name={user.name} email={user.email} image={user.image} />
          <span className="hidden max-w-40 truncate text-sm font-medium sm:block">
            {user.name || user.email}
          </span>
          <ChevronDownIcon className="size-4 text-slate-500" />
        </button>
      </DropdownMenu.Trigger>
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

type TAccountMenuItemProps = {
  icon: ReactNode;
  onSelect: () => void;
  children: ReactNode;
};

export function AccountMenuItem({ icon, onSelect, children }: TAccountMenuItemProps) {
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
