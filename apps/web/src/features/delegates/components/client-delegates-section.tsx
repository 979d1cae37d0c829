import { UserPlusIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";

import { MAX_PAGE_SIZE } from "@portal/contracts";

import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";
import { useWorkbooks } from "@/lib/get-workbooks";

import { LOAD_CLIENT_DELEGATES_FAILED, useClientDelegates } from "../api/get-client-delegates";
import { INVITE_DELEGATE_FAILED, useInviteDelegate } from "../api/invite-delegate";
import { assignedNames, shareableWorkbooks, workbookNames } from "../utils/delegate-text";
import { DelegateList } from "./delegate-list";
import { InviteForm } from "./delegate-forms";
import { useRevokeFlow } from "./revoke-flow";
import type { TNotice } from "./revoke-flow";

type TClientDelegatesProps = {
  cId: number;
  /** "Olivia Bennett". */
  clientName: string;
  /** The client's assigned workbooks: what can be shared. */
  workbookIds: ReadonlyArray<number>;
};

/**
 * Edit Client: "People with access" (issue 23): whom the client (or the firm for them) invited to view their
 * workbooks, with Add (also while clients may not invite themselves) and Revoke.
 */
export function ClientDelegatesSection({ cId, clientName, workbookIds }: TClientDelegatesProps) {
  const owner = { kind: "client", cId } as const;
  const delegates = useClientDelegates(cId);
  const invite = useInviteDelegate(owner);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<TNotice | null>(null);
  const revoke = useRevokeFlow({ owner, whose: `${clientName}'s`, onOutcome: setNotice });
  const addButton = useRef<HTMLButtonElement>(null);

  // The catalogue names the workbooks (the same page Edit Client's workbook list reads: one request).
  const catalogue = useWorkbooks({ limit: MAX_PAGE_SIZE, sort: "id" }, { enabled: workbookIds.length > 0 });
  const { error: catalogueError } = catalogue;
  useEffect(() => {
    if (catalogueError)
      console.error("Loading the workbook names for People with access failed", catalogueError);
  }, [catalogueError]);
  const names = assignedNames(workbookIds, workbookNames(catalogue.data?.rows ?? []));

  const close = () => {
    setAdding(false);
    invite.reset();
    requestAnimationFrame(() => addButton.current?.focus());
  };

  return (
    <section
      aria-labelledby="client-delegates-title"
      className="rounded-2xl border border-slate-200 bg-white px-5 py-6 shadow-sm sm:px-8"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 id="client-delegates-title" className="text-sm font-semibold text-navy-950">
            People with access
          </h2>
          <p className="mt-0.5 text-sm text-slate-500">
            People who view {clientName}&apos;s workbooks with their own sign-in, invited by the client or by
            the firm.
          </p>
        </div>
        {adding ? null : (
          <Button
            ref={addButton}
            variant="secondary"
            size="sm"
            onClick={() => {
              setNotice(null);
              setAdding(true);
            }}
          >
            <UserPlusIcon aria-hidden="true" className="size-4" />
            Add<span className="sr-only"> a person with access to {clientName}&apos;s workbooks</span>
          </Button>
        )}
      </div>

      {adding ? (
        <div className="mt-5">
          <InviteForm
            description={`They get an email with a link to set up their own sign-in, and can view only what is shared with them here.`}
            workbooks={shareableWorkbooks(names)}
            pending={invite.isPending}
            error={invite.isError ? getErrorMessage(invite.error, INVITE_DELEGATE_FAILED) : undefined}
            onCancel={close}
            onSubmit={(body) =>
              invite.mutate(body, {
                onSuccess: (answer) => {
                  close();
                  setNotice({ tone: "success", text: answer.message });
                },
              })
            }
          />
        </div>
      ) : null}

      <div className="mt-5">
        {delegates.isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner className="size-4" /> Loading...
          </p>
        ) : delegates.isError ? (
          <FormMessage tone="error">
            {getErrorMessage(delegates.error, LOAD_CLIENT_DELEGATES_FAILED)}
          </FormMessage>
        ) : delegates.data.length === 0 ? (
          <p className="text-sm text-slate-600">Nobody else has access to {clientName}&apos;s workbooks.</p>
        ) : (
          <DelegateList
            label={`People with access to ${clientName}'s workbooks`}
            delegates={delegates.data}
            names={names}
            onChange={null}
            onRevoke={(delegate) => {
              setNotice(null);
              revoke.ask(delegate);
            }}
            busy={adding}
          />
        )}
      </div>

      {notice ? (
        <div className="mt-4">
          <FormMessage tone={notice.tone}>{notice.text}</FormMessage>
        </div>
      ) : null}

      {revoke.dialog}
    </section>
  );
}
