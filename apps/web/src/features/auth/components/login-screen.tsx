import { lazy, Suspense, useId, useState } from "react";

import type { TPublicConfig } from "@portal/contracts";

import { cn } from "@/components/ui/cn";
import { FormMessage } from "@/components/ui/form-message";
import { PageTitle } from "@/components/ui/page-title";
import type { TSession } from "@/lib/get-session";
import { replacePage } from "@/lib/replace-page";
import { isAdmin } from "@/lib/roles";

import { AuthLayout } from "./auth-layout";
import { CreateAccountForm } from "./create-account-form";
import { SignInForm } from "./sign-in-form";
import type { TFormMessage } from "./sign-in-form";

// Only a firm that configured a provider shows its buttons: their icons load then, not with every sign-in page.
const SocialSignIn = lazy(() => import("./social-sign-in").then((m) => ({ default: m.SocialSignIn })));

type TMode = "sign-in" | "create-account";

const MODES = [
  ["sign-in", "Sign in"],
  ["create-account", "Create Account"],
] as const;

/** Readable text for the `?error=` code Better Auth appends when a provider sign-in fails. */
const PROVIDER_ERRORS: Record<string, string> = {
  access_denied: "Sign-in was cancelled at the provider.",
  account_not_linked:
    "This email already has a portal account. Sign in with your email and password instead.",
  unable_to_link_account:
    "This email already has a portal account. Sign in with your email and password instead.",
  signup_disabled: "There is no portal account for this sign-in. Ask your advisor for access.",
  unable_to_create_user: "There is no portal account for this sign-in. Ask your advisor for access.",
  email_not_found: "The provider did not share an email address, which the portal needs to sign you in.",
  state_mismatch: "The sign-in took too long or was interrupted. Please try again.",
  state_not_found: "The sign-in took too long or was interrupted. Please try again.",
  please_restart_the_process: "The sign-in took too long or was interrupted. Please try again.",
};

function providerErrorMessage(code: string | null): TFormMessage {
  if (!code) return null;
  return {
    tone: "error",
    text:
      PROVIDER_ERRORS[code.toLowerCase()] ?? "Sign-in with the provider did not complete. Please try again.",
  };
}

type TLoginScreenProps = {
  /** GET /api/config, loaded with the session before the screen shows; null when it could not be loaded. */
  config: TPublicConfig | null;
  /** The page's query string: `?error=` after a failed provider sign-in. */
  search: string;
};

/** /login: the combined client sign-in and Create Account screen. */
export function LoginScreen({ config, search }: TLoginScreenProps) {
  const [mode, setMode] = useState<TMode>("sign-in");
  // During the second step of a sign-in only the code form shows.
  const [secondStep, setSecondStep] = useState(false);
  const [message, setMessage] = useState<TFormMessage>(() =>
    providerErrorMessage(new URLSearchParams(search).get("error")),
  );
  const tabsId = useId();

  const signUpEnabled = config?.signUpEnabled === true;
  const activeMode: TMode = signUpEnabled ? mode : "sign-in";

  /** A full page load: the SPA takes over from here (decision 004). */
  const goHome = (session: TSession | null) => replacePage(isAdmin(session?.user) ? "/admin" : "/");

  const switchMode = (next: TMode) => {
    setMode(next);
    setMessage(null);
  };

  return (
    <AuthLayout>
      <PageTitle title={activeMode === "sign-in" ? "Sign in" : "Create Account"} />
      <div className="space-y-6">
        <header className="space-y-1.5 text-center">
          <h1 className="text-2xl font-semibold tracking-tight text-navy-950">Welcome Back</h1>
          <p className="text-sm text-slate-600">
            {activeMode === "sign-in"
              ? "Sign in to see your reports and planning documents."
              : "Create your account to work with our advisory team."}
          </p>
        </header>

        {config && config.socialProviders.length > 0 && !secondStep ? (
          <Suspense fallback={null}>
            <SocialSignIn
              providers={config.socialProviders}
              onError={(text) => setMessage({ tone: "error", text })}
            />
          </Suspense>
        ) : null}

        {signUpEnabled && !secondStep ? (
          <div
            role="tablist"
            aria-label="Sign in or create an account"
            className="grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1"
            onKeyDown={(event) => {
              if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
              const next = activeMode === "sign-in" ? "create-account" : "sign-in";
              switchMode(next);
              document.getElementById(`${tabsId}-${next}-tab`)?.focus();
            }}
          >
            {MODES.map(([value, label]) => (
              <button
                key={value}
                id={`${tabsId}-${value}-tab`}
                type="button"
                role="tab"
                aria-selected={activeMode === value}
                aria-controls={`${tabsId}-panel`}
                tabIndex={activeMode === value ? 0 : -1}
                onClick={() => switchMode(value)}
                className={cn(
                  "h-10 rounded-lg text-sm font-semibold transition-colors",
                  activeMode === value
                    ? "bg-white text-navy-950 shadow-sm ring-1 ring-navy-900/5"
                    : "text-slate-600 hover:text-navy-900",
                )}
              >
                {label}
              </button>
            ))}
          </div>
        ) : null}

        <div
          id={`${tabsId}-panel`}
          role={signUpEnabled && !secondStep ? "tabpanel" : undefined}
          aria-labelledby={signUpEnabled && !secondStep ? `${tabsId}-${activeMode}-tab` : undefined}
        >
          {activeMode === "sign-in" ? (
            <SignInForm
              onSignedIn={goHome}
              message={message}
              onMessageChange={setMessage}
              onSecondStepChange={setSecondStep}
            />
          ) : config ? (
            <CreateAccountForm config={config} message={message} onMessageChange={setMessage} />
          ) : null}
        </div>

        {config && !signUpEnabled && !secondStep ? (
          <FormMessage tone="info">
            New accounts are set up by your advisory team. If you need access, please contact your advisor.
          </FormMessage>
        ) : null}
      </div>
    </AuthLayout>
  );
}
