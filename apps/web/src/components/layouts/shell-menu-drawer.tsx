import * as Dialog from "@radix-ui/react-dialog";
import { XIcon } from "lucide-react";
import type { MouseEvent, ReactNode, RefObject } from "react";
import { Link } from "react-router";

import { Logo } from "../brand/logo";

type TShellMenuDrawerProps = {
  open: boolean;
  onClose: () => void;
  /** Where the logo leads. */
  homeTo: string;
  /** The Menu button, which gets the focus back once the drawer closes. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  /** The shell's navigation, as in the wide screen's sidebar. */
  children: ReactNode;
};

/**
 * The phone's navigation: the sidebar's content in a drawer from the left. Radix keeps the focus inside,
 * closes it on Escape and outside it; choosing a link closes it too. Loaded when the Menu button is first
 * pressed (ShellMenu), so wide screens never load it.
 */
export function ShellMenuDrawer({ open, onClose, homeTo, returnFocusTo, children }: TShellMenuDrawerProps) {
  const closeOnLink = (event: MouseEvent) => {
    if ((event.target as Element).closest("a")) onClose();
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-navy-950/40" />
        <Dialog.Content
          aria-describedby={undefined}
          onClick={closeOnLink}
          // Opened by state, not by a Radix Trigger: the focus goes back to the Menu button.
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-navy-950 text-navy-100 shadow-2xl outline-none"
        >
          <Dialog.Title className="sr-only">Menu</Dialog.Title>
          <div className="flex h-[90px] shrink-0 items-center justify-between gap-3 pr-3 pl-5">
            <Link to={homeTo} className="min-w-0 rounded-lg" aria-label="Home">
              <Logo tone="light" />
            </Link>
            <Dialog.Close
              aria-label="Close menu"
              title="Close menu"
              className="flex size-10 shrink-0 items-center justify-center rounded-lg text-navy-200 hover:bg-white/10 hover:text-white"
            >
              <XIcon className="size-5" />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-3 py-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
