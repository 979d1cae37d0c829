import { PlusIcon } from "lucide-react";
import { useRef, useState } from "react";

import type { THousehold, THouseholdInput } from "@portal/contracts";

import { ConfirmDeleteOnDemand } from "@/components/admin/confirm-delete-on-demand";
import { ListBody } from "@/components/admin/list-body";
import { PageHeader } from "@/components/admin/page-header";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";

import { CREATE_HOUSEHOLD_FAILED, useCreateHousehold } from "../api/create-household";
import { DELETE_HOUSEHOLD_FAILED, useDeleteHousehold } from "../api/delete-household";
import { LOAD_HOUSEHOLDS_FAILED, useHouseholds } from "../api/get-households";
import { UPDATE_HOUSEHOLD_FAILED, useUpdateHousehold } from "../api/update-household";
import { HouseholdForm } from "./household-form";
import { HouseholdTable } from "./household-table";

type TEditing = { kind: "none" } | { kind: "new" } | { kind: "edit"; household: THousehold };
type TNotice = { tone: "success" | "error"; text: string };

/**
 * /admin/households (issue 23, decision 020): clients the firm groups into households, each with its members
 * and whether its combined view is on; add, edit and delete.
 */
export function HouseholdsPage() {
  const households = useHouseholds();
  const create = useCreateHousehold();
  const update = useUpdateHousehold();
  const remove = useDeleteHousehold();
  const [editing, setEditing] = useState<TEditing>({ kind: "none" });
  const [deleting, setDeleting] = useState<THousehold | null>(null);
  const [notice, setNotice] = useState<TNotice | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  const open = (next: TEditing) => {
    setNotice(null);
    create.reset();
    update.reset();
    setEditing(next);
  };
  const close = () => {
    setEditing({ kind: "none" });
    requestAnimationFrame(() => addButton.current?.focus());
  };
  const saved = (answer: { message: string }) => {
    close();
    setNotice({ tone: "success", text: answer.message });
  };
  const save = (body: THouseholdInput) => {
    if (editing.kind === "edit") update.mutate({ id: editing.household.id, body }, { onSuccess: saved });
    else create.mutate(body, { onSuccess: saved });
  };
  const saveError =
    editing.kind === "edit"
      ? update.isError
        ? getErrorMessage(update.error, UPDATE_HOUSEHOLD_FAILED)
        : undefined
      : create.isError
        ? getErrorMessage(create.error, CREATE_HOUSEHOLD_FAILED)
        : undefined;

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="Households"
        description="Clients of one family or business, grouped together. With the combined view on, each member also sees the accounts of the others."
        action={
          <Button ref={addButton} onClick={() => open({ kind: "new" })} disabled={editing.kind !== "none"}>
            <PlusIcon aria-hidden="true" className="size-4" />
            Add household
          </Button>
        }
      />
      <div className="space-y-4">
        {notice ? <FormMessage tone={notice.tone}>{notice.text}</FormMessage> : null}
        {editing.kind === "none" ? null : (
          <HouseholdForm
            // A fresh form for each household opened.
            key={editing.kind === "edit" ? editing.household.id : "new"}
            household={editing.kind === "edit" ? editing.household : undefined}
            pending={create.isPending || update.isPending}
            error={saveError}
            onSubmit={save}
            onCancel={close}
          />
        )}
        <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          <ListBody
            query={households}
            errorFallback={LOAD_HOUSEHOLDS_FAILED}
            empty={households.data?.length === 0}
            emptyText="No households yet. Add one to group clients of the same family or business."
          >
            {households.data ? (
              <HouseholdTable
                households={households.data}
                busy={editing.kind !== "none"}
                onEdit={(household) => open({ kind: "edit", household })}
                onDelete={(household) => {
                  setNotice(null);
                  remove.reset();
                  setDeleting(household);
                }}
              />
            ) : null}
          </ListBody>
        </div>
      </div>
      <ConfirmDeleteOnDemand
        open={deleting !== null}
        title="Are you sure you want to delete this household?"
        description={
          deleting
            ? `The household “${deleting.name}” is deleted. Its clients stay, each on their own: none of them sees the others' accounts any more.`
            : ""
        }
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: (answer) => setNotice({ tone: "success", text: answer.message }),
            onError: (error) =>
              setNotice({ tone: "error", text: getErrorMessage(error, DELETE_HOUSEHOLD_FAILED) }),
            onSettled: () => setDeleting(null),
          });
        }}
      />
    </section>
  );
}
