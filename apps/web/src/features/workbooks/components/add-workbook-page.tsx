import { useNavigate } from "react-router";

import { FormPage } from "@/components/admin/form-layout";
import { getErrorMessage } from "@/lib/errors";
import type { TNoticeState } from "@/lib/notice";

import { ADD_WORKBOOK_FAILED, useAddWorkbook } from "../api/add-workbook";
import { WORKBOOK_LIST, WorkbookForm } from "./workbook-form";

/** /admin/add-workbook: adds a Sigma workbook to the catalogue; then back to the workbook list. */
export function AddWorkbookPage() {
  const navigate = useNavigate();
  const addWorkbook = useAddWorkbook();

  return (
    <FormPage
      title="Add Workbook"
      description="Adds a Sigma workbook to the catalogue, so it can be assigned to clients."
      backTo={WORKBOOK_LIST}
      backLabel="Back to workbooks"
    >
      <WorkbookForm
        defaultValues={{ workbook_name: "", team_name: "" }}
        onSubmit={(values) =>
          addWorkbook.mutate(values, {
            onSuccess: ({ message }) =>
              void navigate(WORKBOOK_LIST, { state: { notice: message } satisfies TNoticeState }),
          })
        }
        submitLabel="Add Workbook"
        pendingLabel="Saving..."
        pending={addWorkbook.isPending}
        error={addWorkbook.isError ? getErrorMessage(addWorkbook.error, ADD_WORKBOOK_FAILED) : undefined}
        success={addWorkbook.isSuccess ? addWorkbook.data.message : undefined}
      />
    </FormPage>
  );
}
