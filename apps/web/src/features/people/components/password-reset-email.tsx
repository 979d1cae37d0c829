import type { TPersonKind, TInvitationState } from "@portal/contracts";

import { useScopedAction } from "@/components/admin/action-scope";
import { ReadOnlyItem } from "@/components/admin/form-layout";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";

import { PASSWORD_RESET_FAILED, useSendPasswordReset } from "../api/send-password-reset";
import { InvitationActions, InvitationBadge, invitationText } from "./invitation-status";

type TPasswordResetEmailProps = {
  kind: TPersonKind;
  id: number;
  /** The person's name, for screen readers and the confirmation. */
  name: string;
  /** Present while they have not set a password (D55): Resend and Revoke instead of a reset. */
  invitation: TInvitationState | undefined;
};

/**
 * Edit Client / Edit Employee (D55): sends the person the sign-in page's password-reset email (a forgotten
 * password, a first sign-in that went wrong). Someone who has not set a password yet has their invitation here.
 */
export function PasswordResetEmail({ kind, id, name, invitation }: TPasswordResetEmailProps) {
  const send = useSendPasswordReset({ kind, id });
  const action = useScopedAction();

  if (invitation) {
    return (
      <ReadOnlyItem label="Invitation" wide>
        <span className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <InvitationBadge invitation={invitation} />
          <span>{invitationText(invitation)}</span>
          <InvitationActions kind={kind} id={id} invitation={invitation} name={name} />
        </span>
      </ReadOnlyItem>
    );
  }

  return (
    <ReadOnlyItem label="Password reset" wide>
      <span className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <span>Emails them a link to choose a new password; the link works once, for an hour.</span>
        <Button
          variant="secondary"
          size="sm"
          isLoading={send.isPending}
          onClick={() => {
            action.start();
            send.mutate();
          }}
        >
          {send.isPending ? "Sending..." : "Send password reset email"}
        </Button>
      </span>
      {action.shows && send.isSuccess ? (
        <span className="mt-2 block">
          <FormMessage tone="success">{send.data.message}</FormMessage>
        </span>
      ) : null}
      {action.shows && send.isError ? (
        <span className="mt-2 block">
          <FormMessage tone="error">{getErrorMessage(send.error, PASSWORD_RESET_FAILED)}</FormMessage>
        </span>
      ) : null}
    </ReadOnlyItem>
  );
}
