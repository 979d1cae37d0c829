import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";

import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";

import { confirmTwoFactorByEmail, sendEnrolmentEmailCode } from "../api/two-factor";
import { CODE_FORM_OPTIONS, ZTotpCodeFormSchema } from "../two-factor-code";
import type { TCodeForm } from "../two-factor-code";

/**
 * A code that confirms enrolment (the authenticator app's first code, or an emailed one): the code, Verify, and
 * `actions` beside it; `confirmCode` turns two-step verification on.
 */
export function ConfirmCodeForm({
  confirmCode,
  onConfirmed,
  label = "6-digit code",
  actions,
}: {
  confirmCode: (code: string) => Promise<void>;
  onConfirmed: () => void;
  label?: string;
  actions?: ReactNode;
}) {
  const confirm = useMutation({ mutationFn: confirmCode });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TCodeForm>({
    ...CODE_FORM_OPTIONS,
    resolver: zodResolver(ZTotpCodeFormSchema),
    defaultValues: { code: "" },
  });

  const onSubmit = handleSubmit(({ code }) => confirm.mutate(code, { onSuccess: onConfirmed }));
  return (
    <form onSubmit={onSubmit} noValidate className="max-w-xs space-y-4">
      <TextField
        label={label}
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={9}
        placeholder="123456"
        className="font-mono tracking-[0.3em]"
        error={errors.code?.message}
        {...register("code")}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" isLoading={confirm.isPending}>
          {confirm.isPending ? "Verifying..." : "Verify"}
        </Button>
        {actions}
      </div>
      {confirm.isError ? (
        <FormMessage tone="error">
          {getErrorMessage(confirm.error, "The code could not be checked. Please try again.")}
        </FormMessage>
      ) : null}
    </form>
  );
}

/**
 * For someone without an authenticator app, where the firm allows it (issue 24): a code by email confirms the
 * enrolment instead of the app's first code. It is sent when the form opens; "Send a new code" sends another.
 */
export function EmailCodeForm({ onConfirmed, onBack }: { onConfirmed: () => void; onBack: () => void }) {
  const send = useMutation({ mutationFn: sendEnrolmentEmailCode });
  const { mutate: sendCode } = send;
  useEffect(() => sendCode(), [sendCode]);
  return (
    <div className="max-w-sm space-y-4">
      <p className="text-sm text-slate-600">
        {send.isSuccess
          ? "We emailed you a 6-digit code. It works once, within ten minutes. From now on, signing in asks for a code like it after your password."
          : "Sending a 6-digit code to your email..."}
      </p>
      <ConfirmCodeForm
        label="Emailed code"
        confirmCode={confirmTwoFactorByEmail}
        onConfirmed={onConfirmed}
        actions={
          <>
            <Button variant="secondary" onClick={() => sendCode()} disabled={send.isPending}>
              Send a new code
            </Button>
            <Button variant="secondary" onClick={onBack}>
              Back
            </Button>
          </>
        }
      />
      {send.isError ? (
        <FormMessage tone="error">
          {getErrorMessage(send.error, "The code could not be sent. Please try again.")}
        </FormMessage>
      ) : null}
    </div>
  );
}
