import { Link } from "react-router";

import { buttonClasses } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";

/**
 * What an edit screen shows while it has nothing to edit yet: 'Loading...' while the record is
 * looked up (opened from the address bar), else why there is nothing, with the way back to the list.
 */
export function EditTargetState({
  title,
  target,
  lookup,
  noneSelected,
  loadFailed,
  listTo,
  listLabel,
}: {
  title: string;
  /** The key the record is looked up by; "" when the address names none. */
  target: string;
  lookup: { isPending: boolean; error: unknown };
  noneSelected: string;
  /** Shown when the lookup fails without a message of the server's. */
  loadFailed: string;
  listTo: string;
  listLabel: string;
}) {
  const loading = target !== "" && lookup.isPending;
  const message = target === "" ? noneSelected : getErrorMessage(lookup.error, loadFailed);
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
