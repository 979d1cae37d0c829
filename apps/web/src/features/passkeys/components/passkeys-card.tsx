import { KeyRoundIcon, PlusIcon, TrashIcon } from "lucide-react";
import { useRef, useState } from "react";
import type { ReactNode } from "react";

import { ConfirmDialog } from "@/components/admin/confirm-delete-dialog";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";
import { useFocusAfterRender } from "@/lib/use-focus-after-render";
import { ADD_FAILED, webAuthnAvailable, webAuthnProblem } from "@/lib/passkey-ceremony";
import { suggestedPasskeyName } from "@/lib/passkey-registration";

import { useAddPasskey } from "../api/add-passkey";
import { LOAD_PASSKEYS_FAILED, usePasskeys } from "../api/get-passkeys";
import type { TPasskey } from "../api/get-passkeys";
import { REMOVE_PASSKEY_FAILED, useRemovePasskey } from "../api/remove-passkey";
import { RENAME_PASSKEY_FAILED, useRenamePasskey } from "../api/rename-passkey";
import {
  addedMessage,
  passkeyName,
  removedMessage,
  renamedMessage,
  sortPasskeys,
} from "../utils/passkey-text";
import { PasskeyList, renameButtonId } from "./passkey-list";
import { PasskeyNameForm } from "./passkey-name-form";

type TNotice = { tone: "success" | "error"; text: string };
type TMode = { kind: "view" } | { kind: "add" } | { kind: "rename"; id: string };

/** "Remove passkey?" with what it means; once confirmed it no longer signs the person in. */
function RemoveDialog({
  passkey,
  pending,
  onConfirm,
  onCancel,
}: {
  passkey: TPasskey | null;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      open={passkey !== null}
      title="Remove this passkey?"
      description={
        passkey
          ? `"${passkeyName(passkey)}" will no longer sign you in to the portal. The device or password manager keeps it until you delete it there.`
          : ""
      }
      pending={pending}
      onConfirm={onConfirm}
      onCancel={onCancel}
      confirmLabel="Yes, Remove"
      pendingLabel="Removing..."
      icon={<TrashIcon className="size-5" />}
    />
  );
}

/** "Add a passkey": its name first (the device's, to start with), then the browser's prompt. */
function AddPasskeyForm({ onAdded, onCancel }: { onAdded: (name: string) => void; onCancel: () => void }) {
  const add = useAddPasskey();
  return (
    <PasskeyNameForm
      label="Name"
      defaultName={suggestedPasskeyName(navigator.userAgent)}
      hint="To tell your passkeys apart, such as Work laptop. Your browser then asks you to create the passkey."
      submitLabel="Add passkey"
      pendingLabel="Waiting for your passkey..."
      pending={add.isPending}
      error={add.isError ? getErrorMessage(add.error, ADD_FAILED) : undefined}
      onCancel={onCancel}
      onSubmit={(name) => add.mutate(name, { onSuccess: () => onAdded(name) })}
    />
  );
}

/** The card's title and what passkeys are for, with "Add a passkey" at the right. */
function CardHeader({ addButton }: { addButton: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-navy-50 text-navy-800">
          <KeyRoundIcon aria-hidden="true" className="size-5" />
        </span>
        <div>
          <h2 id="passkeys-title" className="text-base font-semibold text-navy-950">
            Passkeys
          </h2>
          <p className="text-sm text-slate-600">
            Sign in with your fingerprint, face or screen lock instead of your password. A passkey also counts
            as your second step.
          </p>
        </div>
      </div>
      {addButton}
    </div>
  );
}

/**
 * Profile: "Passkeys" (issue 24), for everyone: add one (its name first, then the browser's prompt), and the
 * list with each one's name, when it was added and last used, Rename in place and Remove with a confirmation.
 * A passkey signs the person in on its own and counts as their second step. `onChanged` runs once one was
 * added or removed (the page's other cards may show what that changed).
 */
export function PasskeysCard({ onChanged }: { onChanged?: () => void }) {
  const passkeys = usePasskeys();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [mode, setMode] = useState<TMode>({ kind: "view" });
  const [removing, setRemoving] = useState<TPasskey | null>(null);
  const [notice, setNotice] = useState<TNotice | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const focusAfterRender = useFocusAfterRender();
  const supported = webAuthnAvailable();

  /** Closes the open form and gives the focus back to the button that opened it. */
  const close = (returnTo: string | null) => {
    setMode({ kind: "view" });
    rename.reset();
    focusAfterRender(() => (returnTo ? document.getElementById(returnTo) : addButton.current));
  };
  const start = (next: TMode) => {
    setNotice(null);
    rename.reset();
    setMode(next);
  };

  const list = sortPasskeys(passkeys.data ?? []);
  const renaming = mode.kind === "rename" ? (list.find((passkey) => passkey.id === mode.id) ?? null) : null;
  const renameForm = renaming ? (
    <PasskeyNameForm
      label={`New name for ${passkeyName(renaming)}`}
      defaultName={renaming.name ?? ""}
      submitLabel="Save name"
      pendingLabel="Saving..."
      pending={rename.isPending}
      error={rename.isError ? getErrorMessage(rename.error, RENAME_PASSKEY_FAILED) : undefined}
      onCancel={() => close(renameButtonId(renaming))}
      onSubmit={(name) =>
        rename.mutate(
          { id: renaming.id, name },
          {
            onSuccess: () => {
              close(renameButtonId(renaming));
              setNotice({ tone: "success", text: renamedMessage(name) });
            },
          },
        )
      }
    />
  ) : null;

  return (
    <section
      aria-labelledby="passkeys-title"
      className="mx-auto mt-6 max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
    >
      <CardHeader
        addButton={
          supported && mode.kind === "view" ? (
            <Button ref={addButton} size="sm" onClick={() => start({ kind: "add" })}>
              <PlusIcon aria-hidden="true" className="size-4" />
              Add a passkey
            </Button>
          ) : null
        }
      />

      {supported ? null : (
        <div className="mt-4">
          <FormMessage tone="info">{webAuthnProblem()}</FormMessage>
        </div>
      )}

      {mode.kind === "add" ? (
        <div className="mt-6">
          <AddPasskeyForm
            onCancel={() => close(null)}
            onAdded={(name) => {
              close(null);
              setNotice({ tone: "success", text: addedMessage(name) });
              onChanged?.();
            }}
          />
        </div>
      ) : null}

      {passkeys.isPending ? (
        <p role="status" className="mt-6 flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Loading your passkeys...
        </p>
      ) : passkeys.isError ? (
        <div className="mt-6">
          <FormMessage tone="error">{getErrorMessage(passkeys.error, LOAD_PASSKEYS_FAILED)}</FormMessage>
        </div>
      ) : list.length === 0 ? (
        <p className="mt-6 text-sm text-slate-600">You have no passkeys yet.</p>
      ) : (
        <div className="mt-4">
          <PasskeyList
            passkeys={list}
            onRename={(passkey) => start({ kind: "rename", id: passkey.id })}
            onRemove={(passkey) => {
              setNotice(null);
              remove.reset();
              setRemoving(passkey);
            }}
            renaming={renaming && renameForm ? { id: renaming.id, form: renameForm } : null}
            busy={mode.kind !== "view"}
          />
        </div>
      )}

      {notice ? (
        <div className="mt-4">
          <FormMessage tone={notice.tone}>{notice.text}</FormMessage>
        </div>
      ) : null}

      <RemoveDialog
        passkey={removing}
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          const name = passkeyName(removing);
          remove.mutate(removing.id, {
            onSuccess: () => {
              setNotice({ tone: "success", text: removedMessage(name) });
              onChanged?.();
            },
            // LAST_SECOND_STEP: the server says why (the firm requires a second step, and this is the last).
            onError: (error) =>
              setNotice({ tone: "error", text: getErrorMessage(error, REMOVE_PASSKEY_FAILED) }),
            onSettled: () => setRemoving(null),
          });
        }}
      />
    </section>
  );
}
