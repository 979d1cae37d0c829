import { ShieldAlertIcon } from "lucide-react";
import { useState } from "react";
import { useLocation } from "react-router";

import { Logo } from "@/components/brand/logo";
import { Button, buttonClasses } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { PageTitle } from "@/components/ui/page-title";
import { useFirm } from "@/lib/branding";
import { getErrorMessage } from "@/lib/errors";

import { END_EVERY_SESSION_FAILED, useEndEverySession } from "../api/end-every-session";
import { isDeadLink, NOT_ME_TEXT, notMeTokenOf } from "../utils/not-me-link";

/** The sign-in page (its own page, decision 004, so a full load); Reset Password is there. */
function ToSignIn() {
  return (
    <a href="/login" className={`${buttonClasses("primary")} w-full`}>
      Go to sign-in
    </a>
  );
}

/**
 * /not-me?token=… (issue 24): "This wasn't me" from a new-device email. Opening the link changes nothing (mail
 * programs open links to check them); the button ends every session of the account and has a password reset
 * emailed. A link that is cut short, used or expired says so and offers the sign-in page instead.
 */
export function NotMePage() {
  const { search } = useLocation();
  const [link] = useState(() => notMeTokenOf(search));
  const endEverySession = useEndEverySession();
  const { firmName } = useFirm();
  const { error, isError, isPending, isSuccess } = endEverySession;
  const problem =
    "problem" in link
      ? link.problem
      : isError && isDeadLink(error)
        ? getErrorMessage(error, END_EVERY_SESSION_FAILED)
        : null;

  return (
    <div className="min-h-dvh bg-slate-50">
      <PageTitle title={NOT_ME_TEXT.heading} />
      <header className="bg-login">
        <div className="mx-auto flex max-w-3xl px-5 py-6 sm:px-8">
          <a href="/login" className="rounded-lg" aria-label={`${firmName}: sign-in`}>
            <Logo tone="light" />
          </a>
        </div>
      </header>
      <main className="mx-auto max-w-lg px-5 py-10 sm:px-8 sm:py-14">
        <div className="space-y-6 rounded-2xl border border-slate-200 bg-white px-6 py-8 shadow-sm sm:px-8">
          <header className="space-y-3 text-center">
            <ShieldAlertIcon aria-hidden className="mx-auto size-10 text-amber-600" />
            <h1 className="text-2xl font-semibold tracking-tight text-navy-950">{NOT_ME_TEXT.heading}</h1>
            {problem || isSuccess ? null : <p className="text-sm text-slate-600">{NOT_ME_TEXT.intro}</p>}
          </header>
          {problem ? (
            <>
              <FormMessage tone="error">{problem}</FormMessage>
              <ToSignIn />
            </>
          ) : isSuccess ? (
            <>
              <FormMessage tone="success">{NOT_ME_TEXT.done}</FormMessage>
              <ToSignIn />
            </>
          ) : (
            <>
              <p className="text-slate-700">{NOT_ME_TEXT.what}</p>
              <Button
                className="w-full"
                isLoading={isPending}
                onClick={() => "token" in link && endEverySession.mutate({ token: link.token })}
              >
                {isPending ? NOT_ME_TEXT.pending : NOT_ME_TEXT.button}
              </Button>
              {isError ? (
                <FormMessage tone="error">{getErrorMessage(error, END_EVERY_SESSION_FAILED)}</FormMessage>
              ) : null}
              <p className="text-sm text-slate-600">{NOT_ME_TEXT.ifYou}</p>
            </>
          )}
        </div>
      </main>
    </div>
  );
}
