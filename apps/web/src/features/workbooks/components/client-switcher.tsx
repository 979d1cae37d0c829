import { ChevronsUpDownIcon, UsersRoundIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import type { ComponentProps } from "react";
import { useNavigate } from "react-router";

import { cn } from "@/components/ui/cn";

import { useMyClients } from "../api/get-my-clients";
import { useViewedClient } from "../utils/use-viewed-client";
import { switchTarget, viewedEntry } from "../utils/viewed-client";

// Radix's menu only for someone who may view more than one client (decision 015: not on the first screen's path).
const ClientSwitcherMenu = lazy(() =>
  import("./client-switcher-menu").then((m) => ({ default: m.ClientSwitcherMenu })),
);

/** Where the switcher stands: the header (wide screens) or the top of the phone's menu (dark). */
export type TSwitcherPlace = "header" | "menu";

const NO_CLIENT = "Choose a client";

function ViewingButton({
  name,
  place,
  className,
  ...props
}: ComponentProps<"button"> & { name: string | undefined; place: TSwitcherPlace }) {
  return (
    <button
      type="button"
      className={cn(
        // A button does not stretch by itself: w-full lets it shrink with the header.
        "flex w-full min-w-0 items-center gap-2 rounded-lg text-left text-sm transition-colors",
        place === "header"
          ? "h-10 max-w-44 border border-slate-200 bg-white px-3 text-navy-900 shadow-sm hover:bg-slate-50 data-[state=open]:bg-slate-50 lg:max-w-72"
          : "h-11 bg-white/10 px-2.5 text-white hover:bg-white/15 data-[state=open]:bg-white/15",
        className,
      )}
      {...props}
    >
      <UsersRoundIcon
        aria-hidden="true"
        className={cn("size-4 shrink-0", place === "header" ? "text-slate-500" : "text-emerald-400")}
      />
      <span className="min-w-0 flex-1 truncate">
        {/* Beside the breadcrumb on narrower screens the name alone shows; the button's name keeps "Viewing:". */}
        <span className={place === "header" ? "text-slate-500 max-lg:sr-only" : "text-navy-200"}>
          Viewing:
        </span>{" "}
        <span className="font-semibold">{name ?? NO_CLIENT}</span>
      </span>
      <ChevronsUpDownIcon
        aria-hidden="true"
        className={cn("size-4 shrink-0", place === "header" ? "text-slate-400" : "text-navy-300")}
      />
    </button>
  );
}

/**
 * "Viewing: Olivia Bennett": for someone who may view more than one client (themselves and the clients who
 * made them a delegate), the choice of whose workbooks the sidebar and the view show. Choosing opens that
 * client's first workbook, with the client in the URL (`?client=`); one's own has no `client`. Nothing shows
 * for someone with one client, or while the list is loading or could not be loaded.
 */
export function ClientSwitcher({ place, enabled = true }: { place: TSwitcherPlace; enabled?: boolean }) {
  const navigate = useNavigate();
  const clients = useMyClients(enabled);
  const viewed = useViewedClient();
  // A press before the menu's module has arrived opens it once it has.
  const [openAtOnce, setOpenAtOnce] = useState(false);
  if (!enabled || !clients.data || clients.data.length < 2) return null;

  const current = viewedEntry(clients.data, viewed);
  const standIn = (
    <ViewingButton
      name={current?.name}
      place={place}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      onClick={() => setOpenAtOnce(true)}
    />
  );
  return (
    <Suspense fallback={standIn}>
      <ClientSwitcherMenu
        clients={clients.data}
        current={current}
        onChoose={(client) => void navigate(switchTarget(client))}
        trigger={<ViewingButton name={current?.name} place={place} />}
        defaultOpen={openAtOnce}
        align={place === "header" ? "end" : "start"}
      />
    </Suspense>
  );
}
