import { UserXIcon } from "lucide-react";
import { useState } from "react";

import type { TDelegate } from "@portal/contracts";

import { ConfirmDialog } from "@/components/admin/confirm-delete-dialog";
import { getErrorMessage } from "@/lib/errors";

import { REVOKE_DELEGATE_FAILED, useRevokeDelegate } from "../api/revoke-delegate";
import type { TDelegatesOwner } from "../utils/owner";

/** The outcome of an action of the card, shown under the list. */
export type TNotice = { tone: "success" | "error"; text: string };

/**
 * Revoke with its confirmation: `ask(delegate)` opens the dialog; once confirmed, the delegation is deleted and
 * seeing the workbooks again takes a new invitation. The outcome goes to `onOutcome` (the API's message).
 */
export function useRevokeFlow({
  owner,
  whose,
  onOutcome,
}: {
  owner: TDelegatesOwner;
  /** "your" or "Olivia Bennett's". */
  whose: string;
  onOutcome: (notice: TNotice) => void;
}) {
  const revoke = useRevokeDelegate(owner);
  const [delegate, setDelegate] = useState<TDelegate | null>(null);

  const dialog = (
    <ConfirmDialog
      open={delegate !== null}
      title="Revoke access?"
      description={
        delegate
          ? `${delegate.name} (${delegate.email}) will no longer be able to view ${whose} workbooks, starting now. To share with them again, you will need to send a new invitation.`
          : ""
      }
      pending={revoke.isPending}
      onCancel={() => setDelegate(null)}
      onConfirm={() => {
        if (!delegate) return;
        revoke.mutate(delegate.id, {
          onSuccess: (answer) => onOutcome({ tone: "success", text: answer.message }),
          onError: (error) =>
            onOutcome({ tone: "error", text: getErrorMessage(error, REVOKE_DELEGATE_FAILED) }),
          onSettled: () => setDelegate(null),
        });
      }}
      confirmLabel="Yes, Revoke"
      pendingLabel="Revoking..."
      icon={<UserXIcon className="size-5" />}
    />
  );

  const ask = (chosen: TDelegate) => {
    revoke.reset();
    setDelegate(chosen);
  };
  return { ask, dialog };
}
