import { useEffect } from "react";
import { useNavigate } from "react-router";

import { ZWorkbookSchema } from "@portal/contracts";
import type { TWorkbook } from "@portal/contracts";

import { EditTargetState } from "@/components/admin/edit-target";
import { FormPage } from "@/components/admin/form-layout";
import { useEditTarget } from "@/lib/edit-state";
import { getErrorMessage } from "@/lib/errors";
import type { TNoticeState } from "@/lib/notice";

import { UPDATE_WORKBOOK_FAILED, useEditWorkbook } from "../api/edit-workbook";
import { useWorkbook } from "../api/find-workbook";
import { WORKBOOK_LIST, WorkbookForm } from "./workbook-form";

/** Spec section 9: after a workbook edit the screen waits this long before leaving. */
export const AFTER_WORKBOOK_EDIT_DELAY_MS = 1000;

/**
 * /admin/edit-workbook?name=<Workbook Name>. The list passes the workbook along in the navigation state;
 * opened from the address bar it is looked up by its (unique) name.
 */
export function EditWorkbookPage() {
  const { passed, key: name } = useEditTarget<TWorkbook>({
    param: "name",
    stateKey: "workbook",
    schema: ZWorkbookSchema,
    keyOf: (workbook) => workbook.workbook_name,
  });
  const lookup = useWorkbook(name, passed);
  const workbook = passed ?? lookup.data;

  if (!workbook) {
    return (
      <EditTargetState
        title="Edit Workbook"
        target={name}
        lookup={lookup}
        noneSelected="No workbook selected. Choose one from the workbook list."
        loadFailed="Failed to load the workbook."
        listTo={WORKBOOK_LIST}
        listLabel="Back to workbooks"
      />
    );
  }
  return <EditWorkbookForm key={workbook.id} workbook={workbook} />;
}

function EditWorkbookForm({ workbook }: { workbook: TWorkbook }) {
  const navigate = useNavigate();
  const editWorkbook = useEditWorkbook();
  const message = editWorkbook.data?.message;

  // Spec: after success, wait one second, then leave; to the workbook list (DEVIATION D14: the spec's
  // /workbooks does not exist).
  useEffect(() => {
    if (message === undefined) return;
    const timer = window.setTimeout(
      () => void navigate(WORKBOOK_LIST, { state: { notice: message } satisfies TNoticeState }),
      AFTER_WORKBOOK_EDIT_DELAY_MS,
    );
    return () => window.clearTimeout(timer);
  }, [message, navigate]);

  return (
    <FormPage
      title="Edit Workbook"
      description="Change the workbook's Sigma URL name or its team. Clients it is assigned to keep it."
      backTo={WORKBOOK_LIST}
      backLabel="Back to workbooks"
    >
      <WorkbookForm
        defaultValues={{ workbook_name: workbook.workbook_name, team_name: workbook.team_name }}
        onSubmit={(values) => editWorkbook.mutate({ id: workbook.id, ...values })}
        submitLabel="Update Workbook"
        pendingLabel="Updating..."
        pending={editWorkbook.isPending}
        error={editWorkbook.isError ? getErrorMessage(editWorkbook.error, UPDATE_WORKBOOK_FAILED) : undefined}
        success={message}
      />
    </FormPage>
  );
}
