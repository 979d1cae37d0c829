import { LogOutIcon } from "lucide-react";
import { useState } from "react";

import { useScopedAction } from "@/components/admin/action-scope";
import { ConfirmDialog } from "@/components/admin/confirm-delete-dialog";
import { ReadOnlyItem } from "@/components/admin/form-layout";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";

import type { TPersonTarget } from "../api/people";
import { REVOKE_SESSIONS_FAILED, useRevokeSessions } from "../api/revoke-sessions";

type TSignOutEverywhereProps = {
  target: TPersonTarget;
  /** The person's name, for the confirmation. */
  name: string;
};

/**
 * Edit Client / Edit Employee: ends every session of the person (a lost laptop, a shared computer, someone
 * leaving the firm). They stay able to sign in; their next request anywhere is refused until they do.
 */
export function SignOutEverywhere({ target, name }: TSignOutEverywhereProps) {
  const revoke = useRevokeSessions(target);
  const action = useScopedAction();
  const [confirming, setConfirming] = useState(false);

  return (
    <ReadOnlyItem label="Sessions" wide>
      <span className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <span>
          Signing out ends every session on every device; they can sign in again with their password.
        </span>
        <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
          Sign out everywhere
        </Button>
      </span>
      {action.shows && revoke.isSuccess ? (
        <span className="mt-2 block">
          <FormMessage tone="success">{revoke.data.message}</FormMessage>
        </span>
      ) : null}
      {action.shows && revoke.isError ? (
        <span className="mt-2 block">
          <FormMessage tone="error">{getErrorMessage(revoke.error, REVOKE_SESSIONS_FAILED)}</FormMessage>
        </span>
      ) : null}
      {/* A portal: its markup goes to the end of the page, not into the list. */}
      <ConfirmDialog
        open={confirming}
        title="Sign out everywhere?"
        description={`${name} is signed out on every device at once and must sign in again.`}
        pending={revoke.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          action.start();
          revoke.mutate(undefined, { onSettled: () => setConfirming(false) });
        }}
        confirmLabel="Yes, Sign out"
        pendingLabel="Signing out..."
        icon={<LogOutIcon className="size-5" />}
      />
    </ReadOnlyItem>
  );
}
