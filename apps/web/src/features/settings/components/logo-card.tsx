import { useId, useRef, useState } from "react";

import type { TBrandingResponse } from "@portal/contracts";

import logoMark from "@/assets/logo-mark.svg";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";

import { REMOVE_LOGO_FAILED, useRemoveLogo } from "../api/remove-logo";
import { UPLOAD_LOGO_FAILED, useUploadLogo } from "../api/upload-logo";

/** The logo: what shows now (on the dark sidebar and on white), a new PNG or SVG, or back to the built-in mark. */
export function LogoCard({ current }: { current: TBrandingResponse }) {
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [notice, setNotice] = useState<string | undefined>();
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const busy = upload.isPending || remove.isPending;
  const failure = upload.isError
    ? getErrorMessage(upload.error, UPLOAD_LOGO_FAILED)
    : remove.isError
      ? getErrorMessage(remove.error, REMOVE_LOGO_FAILED)
      : undefined;
  const logo = current.logoUrl ?? logoMark;

  return (
    <section
      aria-labelledby={`${inputId}-title`}
      className="rounded-2xl border border-slate-200 bg-white px-5 py-6 shadow-sm sm:px-8"
    >
      <h2 id={`${inputId}-title`} className="text-sm font-semibold text-navy-950">
        Logo
      </h2>
      <p className="mt-0.5 text-sm text-slate-500">
        {current.logoUrl ? "Your firm's logo." : "The portal's built-in mark, until you upload your own."}
      </p>
      <div className="mt-5 flex flex-wrap gap-3">
        <div className="flex h-20 w-36 items-center justify-center rounded-xl bg-navy-950 p-3">
          <img
            src={logo}
            alt="Current logo on the dark sidebar"
            className="max-h-full max-w-full object-contain"
          />
        </div>
        <div className="flex h-20 w-36 items-center justify-center rounded-xl border border-slate-200 bg-white p-3">
          <img src={logo} alt="Current logo on white" className="max-h-full max-w-full object-contain" />
        </div>
      </div>
      <form
        className="mt-6 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (!file) return;
          setNotice(undefined);
          remove.reset();
          upload.mutate(file, {
            onSuccess: () => {
              setNotice("✅ Logo uploaded.");
              setFile(null);
              if (fileInput.current) fileInput.current.value = "";
            },
          });
        }}
      >
        <div className="space-y-1.5">
          <label htmlFor={inputId} className="block text-sm font-medium text-navy-900">
            New logo
          </label>
          <input
            ref={fileInput}
            id={inputId}
            type="file"
            accept=".png,.svg,image/png,image/svg+xml"
            aria-describedby={hintId}
            disabled={busy}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setNotice(undefined);
              upload.reset();
            }}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-semibold file:text-navy-900 hover:file:bg-slate-50"
          />
          <p id={hintId} className="text-xs text-slate-500">
            PNG or SVG, at most 512 KB. SVG files may not contain scripts or links to other files.
          </p>
        </div>
        {failure ? <FormMessage tone="error">{failure}</FormMessage> : null}
        {notice ? <FormMessage tone="success">{notice}</FormMessage> : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          {current.logoUrl ? (
            <Button
              variant="secondary"
              disabled={busy}
              isLoading={remove.isPending}
              onClick={() => {
                setNotice(undefined);
                upload.reset();
                remove.mutate(undefined, { onSuccess: () => setNotice("✅ Logo removed.") });
              }}
            >
              Use the built-in mark
            </Button>
          ) : null}
          <Button type="submit" disabled={!file || busy} isLoading={upload.isPending}>
            {upload.isPending ? "Uploading..." : "Upload logo"}
          </Button>
        </div>
      </form>
    </section>
  );
}
