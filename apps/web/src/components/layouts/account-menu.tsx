import { ChevronDownIcon } from "lucide-react";
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { ComponentProps, KeyboardEvent, PointerEvent, ReactNode } from "react";

import { Avatar } from "../ui/avatar";
import type * as Dropdown from "./account-menu-dropdown";
import type { TAccountMenuItemProps } from "./account-menu-item";

type TUser = { name?: string | null; email?: string | null; image?: string | null };

type TAccountMenuProps = {
  user: TUser;
  /** AccountMenuItem elements. */
  children: ReactNode;
};

type TDropdown = typeof Dropdown;

let dropdown: TDropdown | null = null;
let loading: Promise<TDropdown> | null = null;
function loadDropdown(): Promise<TDropdown> {
  loading ??= import("./account-menu-dropdown").then((module) => (dropdown = module));
  return loading;
}

/**
 * A moment after the first screen, when the browser is idle: the menu is ready before anyone reaches for it,
 * and its files are not among those the first screen waits for.
 */
function soonAfterFirstScreen(callback: () => void): () => void {
  let idle: number | undefined;
  const timer = setTimeout(() => {
    // Safari has no requestIdleCallback.
    if (typeof window.requestIdleCallback === "function")
      idle = window.requestIdleCallback(callback, { timeout: 1000 });
    else callback();
  }, 1500);
  return () => {
    clearTimeout(timer);
    if (idle !== undefined) window.cancelIdleCallback(idle);
  };
}

const ItemContext = createContext<((item: TAccountMenuItemProps) => ReactNode) | null>(null);

/** The avatar button in the header. */
function AccountButton({ user, ...props }: ComponentProps<"button"> & { user: TUser }) {
  return (
    <button
      type="button"
      aria-label="Open account menu"
      className="flex items-center gap-2 rounded-full p-1 pr-2 text-navy-800 transition-colors hover:bg-navy-50 data-[state=open]:bg-navy-50"
      {...props}
    >
      <Avatar name={user.name} email={user.email} image={user.image} />
      <span className="hidden max-w-40 truncate text-sm font-medium sm:block">{user.name || user.email}</span>
      <ChevronDownIcon className="size-4 text-slate-500" />
    </button>
  );
}

/**
 * The avatar button in the header and its menu. The menu (Radix) loads a moment after the first screen, or as
 * soon as someone points at or focuses the button (decision 015); until then the same button stands in, and a
 * press on it opens the menu once it has loaded.
 */
export function AccountMenu({ user, children }: TAccountMenuProps) {
  const [menu, setMenu] = useState(dropdown);
  const [openAtOnce, setOpenAtOnce] = useState(false);
  const standIn = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const keepFocus = useRef(false);

  useEffect(() => {
    if (menu) return;
    let live = true;
    const cancel = soonAfterFirstScreen(() => void loadDropdown().then((module) => live && adopt(module)));
    return () => {
      live = false;
      cancel();
    };
  }, [menu]);

  // Focus stays on the button when the menu's own button takes the stand-in's place.
  useLayoutEffect(() => {
    if (menu && keepFocus.current) trigger.current?.focus();
  }, [menu]);

  function adopt(module: TDropdown) {
    keepFocus.current = document.activeElement !== null && document.activeElement === standIn.current;
    setMenu(module);
  }

  if (!menu) {
    const load = () => void loadDropdown().then(adopt);
    const open = () => {
      setOpenAtOnce(true);
      load();
    };
    return (
      <AccountButton
        ref={standIn}
        user={user}
        aria-haspopup="menu"
        aria-expanded={false}
        data-state="closed"
        // Someone reaching for the button: the menu loads now.
        onPointerEnter={load}
        onFocus={load}
        // As Radix's trigger: a press of the main button, or Enter, Space or the down arrow.
        onPointerDown={(event: PointerEvent) => {
          if (event.button !== 0 || event.ctrlKey) return;
          event.preventDefault();
          open();
        }}
        onKeyDown={(event: KeyboardEvent) => {
          if (!["Enter", " ", "ArrowDown"].includes(event.key)) return;
          event.preventDefault();
          open();
        }}
      />
    );
  }
  return (
    <menu.AccountMenuDropdown
      user={user}
      defaultOpen={openAtOnce}
      trigger={<AccountButton ref={trigger} user={user} />}
    >
      <ItemContext value={menu.renderAccountMenuItem}>{children}</ItemContext>
    </menu.AccountMenuDropdown>
  );
}

/** One entry of the account menu (rendered only while the menu is open, so once it has loaded). */
export function AccountMenuItem(props: TAccountMenuItemProps) {
  return useContext(ItemContext)?.(props) ?? null;
}
