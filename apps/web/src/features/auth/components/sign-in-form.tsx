import { zodResolver } from "@hookform/resolvers/zod";
import { lazy, Suspense, useState } from "react";
import type { ComponentType } from "react";
import { useForm } from "react-hook-form";

import { ZSignInSchema } from "@portal/contracts";
import type { TSignIn } from "@portal/contracts";

import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { AppRequestError, getErrorMessage } from "@/lib/errors";
import type { TSession } from "@/lib/get-session";
import { useAsyncAction } from "@/lib/use-async-action";

import { requestPasswordReset } from "../api/request-password-reset";
import { signIn as signInWithSession } from "../api/sign-in";
import type { TPasskeySignInProps } from "./passkey-sign-in";
import { TwoFactorStep } from "./two-factor-step";

export const RESET_EMAIL_REQUIRED = "Please enter your email to reset password.";
export const RESET_EMAIL_SENT = "Password reset email sent. Check your inbox.";

export type TFormMessage = { tone: "error" | "success"; text: string } | null;

type TSignInFormProps = {
  /** Runs with the new session after a successful sign-in (navigate, or check the role). */
  onSignedIn: (session: TSession | null) => void | Promise<void>;
  /** The message under the form; the parent owns it so it can also show its own outcomes there. */
  message: TFormMessage;
  onMessageChange: (message: TFormMessage) => void;
  /** Shows the Reset Password link (client sign-in). */
  allowPasswordReset?: boolean;
  /** Told when the second step (two-step verification) opens or closes, so the screen can hide the rest. */
  onSecondStepChange?: (active: boolean) => void;
};

// "Sign in with a passkey" and its WebAuthn library load once the form shows: nothing of them is on the sign-in
// page's first load (decision 004). Its place is kept meanwhile, so the form does not move; if it cannot be
// loaded (the network dropped), the password form stays on its own.
const PasskeySignIn = lazy((): Promise<{ default: ComponentType<TPasskeySignInProps> }> =>
  import("./passkey-sign-in")
    .then((m) => ({ default: m.PasskeySignIn }))
    .catch(() => ({ default: () => null })),
);

/**
 * Email + password sign-in with an optional Reset Password link that uses the email typed above it, and a
 * passkey sign-in under it.
 */
export function SignInForm({
  onSignedIn,
  message,
  onMessageChange: setMessage,
  allowPasswordReset = true,
  onSecondStepChange,
}: TSignInFormProps) {
  const [finishing, setFinishing] = useState(false);
  const [passkeyMessage, setPasskeyMessage] = useState<string | null>(null);
  const [secondStep, setSecondStepState] = useState(false);
  const setSecondStep = (active: boolean) => {
    setSecondStepState(active);
    onSecondStepChange?.(active);
  };
  const signIn = useAsyncAction(signInWithSession);
  const requestReset = useAsyncAction(requestPasswordReset);
  const {
    register,
    handleSubmit,
    getValues,
    trigger,
    formState: { errors },
  } = useForm<TSignIn>({
    resolver: zodResolver(ZSignInSchema),
    defaultValues: { email: "", password: "" },
  });

  const onSubmit = handleSubmit((values) => {
    setMessage(null);
    setPasskeyMessage(null);
    signIn.run(values, {
      onSuccess: async (result) => {
        if (result.twoFactor) {
          setSecondStep(true);
          return;
        }
        setFinishing(true);
        try {
          await onSignedIn(result.session);
        } finally {
          setFinishing(false);
        }
      },
      onError: (error) => {
        // The password alone does not sign this account in: its second step is a passkey (the server's words).
        if (error instanceof AppRequestError && error.code === "PASSKEY_SIGN_IN_REQUIRED") {
          setPasskeyMessage(error.message);
          return;
        }
        setMessage({ tone: "error", text: getErrorMessage(error, "Sign-in failed. Please try again.") });
      },
    });
  });

  const onResetPassword = async () => {
    const email = getValues("email").trim();
    if (!email) {
      setMessage({ tone: "error", text: RESET_EMAIL_REQUIRED });
      return;
    }
    if (!(await trigger("email"))) {
      setMessage(null);
      return;
    }
    setMessage(null);
    requestReset.run(email, {
      onSuccess: () => setMessage({ tone: "success", text: RESET_EMAIL_SENT }),
      onError: (error) =>
        setMessage({
          tone: "error",
          text: getErrorMessage(error, "The reset email could not be sent. Please try again."),
        }),
    });
  };

  if (secondStep) {
    return (
      <TwoFactorStep
        onSignedIn={async (session) => {
          await onSignedIn(session);
          // Still here (e.g. not an admin at /admin-login): show the outcome under the password form.
          setSecondStep(false);
        }}
        onRestart={(text) => {
          setSecondStep(false);
          setMessage(text ? { tone: "error", text } : null);
        }}
      />
    );
  }

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <TextField
          label="Email"
          type="email"
          // "webauthn": the browser may offer the person's passkeys among the field's suggestions.
          autoComplete="email webauthn"
          inputMode="email"
          error={errors.email?.message}
          {...register("email")}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register("password")}
        />
        {allowPasswordReset ? (
          <div className="flex justify-end">
            <button
              type="button"
              onClick={() => void onResetPassword()}
              disabled={requestReset.isPending}
              className="rounded text-sm font-medium text-emerald-700 underline-offset-4 hover:underline disabled:text-slate-400"
            >
              {requestReset.isPending ? "Sending reset email..." : "Reset Password"}
            </button>
          </div>
        ) : null}
        <Button type="submit" className="w-full" isLoading={signIn.isPending || finishing}>
          {signIn.isPending || finishing ? "Signing in..." : "Sign in"}
        </Button>
        {message ? <FormMessage tone={message.tone}>{message.text}</FormMessage> : null}
      </form>
      <Suspense fallback={<div className="h-19" />}>
        <PasskeySignIn
          onSignedIn={onSignedIn}
          message={passkeyMessage}
          onMessageChange={setPasskeyMessage}
          onStart={() => setMessage(null)}
        />
      </Suspense>
    </div>
  );
}
