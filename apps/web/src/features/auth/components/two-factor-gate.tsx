import { useQueryClient } from "@tanstack/react-query";
import { KeyRoundIcon, ShieldCheckIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";

import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { refreshSession } from "@/lib/session";

import { useTwoFactorPolicy } from "../api/two-factor";
import { useSignOut } from "../api/use-sign-out";

// Only someone who must enrol sees it: its QR code and forms load on demand (decision 015).
const TwoFactorSetup = lazy(() => import("./two-factor-setup").then((m) => ({ default: m.TwoFactorSetup })));

export const SETUP_TITLE = "Set up two-step verification";
export const PASSKEY_SIGN_IN_TITLE = "Sign in with your passkey";
/** The API's words for the same refusal (PASSKEY_SIGN_IN_REQUIRED). */
export const PASSKEY_SIGN_IN_TEXT = "Your account's second step is a passkey. Sign in with your passkey.";

/**
 * What a shell shows: its pages, the enrolment screen instead of them, the way back to sign-in for someone who
 * must sign in with their passkey, or a spinner while that is unknown.
 */
export type TTwoFactorScreen = "pending" | "setup" | "passkey-sign-in" | "pages";

/**
 * For a shell: someone whose role requires two-step verification and who has not set it up gets the
 * enrolment screen instead of the pages (the server refuses their other requests anyway, decision 006);
 * someone whose only second step is a passkey and who signed in with the password alone is asked to sign in
 * with the passkey. Once started, the enrolment screen stays until it is finished (the backup codes shown,
 * or the passkey added), even when the session is re-read. The shell reads `screen` too, so its breadcrumb
 * and sidebar do not offer pages that cannot be opened.
 */
export function useTwoFactorGate() {
  const policy = useTwoFactorPolicy();
  const [inSetup, setInSetup] = useState(false);
  let screen: TTwoFactorScreen = "pages";
  if (inSetup || policy.status === "required") screen = "setup";
  else if (policy.status === "passkey_sign_in") screen = "passkey-sign-in";
  else if (policy.status === "pending") screen = "pending";
  return { screen, setInSetup };
}

export type TTwoFactorGateState = ReturnType<typeof useTwoFactorGate>;

type TTwoFactorSidebarProps = {
  gate: TTwoFactorGateState;
  collapsed: boolean;
  /** During enrolment, in the open sidebar: why it offers no pages yet. */
  note: string;
  /** The shell's navigation, once its pages can be opened. */
  children: ReactNode;
};

/** A shell's sidebar: its navigation, or nothing to navigate while the pages wait for enrolment. */
export function TwoFactorSidebar({ gate, collapsed, note, children }: TTwoFactorSidebarProps) {
  if (gate.screen === "pages") return children;
  if (gate.screen === "setup" && !collapsed) return <p className="px-2.5 text-sm text-navy-300">{note}</p>;
  return null;
}

type TTwoFactorGateProps = {
  gate: TTwoFactorGateState;
  /** Where the person lands once set up. */
  continueTo: string;
  /** Where "Sign in again" leads (the shell's sign-in page). */
  signInPath: string;
  children: ReactNode;
};

const CARD = "mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8";

/** In place of the pages: this session took the password alone, and the account's second step is a passkey. */
function PasskeySignInAgain({ signInPath }: { signInPath: string }) {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <section aria-labelledby="passkey-sign-in-title" className={CARD}>
      <header className="flex items-start gap-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-navy-50 text-navy-800">
          <KeyRoundIcon className="size-5" />
        </span>
        <div className="space-y-1">
          <h1 id="passkey-sign-in-title" className="text-xl font-semibold text-navy-950">
            {PASSKEY_SIGN_IN_TITLE}
          </h1>
          <p className="text-sm text-slate-600">{PASSKEY_SIGN_IN_TEXT}</p>
        </div>
      </header>
      <div className="mt-6 space-y-4 sm:pl-15">
        <Button
          isLoading={signOut.isPending}
          onClick={() =>
            signOut.mutate(undefined, { onSuccess: () => void navigate(signInPath, { replace: true }) })
          }
        >
          Sign in again
        </Button>
        {signOut.isError ? <FormMessage tone="error">Sign-out failed. Please try again.</FormMessage> : null}
      </div>
    </section>
  );
}

/**
 * Shows `children` (the shell's page), or in their place the enrolment screen, the passkey sign-in notice or a
 * spinner (see `gate`).
 */
export function TwoFactorGate({ gate, continueTo, signInPath, children }: TTwoFactorGateProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const pending = (
    <div role="status" className="flex justify-center py-16 text-emerald-600">
      <Spinner className="size-8" />
      <span className="sr-only">Loading...</span>
    </div>
  );
  if (gate.screen === "pending") return pending;
  if (gate.screen === "pages") return children;
  if (gate.screen === "passkey-sign-in") return <PasskeySignInAgain signInPath={signInPath} />;

  // The spinner stays until the enrolment screen can show whole.
  return (
    <Suspense fallback={pending}>
      <section aria-labelledby="two-factor-setup-title" className={CARD}>
        <header className="mb-6 flex items-start gap-4">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-navy-50 text-navy-800">
            <ShieldCheckIcon className="size-5" />
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
          offerPasskey
          onStarted={() => gate.setInSetup(true)}
          doneLabel="Continue"
          onDone={async () => {
            await refreshSession(queryClient);
            gate.setInSetup(false);
            await navigate(continueTo, { replace: true });
          }}
        />
      </section>
    </Suspense>
  );
}
