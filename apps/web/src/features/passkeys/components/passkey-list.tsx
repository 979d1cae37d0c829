import { KeyRoundIcon, PencilIcon, TrashIcon } from "lucide-react";
import type { ReactNode } from "react";

import { Button } from "@/components/ui/button";

import type { TPasskey } from "../api/get-passkeys";
import { passkeyFacts, passkeyName } from "../utils/passkey-text";

/** The id of a passkey's Rename button, where the focus returns once its form closes. */
export const renameButtonId = (passkey: Pick<TPasskey, "id">) => `passkey-${passkey.id}-rename`;

type TPasskeyListProps = {
  /** In the order to show (`sortPasskeys`). */
  passkeys: ReadonlyArray<TPasskey>;
  onRename: (passkey: TPasskey) => void;
  onRemove: (passkey: TPasskey) => void;
  /** The passkey whose Rename form is open, shown in place of its name. */
  renaming: { id: string; form: ReactNode } | null;
  /** While a form is open, the other actions wait. */
  busy: boolean;
};

/** The person's passkeys: each one's name, when it was added and last used, where it lives; Rename and Remove. */
export function PasskeyList({ passkeys, onRename, onRemove, renaming, busy }: TPasskeyListProps) {
  return (
    <ul aria-label="Your passkeys" className="divide-y divide-slate-100 border-y border-slate-100">
      {passkeys.map((passkey) => {
        const name = passkeyName(passkey);
        const facts = passkeyFacts(passkey);
        if (renaming?.id === passkey.id) {
          return (
            <li key={passkey.id} className="py-4">
              {renaming.form}
            </li>
          );
        }
        return (
          <li
            key={passkey.id}
            className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="flex min-w-0 items-start gap-3">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-navy-800">
                <KeyRoundIcon aria-hidden="true" className="size-5" />
              </span>
              <div className="min-w-0">
                <p className="text-sm font-medium break-words text-navy-950">{name}</p>
                {facts.length > 0 ? (
                  <dl className="mt-1 text-sm text-slate-600 sm:flex sm:flex-wrap sm:gap-x-4">
                    {facts.map((fact) => (
                      <div key={fact.label}>
                        <dt className="inline">{fact.label}</dt>{" "}
                        <dd className="inline text-slate-700">
                          {fact.dateTime ? <time dateTime={fact.dateTime}>{fact.value}</time> : fact.value}
                        </dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
              </div>
            </div>
            <div className="flex shrink-0 gap-2 sm:self-center">
              <Button
                id={renameButtonId(passkey)}
                variant="secondary"
                size="sm"
                disabled={busy}
                onClick={() => onRename(passkey)}
              >
                <PencilIcon aria-hidden="true" className="size-4" />
                Rename<span className="sr-only"> passkey {name}</span>
              </Button>
              <Button variant="secondary" size="sm" disabled={busy} onClick={() => onRemove(passkey)}>
                <TrashIcon aria-hidden="true" className="size-4" />
                Remove<span className="sr-only"> passkey {name}</span>
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
