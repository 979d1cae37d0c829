import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";
import type { TSession } from "@/lib/get-session";
import { useAsyncAction } from "@/lib/use-async-action";

import { SecondStepError, verifySecondStep } from "../api/sign-in";
import type { TSecondStepMethod } from "../api/sign-in";
import { CODE_FORM_OPTIONS, ZBackupCodeFormSchema, ZTotpCodeFormSchema } from "../two-factor-code";
import type { TCodeForm } from "../two-factor-code";

export const SECOND_STEP_PROMPT = "Enter the 6-digit code from your authenticator app.";

type TTwoFactorStepProps = {
  /** Runs with the new session once the code is right (the same as after a password-only sign-in). */
  onSignedIn: (session: TSession | null) => void | Promise<void>;
  /** Back to the password: the person chose to, or the pending sign-in ended (with why). */
  onRestart: (message: string | null) => void;
};

/** The second step of a sign-in with two-step verification: a TOTP code, or one backup code (decision 006). */
export function TwoFactorStep({ onSignedIn, onRestart }: TTwoFactorStepProps) {
  const [method, setMethod] = useState<TSecondStepMethod>("totp");
  const [message, setMessage] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  const verify = useAsyncAction(verifySecondStep);
  const totp = method === "totp";
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<TCodeForm>({
    ...CODE_FORM_OPTIONS,
    resolver: zodResolver(totp ? ZTotpCodeFormSchema : ZBackupCodeFormSchema),
    defaultValues: { code: "" },
  });

  const onSubmit = handleSubmit(({ code }) => {
    setMessage(null);
    verify.run(
      { method, code },
      {
        onSuccess: async (session) => {
          setFinishing(true);
          try {
            await onSignedIn(session);
          } finally {
            setFinishing(false);
          }
        },
        onError: (error) => {
          const text = getErrorMessage(error, "The code could not be checked. Please try again.");
          if (error instanceof SecondStepError && error.restart) onRestart(text);
          else setMessage(text);
        },
      },
    );
  });

  const switchMethod = () => {
    setMethod(totp ? "backup-code" : "totp");
    reset();
    setMessage(null);
  };

  const busy = verify.isPending || finishing;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Two-step verification">
      <div className="space-y-1 text-center">
        <h2 className="text-lg font-semibold text-navy-950">Two-step verification</h2>
        <p className="text-sm text-slate-600">
          {totp
            ? SECOND_STEP_PROMPT
            : "Enter one of the backup codes you saved when you set up two-step verification. Each code works once."}
        </p>
      </div>
      <TextField
        key={method}
        label={totp ? "Authentication code" : "Backup code"}
        autoComplete="one-time-code"
        inputMode={totp ? "numeric" : "text"}
        autoCapitalize="off"
        spellCheck={false}
        maxLength={totp ? 9 : 32}
        placeholder={totp ? "123456" : "xxxxx-xxxxx"}
        className="text-center font-mono tracking-[0.3em]"
        error={errors.code?.message}
        // The step opens because the person just signed in, so the code field is where they are.
        autoFocus
        {...register("code")}
      />
      <Button type="submit" className="w-full" isLoading={busy}>
        {busy ? "Verifying..." : "Verify"}
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <button
          type="button"
          onClick={switchMethod}
          className="rounded font-medium text-emerald-700 underline-offset-4 hover:underline"
        >
          {totp ? "Use a backup code instead" : "Use your authenticator app instead"}
        </button>
        <button
          type="button"
          onClick={() => onRestart(null)}
          className="rounded font-medium text-slate-600 underline-offset-4 hover:underline"
        >
          Back to sign-in
        </button>
      </div>
      {message ? <FormMessage tone="error">{message}</FormMessage> : null}
    </form>
  );
}
