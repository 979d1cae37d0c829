import type { ReactNode } from "react";
import { Link } from "react-router";

import { buttonClasses } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";

/**
 * What an edit screen shows while it has nothing to edit yet: 'Loading...' while the record is
 * looked up (opened from the address bar), else why there is nothing, with the way back to the list.
 */
export function EditTargetState({
  title,
  loading,
  message,
  listTo,
  listLabel,
}: {
  title: string;
  loading: boolean;
  message: ReactNode;
  listTo: string;
  listLabel: string;
}) {
  return (
    <section aria-labelledby="page-title" className="mx-auto max-w-3xl space-y-6">
      <h1 id="page-title" className="text-2xl font-semibold tracking-tight text-navy-950">
        {title}
      </h1>
      {loading ? (
        <p role="status" className="flex items-center gap-3 text-sm text-slate-600">
          <Spinner className="size-5 text-emerald-600" />
          Loading...
        </p>
      ) : (
        <>
          <FormMessage tone="error">{message}</FormMessage>
          <Link to={listTo} className={buttonClasses("secondary")}>
            {listLabel}
          </Link>
        </>
      )}
    </section>
  );
}
