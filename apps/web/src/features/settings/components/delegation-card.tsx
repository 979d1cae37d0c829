import { useId } from "react";

import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { getErrorMessage } from "@/lib/errors";

import { LOAD_DELEGATION_SETTING_FAILED, useDelegationSetting } from "../api/get-delegation-setting";
import { SAVE_DELEGATION_SETTING_FAILED, useUpdateDelegationSetting } from "../api/update-delegation-setting";

export const CLIENTS_MAY_INVITE = "Clients may invite people to view their workbooks";

/** The confirmation once the switch is saved, saying what now holds. */
export function delegationSavedText(clientsMayInvite: boolean): string {
  return clientsMayInvite
    ? "✅ Saved. Clients can now invite people from their profile."
    : "✅ Saved. Clients can no longer invite people. Those already invited keep their access until it is removed or ends.";
}

/**
 * Firm settings: whether clients may invite people (a family member, their accountant) to view their
 * workbooks with a sign-in of their own (issue 23). Admins can add people for a client either way.
 */
export function DelegationCard() {
  const setting = useDelegationSetting();
  const update = useUpdateDelegationSetting();
  const titleId = useId();

  return (
    <section
      aria-labelledby={titleId}
      className="rounded-2xl border border-slate-200 bg-white px-5 py-6 shadow-sm sm:px-8"
    >
      <h2 id={titleId} className="text-sm font-semibold text-navy-950">
        People with access
      </h2>
      <p className="mt-0.5 text-sm text-slate-500">
        Whom clients may share their workbooks with. You can always add someone for a client on their page.
      </p>
      <div className="mt-5 space-y-4">
        {setting.isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner className="size-4" /> Loading...
          </p>
        ) : setting.isError ? (
          <FormMessage tone="error">
            {getErrorMessage(setting.error, LOAD_DELEGATION_SETTING_FAILED)}
          </FormMessage>
        ) : (
          <Switch
            label={CLIENTS_MAY_INVITE}
            description="Each person invited gets their own sign-in and sees only the workbooks the client shares."
            checked={setting.data.clientsMayInvite}
            busy={update.isPending}
            // Not disabled while saving: the focus stays on the switch.
            onChange={(clientsMayInvite) => {
              if (!update.isPending) update.mutate({ clientsMayInvite });
            }}
          />
        )}
        {update.isSuccess ? (
          <FormMessage tone="success">{delegationSavedText(update.data.clientsMayInvite)}</FormMessage>
        ) : null}
        {update.isError ? (
          <FormMessage tone="error">
            {getErrorMessage(update.error, SAVE_DELEGATION_SETTING_FAILED)}
          </FormMessage>
        ) : null}
      </div>
    </section>
  );
}
