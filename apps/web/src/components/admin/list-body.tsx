import type { ReactNode } from "react";

import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";

type TListBodyProps = {
  /** The list's query: while it loads, and when it failed, the list says so instead of its rows. */
  query: { isPending: boolean; isError: boolean; error: unknown };
  /** Shown when the server gives no readable message. */
  errorFallback: string;
  /** The page loaded and has no rows. */
  empty: boolean;
  emptyText: ReactNode;
  /** The rows (a table). */
  children: ReactNode;
};

/** The body of a back-office list: loading, the load error, its empty text, or its rows. */
export function ListBody({ query, errorFallback, empty, emptyText, children }: TListBodyProps) {
  if (query.isPending) {
    return (
      <p role="status" className="flex items-center justify-center gap-3 px-6 py-16 text-sm text-slate-600">
        <Spinner className="size-5 text-emerald-600" />
        Loading...
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className="p-6">
        <FormMessage tone="error">{getErrorMessage(query.error, errorFallback)}</FormMessage>
      </div>
    );
  }
  if (empty) return <p className="px-6 py-16 text-center text-sm text-slate-600">{emptyText}</p>;
  return children;
}
