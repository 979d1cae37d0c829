import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { ShieldIcon } from "@/components/ui/icons";
import { getErrorMessage } from "@/lib/errors";
import { refreshSession } from "@/lib/session";

import { turnOffTwoFactor, useTwoFactorPolicy } from "../api/two-factor";
import { TwoFactorSetup } from "./two-factor-setup";

type TMode = "view" | "setup" | "turn-off";

/** Profile: turn two-step verification on (optional for this role) or off again with the password. */
export function TwoFactorSettings() {
  const policy = useTwoFactorPolicy();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<TMode>("view");
  const [password, setPassword] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | null>(null);
  const turnOff = useMutation({
    mutationFn: turnOffTwoFactor,
    onSuccess: () => refreshSession(queryClient),
  });

  if (policy.status === "pending") return null;
  const enabled = policy.status === "enrolled";

  const onTurnOff = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setFieldError("Enter your password.");
      return;
    }
    setFieldError(undefined);
    turnOff.mutate(password, {
      onSuccess: () => {
        setPassword("");
        setMode("view");
        setNotice("Two-step verification is off.");
      },
    });
  };

  return (
    <section
      aria-labelledby="two-factor-title"
      className="mx-auto mt-6 max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-navy-50 text-navy-800">
            <ShieldIcon className="size-5" />
          </span>
          <div>
            <h2 id="two-factor-title" className="text-base font-semibold text-navy-950">
              Two-step verification
            </h2>
            <p className="text-sm text-slate-600">
              {enabled
                ? policy.requiredForRole
                  ? "On (required for your role): signing in asks for a code from your authenticator app."
                  : "On: signing in asks for a code from your authenticator app."
                : "Off: add a code from an authenticator app to your password when you sign in."}
            </p>
          </div>
        </div>
        {mode === "view" && !(enabled && policy.requiredForRole) ? (
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
        <form
          onSubmit={onTurnOff}
          noValidate
          className="mt-6 max-w-md space-y-4 border-t border-slate-100 pt-6"
        >
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            hint="Confirm your password to turn two-step verification off."
            error={fieldError}
          />
          <div className="flex gap-2">
            <Button type="submit" isLoading={turnOff.isPending}>
              {turnOff.isPending ? "Turning off..." : "Turn off two-step verification"}
            </Button>
            <Button variant="secondary" onClick={() => setMode("view")} disabled={turnOff.isPending}>
              Cancel
            </Button>
          </div>
          {turnOff.isError ? (
            <FormMessage tone="error">
              {getErrorMessage(
                turnOff.error,
                "Two-step verification could not be turned off. Please try again.",
              )}
            </FormMessage>
          ) : null}
        </form>
      ) : null}

      {notice ? (
        <div className="mt-4">
          <FormMessage tone="success">{notice}</FormMessage>
        </div>
      ) : null}
    </section>
  );
}
