import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { CheckIcon } from "lucide-react";
import type { ReactElement } from "react";

import type { TViewableClient } from "@portal/contracts";

import { clientNote } from "../utils/client-note";

type TClientSwitcherMenuProps = {
  clients: readonly TViewableClient[];
  /** The client on screen (undefined: none of the list, e.g. one that stopped sharing). */
  current: TViewableClient | undefined;
  onChoose: (client: TViewableClient) => void;
  /** The "Viewing: …" button, which Radix makes the menu's trigger. */
  trigger: ReactElement;
  /** Opens at once: the button was pressed before this module had loaded. */
  defaultOpen: boolean;
  /** In the phone's menu the list opens below the button, else below its right end. */
  align: "start" | "end";
};

const valueOf = (client: TViewableClient) => (client.self ? "self" : String(client.c_id));

/**
 * The client switcher's list (Radix: arrows, Enter, Escape, typeahead and ARIA). Loaded only for someone who
 * may view more than one client (ClientSwitcher).
 */
export function ClientSwitcherMenu({
  clients,
  current,
  onChoose,
  trigger,
  defaultOpen,
  align,
}: TClientSwitcherMenuProps) {
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align={align}
          sideOffset={8}
          collisionPadding={8}
          className="z-50 max-h-[min(24rem,var(--radix-dropdown-menu-content-available-height))] w-72 max-w-[calc(100vw-1rem)] overflow-y-auto rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg"
        >
          <DropdownMenu.Label className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wider text-slate-500 uppercase">
            Whose workbooks to view
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={current ? valueOf(current) : ""}
            onValueChange={(value) => {
              const chosen = clients.find((client) => valueOf(client) === value);
              if (chosen) onChoose(chosen);
            }}
          >
            {clients.map((client) => (
              <DropdownMenu.RadioItem
                key={valueOf(client)}
                value={valueOf(client)}
                className="flex cursor-default items-start gap-2.5 rounded-lg px-3 py-2 text-sm text-navy-900 outline-none select-none data-[highlighted]:bg-navy-50"
              >
                <span className="mt-0.5 flex size-4 shrink-0 items-center justify-center text-emerald-600">
                  <DropdownMenu.ItemIndicator>
                    <CheckIcon className="size-4" />
                  </DropdownMenu.ItemIndicator>
                </span>
                <span className="min-w-0">
                  <span className="block truncate font-medium">{client.name}</span>
                  <span className="block text-xs text-slate-500">{clientNote(client)}</span>
                </span>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
