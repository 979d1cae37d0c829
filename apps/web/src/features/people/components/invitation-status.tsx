import { MailIcon, XIcon } from "lucide-react";
import { useState } from "react";
import type { ReactNode } from "react";

import type { TPersonKind, TInvitationState } from "@portal/contracts";

import { useScopedAction } from "@/components/admin/action-scope";
import { ConfirmDialogOnDemand } from "@/components/admin/confirm-delete-on-demand";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { getErrorMessage } from "@/lib/errors";
import { onFirstUse } from "@/lib/on-first-use";

import { RESEND_FAILED, useResendInvitation } from "../api/resend-invitation";
import { REVOKE_FAILED, useRevokeInvitation } from "../api/revoke-invitation";

const LOOK: Record<TInvitationState["status"], { label: string; classes: string }> = {
  pending: { label: "Invited", classes: "bg-sky-50 text-sky-800 ring-sky-200" },
  expired: { label: "Invitation expired", classes: "bg-amber-50 text-amber-800 ring-amber-200" },
  revoked: { label: "Invitation revoked", classes: "bg-slate-100 text-slate-700 ring-slate-300" },
};

const day = onFirstUse(
  () => new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" }),
);

/** What the badge means, in words: until when the link works, or that it no longer does. */
export function invitationText(invitation: TInvitationState): string {
  const until = day().format(new Date(invitation.expires_at));
  if (invitation.status === "pending") return `Has not set a password yet; the link works until ${until}.`;
  if (invitation.status === "expired") return `The link expired on ${until}; resend it to invite them again.`;
  return "The link was revoked; resend it to invite them again.";
}

/**
 * The Invited state of a client or employee who has not set a password (DEVIATIONS D55): a badge under the
 * email on the lists and the edit screens.
 */
export function InvitationBadge({ invitation }: { invitation: TInvitationState }) {
  const look = LOOK[invitation.status];
  return (
    <span
      title={invitationText(invitation)}
      className={cn(
        "mt-1 inline-flex w-fit items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        look.classes,
      )}
    >
      <MailIcon aria-hidden="true" className="size-3.5" />
      {look.label}
    </span>
  );
}

/** The email cell of a list row: the address, and the Invited badge while the person has no password. */
export function EmailWithInvitation({
  email,
  invitation,
}: {
  email: ReactNode;
  invitation: TInvitationState | undefined;
}) {
  return (
    <span className="flex flex-col items-start">
      {email}
      {invitation ? <InvitationBadge invitation={invitation} /> : null}
    </span>
  );
}

type TInvitationActionsProps = {
  kind: TPersonKind;
  id: number;
  invitation: TInvitationState;
  /** The person's name, for the confirmation and screen readers. */
  name: string;
};

/**
 * Resend (a new link; the old one stops working) and Revoke (the open link stops working) for a person who
 * has not set a password. Each row reports on its own.
 */
export function InvitationActions({ kind, id, invitation, name }: TInvitationActionsProps) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const action = useScopedAction();
  const [confirming, setConfirming] = useState(false);
  const canRevoke = invitation.status !== "revoked";
  const message = !action.shows
    ? null
    : resend.isSuccess
      ? resend.data.message
      : revoke.isSuccess
        ? revoke.data.message
        : null;
  const error = !action.shows
    ? null
    : resend.isError
      ? getErrorMessage(resend.error, RESEND_FAILED)
      : revoke.isError
        ? getErrorMessage(revoke.error, REVOKE_FAILED)
        : null;

  return (
    <span className="inline-flex flex-col items-end gap-1 align-middle max-md:mr-4 max-md:items-start">
      <span className="inline-flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="xs"
          isLoading={resend.isPending}
          onClick={() => {
            action.start();
            revoke.reset();
            resend.mutate({ kind, id });
          }}
        >
          {resend.isPending ? "Sending..." : "Resend"}
          <span className="sr-only"> the invitation to {name}</span>
        </Button>
        {canRevoke ? (
          <Button variant="secondary" size="xs" onClick={() => setConfirming(true)}>
            <XIcon className="size-3.5" />
            Revoke<span className="sr-only"> the invitation of {name}</span>
          </Button>
        ) : null}
      </span>
      {message ? (
        <span role="status" className="max-w-56 text-left text-xs text-emerald-800">
          {message}
        </span>
      ) : null}
      {error ? (
        <span role="alert" className="max-w-56 text-left text-xs text-red-700">
          {error}
        </span>
      ) : null}
      <ConfirmDialogOnDemand
        open={confirming}
        title="Revoke this invitation?"
        description={`The link sent to ${name} stops working at once. You can send a new invitation later.`}
        pending={revoke.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          action.start();
          resend.reset();
          revoke.mutate({ kind, id }, { onSettled: () => setConfirming(false) });
        }}
        confirmLabel="Yes, Revoke"
        pendingLabel="Revoking..."
        icon={<XIcon className="size-5" />}
      />
    </span>
  );
}
