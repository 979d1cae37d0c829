import { lazy, Suspense, useState } from "react";
import type { ComponentProps, ComponentType } from "react";

import type {
  ConfirmDeleteDialog as TConfirmDeleteDialog,
  ConfirmDialog as TConfirmDialog,
} from "./confirm-delete-dialog";

const load = () => import("./confirm-delete-dialog");
const ConfirmDeleteDialog = lazy(() => load().then((m) => ({ default: m.ConfirmDeleteDialog })));
const ConfirmDialog = lazy(() => load().then((m) => ({ default: m.ConfirmDialog })));

/**
 * A confirmation whose Radix dialog loads the first time it opens: a back office list's first load neither
 * downloads nor runs it for each row that might ask (decision 024). Once loaded it stays mounted, so it
 * closes, and gives the focus back, as the dialog always did.
 */
function onDemand<P extends { open: boolean }>(Dialog: ComponentType<P>) {
  return function OnDemand(props: P) {
    const [wanted, setWanted] = useState(props.open);
    if (props.open && !wanted) setWanted(true);
    if (!wanted) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}

/** `ConfirmDeleteDialog` ('Yes, Delete' and 'Cancel'), loaded on demand. */
export const ConfirmDeleteOnDemand =
  onDemand<ComponentProps<typeof TConfirmDeleteDialog>>(ConfirmDeleteDialog);
/** `ConfirmDialog`, loaded on demand. */
export const ConfirmDialogOnDemand = onDemand<ComponentProps<typeof TConfirmDialog>>(ConfirmDialog);
