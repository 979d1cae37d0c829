import { ArrowLeftIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

import { Button, buttonClasses } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { ALL_FIELDS_REQUIRED } from "@/lib/form-errors";

/** The page of an add or edit form: a back link, the heading and the form in a card. */
export function FormPage({
  title,
  description,
  backTo,
  backLabel,
  children,
}: {
  title: string;
  description: string;
  backTo: string;
  backLabel: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="page-title" className="mx-auto max-w-3xl">
      <Link
        to={backTo}
        className="mb-4 inline-flex items-center gap-1.5 rounded text-sm font-medium text-slate-600 hover:text-navy-900"
      >
        <ArrowLeftIcon className="size-4" />
        {backLabel}
      </Link>
      <h1 id="page-title" className="text-2xl font-semibold tracking-tight text-navy-950">
        {title}
      </h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">{description}</p>
      <div className="rounded-2xl border border-slate-200 bg-white shadow-sm">{children}</div>
    </section>
  );
}

/** A titled group of fields inside the form card. */
export function FormSection({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className="border-b border-slate-100 px-5 py-6 sm:px-8">
      {/* Floated, the legend sits inside the padding like any heading instead of on the border. */}
      <legend className="float-left w-full text-sm font-semibold text-navy-950">{title}</legend>
      {description ? <p className="clear-both pt-0.5 text-sm text-slate-500">{description}</p> : null}
      <div className="clear-both grid grid-cols-1 gap-5 pt-5 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

type TSubmitFooterProps = {
  /** Where Cancel leads (the list the form belongs to). */
  cancelTo: string;
  submitLabel: string;
  /** The submit button's text while the request runs (e.g. 'Registering...'). */
  pendingLabel: string;
  pending: boolean;
  /** Saved: the button stays disabled while the screen moves on. */
  done: boolean;
  /** A required field is blank → 'All fields are required.' under the form. */
  missingFields: boolean;
  /** The failure to show (the server's message, else the screen's fallback). */
  error: string | undefined;
  success?: string | undefined;
  /** Shown after the messages (Add Client / Add Employee: the registration in Sigma). */
  children?: ReactNode;
};

/** The bottom of the form card: the outcome messages, Cancel and the submit button. */
export function SubmitFooter({
  cancelTo,
  submitLabel,
  pendingLabel,
  pending,
  done,
  missingFields,
  error,
  success,
  children,
}: TSubmitFooterProps) {
  return (
    <div className="space-y-4 px-5 py-6 sm:px-8">
      {missingFields ? <FormMessage tone="error">{ALL_FIELDS_REQUIRED}</FormMessage> : null}
      {error ? <FormMessage tone="error">{error}</FormMessage> : null}
      {success ? <FormMessage tone="success">{success}</FormMessage> : null}
      {children}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Link to={cancelTo} className={buttonClasses("secondary")}>
          Cancel
        </Link>
        <Button type="submit" isLoading={pending} disabled={done}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </div>
  );
}

/** The part of an edit form card that the screen shows but does not change. */
export function ReadOnlySection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="border-b border-slate-100 px-5 py-6 sm:px-8">
      <h2 className="text-sm font-semibold text-navy-950">{title}</h2>
      <p className="mt-0.5 text-sm text-slate-500">Read-only on this screen.</p>
      <dl className="mt-5 grid grid-cols-1 gap-5 sm:grid-cols-2">{children}</dl>
    </div>
  );
}

/** A read-only value with its label (Edit screens: email, password, privilege, workbooks). */
export function ReadOnlyItem({
  label,
  children,
  wide = false,
}: {
  label: string;
  children: ReactNode;
  /** Across both columns. The item is the `<div>` that groups its dt/dd inside the `<dl>`: nothing else may wrap it. */
  wide?: boolean;
}) {
  return (
    <div className={wide ? "min-w-0 sm:col-span-2" : "min-w-0"}>
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="mt-1 text-sm break-words text-navy-950">{children}</dd>
    </div>
  );
}

/** Spec: passwords are never shown on edit screens, only eight asterisks. */
export const MASKED_PASSWORD = "********";

export function MaskedPassword() {
  return (
    <>
      <span aria-hidden="true" className="font-mono tracking-widest">
        {MASKED_PASSWORD}
      </span>
      <span className="sr-only">Hidden</span>
    </>
  );
}
