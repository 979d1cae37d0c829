import { useQueryClient } from "@tanstack/react-query";
import { ShieldCheckIcon } from "lucide-react";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { refreshSession, useSession } from "@/lib/session";

import { turnOffTwoFactor, useTwoFactorPolicy } from "../api/two-factor";
import { TwoFactorPasswordStep } from "./two-factor-password-step";
import { TwoFactorSetup } from "./two-factor-setup";

type TMode = "view" | "setup" | "turn-off";

type TTwoFactorSettingsProps = {
  /** The person has a passkey, which is a second step too: the app may then go even where the role requires one. */
  hasPasskey?: boolean;
};

/**
 * Profile: the authenticator app as the second step (a person may have passkeys without one): turn it on, or off
 * again with the password where the role does not require a second step or a passkey remains.
 */
export function TwoFactorSettings({ hasPasskey = false }: TTwoFactorSettingsProps) {
  const policy = useTwoFactorPolicy();
  const { data: session } = useSession();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<TMode>("view");
  const [notice, setNotice] = useState<string | null>(null);

  if (policy.status === "pending" || !session) return null;
  const enabled = session.user.twoFactorEnabled === true;
  // The app is the last second step of someone who must have one: it stays.
  const required = enabled && policy.requiredForRole && !hasPasskey;

  return (
    <section
      aria-labelledby="two-factor-title"
      className="mx-auto mt-6 max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-navy-50 text-navy-800">
            <ShieldCheckIcon className="size-5" />
          </span>
          <div>
            <h2 id="two-factor-title" className="text-base font-semibold text-navy-950">
              Two-step verification
            </h2>
            <p className="text-sm text-slate-600">
              {enabled
                ? required
                  ? "On (required for your role): signing in asks for a code from your authenticator app."
                  : "On: signing in asks for a code from your authenticator app."
                : "Off: add a code from an authenticator app to your password when you sign in."}
            </p>
          </div>
        </div>
        {mode === "view" && !required ? (
          enabled ? (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                setNotice(null);
                setMode("turn-off");
              }}
            >
              Turn off
            </Button>
          ) : (
            <Button
              size="sm"
              onClick={() => {
                setNotice(null);
                setMode("setup");
              }}
            >
              Turn on
            </Button>
          )
        ) : null}
      </div>

      {mode === "setup" ? (
        <div className="mt-6 border-t border-slate-100 pt-6">
          <TwoFactorSetup
            doneLabel="Done"
            onCancel={() => setMode("view")}
            onDone={async () => {
              await refreshSession(queryClient);
              setMode("view");
            }}
          />
        </div>
      ) : null}

      {mode === "turn-off" ? (
        <div className="mt-6 border-t border-slate-100 pt-6">
          <TwoFactorPasswordStep
            hint="Confirm your password to turn two-step verification off."
            confirm={async (password) => {
              await turnOffTwoFactor(password);
              await refreshSession(queryClient);
            }}
            onConfirmed={() => {
              setMode("view");
              setNotice("Two-step verification is off.");
            }}
            submitLabel="Turn off two-step verification"
            pendingLabel="Turning off..."
            errorFallback="Two-step verification could not be turned off. Please try again."
            onCancel={() => setMode("view")}
          />
        </div>
      ) : null}

      {notice ? (
        <div className="mt-4">
          <FormMessage tone="success">{notice}</FormMessage>
        </div>
      ) : null}
    </section>
  );
}
