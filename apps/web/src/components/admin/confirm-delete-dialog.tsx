import * as Dialog from "@radix-ui/react-dialog";
import { TrashIcon } from "lucide-react";
import { useRef } from "react";
import type { ReactNode } from "react";

import { buttonClasses } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Spinner } from "@/components/ui/spinner";

type TConfirmDialogProps = {
  /** Open while an item is chosen for deletion. */
  open: boolean;
  /** The spec's question, e.g. 'Are you sure you want to delete this client?'. */
  title: string;
  /** What will happen to whom, in plain words. */
  description: ReactNode;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** The confirming button, and its text while the action runs. */
  confirmLabel: string;
  pendingLabel: string;
  icon: ReactNode;
};

/**
 * The delete confirmation (spec: 'Yes, Delete' and 'Cancel').
 */
export function ConfirmDeleteDialog(
  props: Omit<TConfirmDialogProps, "confirmLabel" | "pendingLabel" | "icon">,
) {
  return (
    <ConfirmDialog
      {...props}
      confirmLabel="Yes, Delete"
      pendingLabel="Deleting..."
      icon={<TrashIcon className="size-5" />}
    />
  );
}

/**
 * A confirmation of something that cannot be undone. Radix traps focus inside, starts on Cancel (the safe
 * choice) and closes on Escape. Focus then returns to the button that opened it, or, when that is gone
 * (a deleted row), to the page's main region.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  pending,
  onConfirm,
  onCancel,
  confirmLabel,
  pendingLabel,
  icon,
}: TConfirmDialogProps) {
  // The dialog is opened by state, not by a Radix Trigger, so it remembers where to send focus back.
  const returnFocusTo = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        // While the action runs, the dialog stays put.
        if (!next && !pending) onCancel();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-navy-950/50 backdrop-blur-[1px]" />
        <Dialog.Content
          role="alertdialog"
          onOpenAutoFocus={() => {
            returnFocusTo.current =
              document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            const target = returnFocusTo.current;
            if (target?.isConnected) target.focus();
            else document.getElementById("main")?.focus();
          }}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-slate-200 bg-white p-6 shadow-2xl focus:outline-none"
        >
          <div className="flex gap-4">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-red-50 text-red-700">
              {icon}
            </span>
            <div className="min-w-0 space-y-2">
              <Dialog.Title className="text-lg font-semibold text-navy-950">{title}</Dialog.Title>
              <Dialog.Description className="text-sm leading-relaxed text-slate-600">
                {description}
              </Dialog.Description>
            </div>
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <button type="button" disabled={pending} className={buttonClasses("secondary")}>
                Cancel
              </button>
            </Dialog.Close>
            <button
              type="button"
              onClick={onConfirm}
              disabled={pending}
              aria-busy={pending || undefined}
              className={cn(
                "inline-flex h-11 items-center justify-center gap-2 rounded-lg px-4 text-sm font-semibold text-white shadow-sm transition-colors",
                "bg-red-700 hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-red-400",
              )}
            >
              {pending ? <Spinner className="size-4" /> : null}
              {pending ? pendingLabel : confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
