import { ShieldCheckIcon } from "lucide-react";
import { useState } from "react";

import { useScopedAction } from "@/components/admin/action-scope";
import { ConfirmDialog } from "@/components/admin/confirm-delete-dialog";
import { ReadOnlyItem } from "@/components/admin/form-layout";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";

import { useResetTwoFactor } from "../api/people";
import type { TPersonTarget } from "../api/people";

type TTwoFactorResetProps = {
  target: TPersonTarget;
  /** The person's name, for the confirmation. */
  name: string;
  /** Whether they have set up two-step verification. */
  enabled: boolean;
};

/**
 * Edit Client / Edit Employee: whether the person signs in with two-step verification, and the reset for
 * someone who lost their authenticator app and backup codes (decision 006, DEVIATIONS D32).
 */
export function TwoFactorReset({ target, name, enabled }: TTwoFactorResetProps) {
  const reset = useResetTwoFactor(target);
  const action = useScopedAction();
  const [confirming, setConfirming] = useState(false);
  const on = enabled && !reset.data?.reset;

  return (
    <ReadOnlyItem label="Two-step verification" wide>
      <span className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <span>
          {on
            ? "On: signing in asks for a code from their authenticator app."
            : "Off: signing in asks for the password only, or to set it up where their role requires it."}
        </span>
        {on ? (
          <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
            Reset two-step verification
          </Button>
        ) : null}
      </span>
      {action.shows && reset.isSuccess ? (
        <span className="mt-2 block">
          <FormMessage tone="success">{reset.data.message}</FormMessage>
        </span>
      ) : null}
      {action.shows && reset.isError ? (
        <span className="mt-2 block">
          <FormMessage tone="error">
            {getErrorMessage(reset.error, "Two-step verification could not be reset. Please try again.")}
          </FormMessage>
        </span>
      ) : null}
      {/* A portal: its markup goes to the end of the page, not into the list. */}
      <ConfirmDialog
        open={confirming}
        title="Reset two-step verification?"
        description={`Only when ${name} has lost their authenticator app and backup codes: they are signed out and set it up again at their next sign-in.`}
        pending={reset.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          action.start();
          reset.mutate(undefined, { onSettled: () => setConfirming(false) });
        }}
        confirmLabel="Yes, Reset"
        pendingLabel="Resetting..."
        icon={<ShieldCheckIcon className="size-5" />}
      />
    </ReadOnlyItem>
  );
}
