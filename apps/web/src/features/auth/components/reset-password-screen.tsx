import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import * as z from "zod/mini";

import { PASSWORD_MIN_LENGTH, ZResetPasswordSchema, ZSignInSchema } from "@portal/contracts";
import type { TResetPassword } from "@portal/contracts";

import { Button, buttonClasses } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { PageTitle } from "@/components/ui/page-title";
import { AppRequestError, getErrorMessage } from "@/lib/errors";
import { useAsyncAction } from "@/lib/use-async-action";

import { requestPasswordReset } from "../api/request-password-reset";
import { INVALID_RESET_LINK_MESSAGE, resetPassword as setNewPassword } from "../api/reset-password";
import { AuthLayout } from "./auth-layout";
import { RESET_EMAIL_SENT } from "./sign-in-form";

const ZRequestLinkSchema = z.object({ email: ZSignInSchema.shape.email });

/** Shown for a bad, expired or used link: says so and lets the person ask for a new email at once. */
function InvalidLink() {
  const requestReset = useAsyncAction(requestPasswordReset);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ email: string }>({
    resolver: zodResolver(ZRequestLinkSchema),
    defaultValues: { email: "" },
  });
  const onSubmit = handleSubmit(({ email }) => requestReset.run(email));

  return (
    <div className="space-y-5">
      <FormMessage tone="error">
        {INVALID_RESET_LINK_MESSAGE} Reset links work once and expire after a short time.
      </FormMessage>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <p className="text-sm text-slate-600">Enter your email and we will send you a new link.</p>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register("email")}
        />
        <Button type="submit" className="w-full" isLoading={requestReset.isPending}>
          Send a new link
        </Button>
        {requestReset.isSuccess ? <FormMessage tone="success">{RESET_EMAIL_SENT}</FormMessage> : null}
        {requestReset.isError ? (
          <FormMessage tone="error">
            {getErrorMessage(requestReset.error, "The reset email could not be sent. Please try again.")}
          </FormMessage>
        ) : null}
      </form>
    </div>
  );
}

function NewPasswordForm({ token, onInvalidToken }: { token: string; onInvalidToken: () => void }) {
  const resetPassword = useAsyncAction(setNewPassword);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TResetPassword>({
    resolver: zodResolver(ZResetPasswordSchema),
    defaultValues: { password: "", confirm: "" },
  });

  const onSubmit = handleSubmit(({ password }) =>
    resetPassword.run(
      { token, newPassword: password },
      {
        onError: (error) => {
          if (error instanceof AppRequestError && error.code === "INVALID_TOKEN") onInvalidToken();
        },
      },
    ),
  );

  if (resetPassword.isSuccess) {
    return (
      <div className="space-y-5">
        <FormMessage tone="success">
          Your password has been changed. You can now sign in with your new password.
        </FormMessage>
        <a href="/login" className={buttonClasses("primary") + " w-full"}>
          Go to sign-in
        </a>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters. A long passphrase is best.`}
        error={errors.password?.message}
        {...register("password")}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirm?.message}
        {...register("confirm")}
      />
      <Button type="submit" className="w-full" isLoading={resetPassword.isPending}>
        {resetPassword.isPending ? "Saving..." : "Set new password"}
      </Button>
      {resetPassword.isError ? (
        <FormMessage tone="error">
          {getErrorMessage(resetPassword.error, INVALID_RESET_LINK_MESSAGE)}
        </FormMessage>
      ) : null}
    </form>
  );
}

/** /reset-password?token=… (from the emailed link) or ?error=INVALID_TOKEN; `search` is the query string. */
export function ResetPasswordScreen({ search }: { search: string }) {
  const [searchParams] = useState(() => new URLSearchParams(search));
  const token = searchParams.get("token");
  const [invalid, setInvalid] = useState(() => Boolean(searchParams.get("error")) || !token);

  return (
    <AuthLayout>
      <PageTitle title="Reset your password" />
      <div className="space-y-6">
        <header className="space-y-1.5 text-center">
          <h1 className="text-2xl font-semibold tracking-tight text-navy-950">Reset your password</h1>
          <p className="text-sm text-slate-600">
            {invalid ? "This link can no longer be used." : "Choose a new password for your portal account."}
          </p>
        </header>
        {invalid || !token ? (
          <InvalidLink />
        ) : (
          <NewPasswordForm token={token} onInvalidToken={() => setInvalid(true)} />
        )}
        <p className="text-center text-sm">
          <a href="/login" className="font-medium text-emerald-700 underline-offset-4 hover:underline">
            Back to sign-in
          </a>
        </p>
      </div>
    </AuthLayout>
  );
}
