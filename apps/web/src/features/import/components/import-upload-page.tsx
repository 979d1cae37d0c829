import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";

import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, ZPersonKindSchema } from "@portal/contracts";
import type { TPersonKind } from "@portal/contracts";

import { PageHeader } from "@/components/admin/page-header";
import { Button, buttonClasses } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";

import { importQueryKey } from "../api/get-import";
import { UPLOAD_IMPORT_FAILED, useUploadImport } from "../api/upload-import";
import { importFields, kindPlural, listPathOf } from "../utils/import";

/** /admin/import?kind=client|employee: choose a CSV file; it is checked before anything is created. */
export function ImportUploadPage() {
  const [params] = useSearchParams();
  const kind: TPersonKind = ZPersonKindSchema.safeParse(params.get("kind")).data ?? "client";
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);
  const upload = useUploadImport();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setMissing(true);
      return;
    }
    // The server refuses it too (413); a file that large is not worth sending.
    if (file.size > IMPORT_MAX_BYTES) {
      setTooLarge(true);
      return;
    }
    upload.mutate(
      { kind, file },
      {
        onSuccess: (job) => {
          queryClient.setQueryData(importQueryKey(job.id), job);
          void navigate(`/admin/import/${job.id}`);
        },
      },
    );
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader
        title={`Import ${kindPlural(kind)} from CSV`}
        description={`Upload a CSV file (UTF-8, up to 20 MB and ${IMPORT_MAX_ROWS.toLocaleString("en")} rows). Every row is checked first; nothing is created until you start the import.`}
        action={
          <Link to={listPathOf(kind)} className={buttonClasses("secondary")}>
            Back to {kindPlural(kind)}
          </Link>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,22rem)]">
        <form
          onSubmit={submit}
          noValidate
          className="space-y-5 rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
        >
          <div className="space-y-1.5">
            <label htmlFor="import-file" className="block text-sm font-medium text-navy-900">
              CSV file
            </label>
            <input
              id="import-file"
              name="file"
              type="file"
              accept=".csv,text/csv"
              aria-describedby="import-file-hint"
              aria-invalid={missing || undefined}
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                setMissing(false);
                setTooLarge(false);
                upload.reset();
              }}
              className="block w-full rounded-lg border border-slate-300 bg-white text-sm text-slate-700 file:mr-4 file:h-11 file:border-0 file:bg-navy-50 file:px-4 file:font-semibold file:text-navy-900 hover:file:bg-navy-100"
            />
            <p id="import-file-hint" className="text-xs text-slate-500">
              The first row names the columns. Spreadsheets: “Save as… CSV UTF-8”.
            </p>
            {missing ? <p className="text-sm text-red-700">Choose a CSV file first.</p> : null}
          </div>
          {tooLarge ? (
            <FormMessage tone="error">
              The file is larger than 20 MB. Split it into smaller files.
            </FormMessage>
          ) : null}
          {upload.isError ? (
            <FormMessage tone="error">{getErrorMessage(upload.error, UPLOAD_IMPORT_FAILED)}</FormMessage>
          ) : null}
          <Button type="submit" isLoading={upload.isPending}>
            {upload.isPending ? "Checking..." : "Upload and check"}
          </Button>
        </form>
        <aside className="rounded-xl border border-slate-200 bg-slate-50 p-6 text-sm text-slate-700">
          <h2 className="text-base font-semibold text-navy-950">Columns</h2>
          <p className="mt-1">
            Common spellings are recognised (“First name”, “first_name”, “FirstName”, “E-mail”…); you can
            change the mapping on the next screen.
          </p>
          <ul className="mt-3 space-y-1">
            {importFields(kind).map((f) => (
              <li key={f.field}>
                <span className="font-medium text-navy-900">{f.label}</span>
                {f.required ? "" : " (optional)"}
                {f.field === "workbooks" ? ": workbook names, separated by ;" : null}
                {f.field === "clients" ? ": Client IDs, separated by ;" : null}
                {f.field === "privilege" ? ": Build, Analyze, Act or View" : null}
                {f.field === "password" ? ": leave it empty to invite the person by email" : null}
              </li>
            ))}
          </ul>
          <p className="mt-3">
            People already in the portal with the same email and ID are skipped, so a file can be imported
            again safely.
          </p>
        </aside>
      </div>
    </section>
  );
}
