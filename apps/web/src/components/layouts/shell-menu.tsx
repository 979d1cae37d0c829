import { MenuIcon } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import { useLocation } from "react-router";

const loadDrawer = () => import("./shell-menu-drawer");
const ShellMenuDrawer = lazy(() => loadDrawer().then((m) => ({ default: m.ShellMenuDrawer })));

/** Where the shell's sidebar turns into the Menu button: below Tailwind's `md`. */
export const WIDE_SCREEN = "(min-width: 768px)";

type TShellMenuProps = {
  homeTo: string;
  /** The shell's navigation, rendered only while the drawer is open. */
  children: () => ReactNode;
};

/**
 * On phones the sidebar is a menu behind this button, in the header: the page keeps the full width. The
 * drawer closes by itself after any navigation (a link, the client switcher), and when the screen becomes
 * wide enough for the sidebar.
 */
export function ShellMenu({ homeTo, children }: TShellMenuProps) {
  const location = useLocation();
  // Open for the page it was opened on: moving to another page closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const [requested, setRequested] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const open = openOn === location.key;

  useEffect(() => {
    const wide = window.matchMedia(WIDE_SCREEN);
    const close = () => {
      if (wide.matches) setOpenOn(null);
    };
    wide.addEventListener("change", close);
    return () => wide.removeEventListener("change", close);
  }, []);

  return (
    <>
      <button
        ref={button}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadDrawer()}
        onFocus={() => void loadDrawer()}
        onClick={() => {
          setRequested(true);
          setOpenOn(location.key);
        }}
        className="-ml-1 flex size-10 shrink-0 items-center justify-center rounded-lg text-navy-800 hover:bg-navy-50 md:hidden"
      >
        <MenuIcon className="size-6" />
        <span className="sr-only">Menu</span>
      </button>
      {requested ? (
        <Suspense fallback={null}>
          <ShellMenuDrawer open={open} onClose={() => setOpenOn(null)} homeTo={homeTo} returnFocusTo={button}>
            {open ? children() : null}
          </ShellMenuDrawer>
        </Suspense>
      ) : null}
    </>
  );
}
