import { UserPlusIcon, UsersRoundIcon } from "lucide-react";
import { useRef, useState } from "react";
import type { ReactNode } from "react";

import type { TDelegate, TMyDelegatesResponse } from "@portal/contracts";

import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";
import { useFocusAfterRender } from "@/lib/use-focus-after-render";
import { useSession } from "@/lib/session";

import { CHANGE_DELEGATE_FAILED, useChangeDelegate } from "../api/change-delegate";
import { useMyDelegates } from "../api/get-my-delegates";
import { LOAD_OWN_WORKBOOKS_FAILED, useOwnWorkbooks } from "../api/get-own-workbooks";
import { INVITE_DELEGATE_FAILED, useInviteDelegate } from "../api/invite-delegate";
import { shareableWorkbooks, workbookNames } from "../utils/delegate-text";
import { MY_DELEGATES, mayHaveDelegates } from "../utils/owner";
import { changeButtonId, DelegateList } from "./delegate-list";
import { ChangeForm, InviteForm } from "./delegate-forms";
import { useRevokeFlow } from "./revoke-flow";
import type { TNotice } from "./revoke-flow";

export const INVITING_TURNED_OFF = "Your firm has turned off inviting people.";

/**
 * Profile: "People with access" (issue 23). Only a client has delegates: the card shows once the API has
 * answered with the list; for anyone else (not asked, or refused) it is not shown at all.
 */
export function DelegatesCard() {
  const { data: session } = useSession();
  const delegates = useMyDelegates(mayHaveDelegates(session?.user.role));
  // Shown once the list has answered; a later failed refresh keeps the card and what it showed.
  if (!delegates.data) return null;
  return <DelegatesCardBody data={delegates.data} />;
}

/** The card's title and what it is for, with "Invite someone" at the right when the firm allows it. */
function CardHeader({ inviteButton }: { inviteButton: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-navy-50 text-navy-800">
          <UsersRoundIcon aria-hidden="true" className="size-5" />
        </span>
        <div>
          <h2 id="delegates-title" className="text-base font-semibold text-navy-950">
            People with access
          </h2>
          <p className="text-sm text-slate-600">
            People you have invited to view your workbooks, each with their own sign-in.
          </p>
        </div>
      </div>
      {inviteButton}
    </div>
  );
}

type TMode = { kind: "view" } | { kind: "invite" } | { kind: "change"; delegate: TDelegate };

function DelegatesCardBody({ data }: { data: TMyDelegatesResponse }) {
  const own = useOwnWorkbooks();
  const invite = useInviteDelegate(MY_DELEGATES);
  const change = useChangeDelegate();
  const [mode, setMode] = useState<TMode>({ kind: "view" });
  const [notice, setNotice] = useState<TNotice | null>(null);
  const revoke = useRevokeFlow({ owner: MY_DELEGATES, whose: "your", onOutcome: setNotice });
  const inviteButton = useRef<HTMLButtonElement>(null);
  const focusAfterRender = useFocusAfterRender();

  const names = workbookNames(own.data ?? []);
  const workbooks = shareableWorkbooks(names);

  /** Closes the open form and gives the focus back to the button that opened it. */
  const close = (returnTo: string | null) => {
    setMode({ kind: "view" });
    invite.reset();
    change.reset();
    focusAfterRender(() => (returnTo ? document.getElementById(returnTo) : inviteButton.current));
  };
  const start = (next: TMode) => {
    setNotice(null);
    setMode(next);
  };

  const inviteForm = (
    <InviteForm
      description="They get an email with a link to set up their own sign-in. They can view only what you share, and you can change it or remove their access at any time."
      workbooks={workbooks}
      pending={invite.isPending}
      error={invite.isError ? getErrorMessage(invite.error, INVITE_DELEGATE_FAILED) : undefined}
      onCancel={() => close(null)}
      onSubmit={(body) =>
        invite.mutate(body, {
          onSuccess: (answer) => {
            close(null);
            setNotice({ tone: "success", text: answer.message });
          },
        })
      }
    />
  );
  // The delegate as last loaded; gone meanwhile (removed elsewhere): nothing to change.
  const changing =
    mode.kind === "change"
      ? (data.delegates.find((delegate) => delegate.id === mode.delegate.id) ?? null)
      : null;
  const changeForm = changing ? (
    <ChangeForm
      delegate={changing}
      workbooks={workbooks}
      pending={change.isPending}
      error={change.isError ? getErrorMessage(change.error, CHANGE_DELEGATE_FAILED) : undefined}
      onCancel={() => close(changeButtonId(changing))}
      onSubmit={(body) =>
        change.mutate(
          { id: changing.id, body },
          {
            onSuccess: (answer) => {
              close(changeButtonId(changing));
              setNotice({ tone: "success", text: answer.message });
            },
          },
        )
      }
    />
  ) : null;

  return (
    <section
      aria-labelledby="delegates-title"
      className="mx-auto mt-6 max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
    >
      <CardHeader
        inviteButton={
          data.canInvite && mode.kind === "view" ? (
            <Button ref={inviteButton} size="sm" onClick={() => start({ kind: "invite" })}>
              <UserPlusIcon aria-hidden="true" className="size-4" />
              Invite someone
            </Button>
          ) : null
        }
      />

      {data.canInvite ? null : (
        <div className="mt-4">
          <FormMessage tone="info">{INVITING_TURNED_OFF}</FormMessage>
        </div>
      )}
      {mode.kind === "invite" ? <div className="mt-6">{inviteForm}</div> : null}
      {own.isError ? (
        <div className="mt-4">
          <FormMessage tone="error">{getErrorMessage(own.error, LOAD_OWN_WORKBOOKS_FAILED)}</FormMessage>
        </div>
      ) : null}

      {data.delegates.length === 0 ? (
        <p className="mt-6 text-sm text-slate-600">You have not invited anyone yet.</p>
      ) : own.isPending ? (
        <p role="status" className="mt-6 flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Loading...
        </p>
      ) : (
        <div className="mt-4">
          <DelegateList
            label="People with access to your workbooks"
            delegates={data.delegates}
            names={names}
            onChange={(delegate) => start({ kind: "change", delegate })}
            onRevoke={(delegate) => {
              setNotice(null);
              revoke.ask(delegate);
            }}
            editing={changing && changeForm ? { id: changing.id, form: changeForm } : null}
            busy={mode.kind === "invite" || changing !== null}
          />
        </div>
      )}

      {notice ? (
        <div className="mt-4">
          <FormMessage tone={notice.tone}>{notice.text}</FormMessage>
        </div>
      ) : null}

      {revoke.dialog}
    </section>
  );
}
