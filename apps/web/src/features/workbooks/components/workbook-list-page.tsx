import { useState } from "react";
import { Link, useNavigate } from "react-router";

import type { TWorkbook } from "@portal/contracts";

import { ConfirmDeleteOnDemand } from "@/components/admin/confirm-delete-on-demand";
import { ListView } from "@/components/admin/list-view";
import type { TColumn } from "@/components/admin/list-view";
import { PageHeader } from "@/components/admin/page-header";
import { buttonClasses } from "@/components/ui/button";
import { getErrorMessage } from "@/lib/errors";
import { LOAD_WORKBOOKS_FAILED, useWorkbooks } from "@/lib/get-workbooks";
import { useListState } from "@/lib/use-list-state";

import { useDeleteWorkbook } from "../api/delete-workbook";
import { PREVIEW_FAILED, usePreviewWorkbook } from "../api/preview-workbook";

const columns: ReadonlyArray<TColumn<TWorkbook>> = [
  { header: "ID", cell: (workbook) => workbook.id },
  {
    header: "Workbook Name",
    cell: (workbook) => <span className="[overflow-wrap:anywhere]">{workbook.workbook_name}</span>,
  },
  { header: "Team Name", cell: (workbook) => workbook.team_name },
];

/** The edit screen of a workbook: the row goes along in the navigation state, the (unique) name in the address. */
export const editWorkbookLink = (workbook: TWorkbook) => ({
  to: `/admin/edit-workbook?name=${encodeURIComponent(workbook.workbook_name)}`,
  state: { workbook },
});

/**
 * Preview: mints a fresh admin embed URL of the workbook and opens it on the embed page (spec: embed-url shows
 * the URL passed in the navigation state). A failure is reported in the row.
 */
function PreviewButton({ workbook }: { workbook: TWorkbook }) {
  const navigate = useNavigate();
  const preview = usePreviewWorkbook();
  return (
    <span className="inline-flex flex-col items-end gap-1 align-middle max-md:items-start">
      <button
        type="button"
        disabled={preview.isPending}
        onClick={() =>
          preview.mutate(workbook.workbook_name, {
            onSuccess: ({ embedUrl }) => void navigate("/admin/embed-url", { state: { embedUrl } }),
          })
        }
        className="inline-flex h-9 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-navy-800 transition-colors hover:bg-navy-50 disabled:opacity-60 max-md:-ml-2.5"
      >
        {preview.isPending ? "Opening..." : "Preview"}
        <span className="sr-only"> workbook {workbook.workbook_name}</span>
      </button>
      {preview.isError ? (
        <span role="alert" className="text-xs text-red-700">
          {getErrorMessage(preview.error, PREVIEW_FAILED)}
        </span>
      ) : null}
    </span>
  );
}

/** /admin/workbook-list: the catalogue of Sigma workbooks that can be assigned to clients. */
export function WorkbookListPage() {
  const list = useListState();
  const query = useWorkbooks({ q: list.q || undefined, offset: list.offset, limit: list.limit });
  const [toDelete, setToDelete] = useState<TWorkbook | null>(null);
  const deleteWorkbook = useDeleteWorkbook();

  const confirmDelete = () => {
    if (!toDelete) return;
    deleteWorkbook.mutate(toDelete.id, {
      onSettled: () => setToDelete(null),
      // Spec section 8: delete errors appear in a browser alert.
      onError: (error) => window.alert(getErrorMessage(error, "The workbook could not be deleted.")),
    });
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title="Workbooks"
        description="The Sigma workbooks of the firm and the team each belongs to. Clients see the workbooks assigned to them."
        action={
          <Link to="/admin/add-workbook" className={buttonClasses("primary")}>
            +Add Workbook
          </Link>
        }
      />
      <ListView
        caption="Workbooks"
        searchLabel="Search workbooks"
        searchPlaceholder="Search by workbook or team name"
        list={list}
        query={query}
        columns={columns}
        rowKey={(workbook) => workbook.id}
        rowLink={editWorkbookLink}
        rowLinkLabel={(workbook) => `Edit workbook ${workbook.id}`}
        actionsHeader="Action"
        rowActions={(workbook) => <PreviewButton workbook={workbook} />}
        onDelete={setToDelete}
        deleteLabel={(workbook) => `workbook ${workbook.workbook_name}`}
        emptyText="No workbooks found."
        loadErrorFallback={LOAD_WORKBOOKS_FAILED}
      />
      <ConfirmDeleteOnDemand
        open={toDelete !== null}
        title="Are you sure you want to delete this workbook?"
        description={
          toDelete ? (
            <>
              <strong className="font-semibold break-all text-navy-900">{toDelete.workbook_name}</strong> is
              removed from the catalogue and from every client it is assigned to. The workbook itself stays in
              Sigma.
            </>
          ) : null
        }
        pending={deleteWorkbook.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
