import type { TInvitationLookupResponse } from "@portal/contracts";

import { Button, buttonClasses } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";
import type { AppRequestError } from "@/lib/errors";
import { useAsyncAction } from "@/lib/use-async-action";

import { acceptInvitation } from "../api/accept-invitation";
import { acceptedText, acceptRequest, isLinkError } from "../invitation-text";

/**
 * For someone who already has a password (a client, an employee, or a delegate of another client): no
 * password fields, one button that accepts with the token alone, then a link to sign in as usual.
 */
export function AcceptInvitationForm({
  token,
  invitation,
  onLinkError,
}: {
  token: string;
  invitation: TInvitationLookupResponse;
  onLinkError: (error: AppRequestError) => void;
}) {
  const accept = useAsyncAction(acceptInvitation);

  if (accept.isSuccess) {
    return (
      <div className="space-y-5">
        <FormMessage tone="success">{acceptedText(invitation.invitedBy)}</FormMessage>
        <a href="/login" className={buttonClasses("primary") + " w-full"}>
          Go to sign-in
        </a>
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <TextField label="Email" type="email" value={invitation.email} readOnly autoComplete="username" />
      <p className="text-sm text-slate-600">
        You already have a sign-in for the portal, so you do not need a new password. Accept the invitation,
        then sign in with your usual password.
      </p>
      <Button
        className="w-full"
        isLoading={accept.isPending}
        onClick={() =>
          accept.run(acceptRequest(token), {
            onError: (error) => {
              if (isLinkError(error)) onLinkError(error);
            },
          })
        }
      >
        {accept.isPending ? "Accepting..." : "Accept invitation"}
      </Button>
      {accept.isError && !isLinkError(accept.error) ? (
        <FormMessage tone="error">
          {getErrorMessage(accept.error, "The invitation could not be accepted. Please try again.")}
        </FormMessage>
      ) : null}
    </div>
  );
}
