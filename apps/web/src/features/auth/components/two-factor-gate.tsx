import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";

import { PageTitle } from "@/components/ui/page-title";
import { ShieldIcon } from "@/components/ui/icons";
import { Spinner } from "@/components/ui/spinner";
import { refreshSession } from "@/lib/session";

import { useTwoFactorPolicy } from "../api/two-factor";
import { TwoFactorSetup } from "./two-factor-setup";

export const SETUP_TITLE = "Set up two-step verification";

/**
 * Inside a shell: someone whose role requires two-step verification and who has not set it up sees the
 * enrolment screen instead of the pages (the server refuses their other requests anyway, decision 006).
 * Once started, the screen stays until the backup codes were shown, even when the session is re-read.
 */
export function TwoFactorGate({ continueTo, children }: { continueTo: string; children: ReactNode }) {
  const policy = useTwoFactorPolicy();
  const [inSetup, setInSetup] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  if (policy.status === "pending" && !inSetup) {
    return (
      <div role="status" className="flex justify-center py-16 text-emerald-600">
        <Spinner className="size-8" />
        <span className="sr-only">Loading...</span>
      </div>
    );
  }
  if (policy.status !== "required" && !inSetup) return children;

  return (
    <section
      aria-labelledby="two-factor-setup-title"
      className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
    >
      <PageTitle title={SETUP_TITLE} />
      <header className="mb-6 flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-navy-50 text-navy-800">
          <ShieldIcon className="size-5" />
        </span>
        <div className="space-y-1">
          <h1 id="two-factor-setup-title" className="text-xl font-semibold text-navy-950">
            {SETUP_TITLE}
          </h1>
          <p className="text-sm text-slate-600">
            Your role requires a second step when you sign in. It takes about a minute.
          </p>
        </div>
      </header>
      <TwoFactorSetup
        onStarted={() => setInSetup(true)}
        doneLabel="Continue"
        onDone={async () => {
          await refreshSession(queryClient);
          setInSetup(false);
          await navigate(continueTo, { replace: true });
        }}
      />
    </section>
  );
}
