import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";
import type { TSession } from "@/lib/get-session";
import { useAsyncAction } from "@/lib/use-async-action";

import { getConfig } from "../api/get-config";
import { SecondStepError, sendEmailCode, verifySecondStep } from "../api/sign-in";
import type { TSecondStepMethod } from "../api/sign-in";
import { CODE_FORM_OPTIONS, ZBackupCodeFormSchema, ZTotpCodeFormSchema } from "../two-factor-code";
import type { TCodeForm } from "../two-factor-code";

export const SECOND_STEP_PROMPT = "Enter the 6-digit code from your authenticator app.";
export const EMAIL_CODE_SENT = "We emailed you a 6-digit code. It works once, within ten minutes.";

const LINK =
  "rounded font-medium text-emerald-700 underline-offset-4 hover:underline disabled:text-slate-400";

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
  const [notice, setNotice] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  // Whether the firm offers codes by email (its policy, read when the step opens; without an answer, not offered).
  const [emailCodes, setEmailCodes] = useState(false);
  useEffect(() => {
    let open = true;
    getConfig()
      .then((config) => open && setEmailCodes(config.emailCodes))
      .catch(() => undefined);
    return () => {
      open = false;
    };
  }, []);
  const verify = useAsyncAction(verifySecondStep);
  const send = useAsyncAction(sendEmailCode);
  const totp = method === "totp";
  const sixDigits = method !== "backup-code";
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<TCodeForm>({
    ...CODE_FORM_OPTIONS,
    resolver: zodResolver(sixDigits ? ZTotpCodeFormSchema : ZBackupCodeFormSchema),
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

  const switchTo = (next: TSecondStepMethod) => {
    setMethod(next);
    reset();
    setMessage(null);
    setNotice(null);
  };

  const emailMeACode = () => {
    switchTo("email-code");
    send.run(undefined, {
      onSuccess: () => setNotice(EMAIL_CODE_SENT),
      onError: (error) => setMessage(getErrorMessage(error, "The code could not be sent. Please try again.")),
    });
  };

  const busy = verify.isPending || finishing;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Two-step verification">
      <div className="space-y-1 text-center">
        <h2 className="text-lg font-semibold text-navy-950">Two-step verification</h2>
        <p className="text-sm text-slate-600">
          {totp
            ? SECOND_STEP_PROMPT
            : method === "email-code"
              ? "Enter the 6-digit code we emailed you."
              : "Enter one of the backup codes you saved when you set up two-step verification. Each code works once."}
        </p>
      </div>
      <TextField
        key={method}
        label={totp ? "Authentication code" : method === "email-code" ? "Emailed code" : "Backup code"}
        autoComplete="one-time-code"
        inputMode={sixDigits ? "numeric" : "text"}
        autoCapitalize="off"
        spellCheck={false}
        maxLength={sixDigits ? 9 : 32}
        placeholder={sixDigits ? "123456" : "xxxxx-xxxxx"}
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
        <div className="flex flex-col items-start gap-1">
          {method !== "totp" ? (
            <button type="button" onClick={() => switchTo("totp")} className={LINK}>
              Use your authenticator app instead
            </button>
          ) : null}
          {method !== "backup-code" ? (
            <button type="button" onClick={() => switchTo("backup-code")} className={LINK}>
              Use a backup code instead
            </button>
          ) : null}
          {emailCodes ? (
            <button type="button" onClick={emailMeACode} disabled={send.isPending} className={LINK}>
              {send.isPending
                ? "Sending a code..."
                : method === "email-code"
                  ? "Send a new code"
                  : "Email me a code instead"}
            </button>
          ) : null}
        </div>
        <button
          type="button"
          onClick={() => onRestart(null)}
          className="rounded font-medium text-slate-600 underline-offset-4 hover:underline"
        >
          Back to sign-in
        </button>
      </div>
      {notice && !message ? <FormMessage tone="success">{notice}</FormMessage> : null}
      {message ? <FormMessage tone="error">{message}</FormMessage> : null}
    </form>
  );
}
