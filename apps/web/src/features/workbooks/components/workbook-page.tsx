import { useParams, useSearchParams } from "react-router";
import type { Params } from "react-router";
import type { ReactNode } from "react";

import { workbookLabel } from "@portal/contracts";

import type { TCrumbHandle } from "@/components/layouts/breadcrumbs";
import { getErrorMessage } from "@/lib/errors";

import { LOAD_MY_WORKBOOKS_FAILED } from "../api/get-my-workbooks";
import { useCurrentWorkbook } from "../utils/use-current-workbook";
import { CLIENT_PARAM } from "../utils/viewed-client";
import { ClientAccessEnded } from "./client-access-ended";
import { EmbedProblem, EmbedSkeleton } from "./embed-panels";
import { WorkbookEmbed } from "./workbook-embed";
import { WorkbookEmptyState } from "./workbook-empty-state";
import { WorkbookErrorBoundary } from "./workbook-error-boundary";

/** The area below the header, edge to edge (the shell's padding is for pages of text). */
function WorkbookArea({
  title,
  busy = false,
  children,
}: {
  title: string;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-busy={busy} className="relative -mx-4 -my-6 min-h-[calc(100dvh-90px)] sm:-mx-8 sm:-my-8">
      <h1 className="sr-only">{title}</h1>
      {children}
    </section>
  );
}

/**
 * `/` and `/workbooks/:workbookId` (spec section 2): the named workbook when it is one of the person's (or of
 * the client `?client=` names), else their first; the empty state when they have none.
 */
function WorkbookView({ workbookId }: { workbookId: string | undefined }) {
  const { query, state, workbook, clientId } = useCurrentWorkbook(workbookId);
  if (state === "lost") return <ClientAccessEnded />;
  if (state === "pending") {
    return (
      <WorkbookArea title="Workbook" busy>
        <EmbedSkeleton />
      </WorkbookArea>
    );
  }
  if (state === "error") {
    return (
      <WorkbookArea title="Workbooks">
        <EmbedProblem title={LOAD_MY_WORKBOOKS_FAILED} onRetry={() => void query.refetch()}>
          <p>{getErrorMessage(query.error, "Please try again.")}</p>
        </EmbedProblem>
      </WorkbookArea>
    );
  }
  if (!workbook) return <WorkbookEmptyState />;
  // Two clients have workbooks of the same name: each client's is a view of its own.
  return (
    <WorkbookEmbed
      key={`${clientId ?? "own"}/${workbook.workbook_name}`}
      workbook={workbook}
      clientId={clientId}
    />
  );
}

export function WorkbookPage() {
  const { workbookId } = useParams();
  const [searchParams] = useSearchParams();
  return (
    <WorkbookErrorBoundary resetKey={`${searchParams.get(CLIENT_PARAM) ?? ""}/${workbookId ?? ""}`}>
      <WorkbookView workbookId={workbookId} />
    </WorkbookErrorBoundary>
  );
}

/** The breadcrumb names the workbook on screen (after a fallback, the first one, not the id in the URL). */
function WorkbookCrumbLabel({
  params,
  children,
}: {
  params: Params;
  children: (label: string) => ReactNode;
}) {
  const { state, workbook } = useCurrentWorkbook(params.workbookId);
  if (workbook) return children(workbookLabel(workbook.workbook_name));
  if (state === "pending" && params.workbookId) return children(workbookLabel(params.workbookId));
  return children("Workbooks");
}

export const workbookCrumb: TCrumbHandle = { crumb: { Label: WorkbookCrumbLabel } };
