import { PanelLeftIcon } from "lucide-react";
import { useId, useState } from "react";
import type { ReactNode } from "react";
import { Link, NavLink } from "react-router";

import { Logo } from "../brand/logo";
import { cn } from "../ui/cn";
import { Breadcrumbs } from "./breadcrumbs";
import { ShellMenu } from "./shell-menu";

/** Where the navigation is drawn: the wide screen's sidebar, or the phone's menu (ShellMenu). */
export type TSidebarPlace = "sidebar" | "menu";

type TShellLayoutProps = {
  /** Where the logo leads. */
  homeTo: string;
  /** Sidebar navigation; gets whether the sidebar is collapsed (never in the phone's menu) and where it is. */
  sidebar: (collapsed: boolean, place: TSidebarPlace) => ReactNode;
  /** Right end of the header (the account menu). */
  headerEnd: ReactNode;
  /** Names a screen shown in place of every page; the breadcrumb then shows only it (see Breadcrumbs). */
  screen?: string | undefined;
  children: ReactNode;
};

/**
 * The signed-in frame: a collapsible left sidebar (w-64 open, w-16 collapsed) with the logo, and a 90px
 * header with the breadcrumb. On phones (below `md`) there is no sidebar: the page has the full width, and
 * the header's Menu button opens the navigation as a drawer.
 */
export function ShellLayout({ homeTo, sidebar, headerEnd, screen, children }: TShellLayoutProps) {
  const [open, setOpen] = useState(true);
  const sidebarId = useId();

  return (
    <div className="flex min-h-dvh bg-slate-50">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 text-sm font-semibold text-navy-900 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <aside
        id={sidebarId}
        aria-label="Sidebar"
        className={cn(
          "sticky top-0 z-40 flex h-dvh shrink-0 flex-col bg-navy-950 text-navy-100 transition-[width] duration-200 max-md:hidden",
          open ? "w-64" : "w-16",
        )}
      >
        <div className={cn("flex h-[90px] shrink-0 items-center", open ? "px-5" : "justify-center")}>
          <Link to={homeTo} className="rounded-lg" aria-label="Home">
            <Logo tone="light" compact={!open} />
          </Link>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-3 py-4">{sidebar(!open, "sidebar")}</div>
        <div className={cn("border-t border-white/10 p-3", !open && "flex justify-center")}>
          <button
            type="button"
            onClick={() => setOpen((value) => !value)}
            aria-expanded={open}
            aria-controls={sidebarId}
            aria-label={open ? "Collapse sidebar" : "Expand sidebar"}
            title={open ? "Collapse sidebar" : "Expand sidebar"}
            className="flex h-10 items-center gap-3 rounded-lg px-2.5 text-sm text-navy-200 hover:bg-white/10 hover:text-white"
          >
            <PanelLeftIcon className="size-5" />
            {open ? <span>Collapse</span> : null}
          </button>
        </div>
      </aside>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-20 flex h-[90px] shrink-0 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 shadow-[inset_0_4px_0_var(--color-brand)] backdrop-blur sm:gap-4 sm:px-8">
          <ShellMenu homeTo={homeTo}>{() => sidebar(false, "menu")}</ShellMenu>
          <Breadcrumbs screen={screen} />
          <div className="ml-auto min-w-0">{headerEnd}</div>
        </header>
        <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 outline-none sm:px-8 sm:py-8">
          {children}
        </main>
      </div>
    </div>
  );
}

type TSidebarLinkProps = {
  to: string;
  icon: ReactNode;
  label: string;
  collapsed: boolean;
  /** Also highlighted when true (e.g. the list that is also the section's index page). */
  highlighted?: boolean;
};

/** A sidebar entry: icon + label, or only the icon (with the label for screen readers) when collapsed. */
export function SidebarLink({ to, icon, label, collapsed, highlighted = false }: TSidebarLinkProps) {
  return (
    <NavLink
      to={to}
      title={collapsed ? label : undefined}
      className={({ isActive }) =>
        cn(
          "flex h-10 items-center gap-3 rounded-lg px-2.5 text-sm font-medium transition-colors",
          collapsed && "justify-center",
          isActive || highlighted
            ? "bg-white/10 text-white"
            : "text-navy-200 hover:bg-white/5 hover:text-white",
        )
      }
    >
      {({ isActive }) => (
        <>
          <span className={isActive || highlighted ? "text-emerald-400" : undefined}>{icon}</span>
          <span className={collapsed ? "sr-only" : "truncate"}>{label}</span>
        </>
      )}
    </NavLink>
  );
}
