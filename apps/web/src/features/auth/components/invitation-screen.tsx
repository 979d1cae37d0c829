import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";

import { PASSWORD_MIN_LENGTH, ZResetPasswordSchema } from "@portal/contracts";
import type { TInvitationLookupResponse, TResetPassword } from "@portal/contracts";

import { Button, buttonClasses } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { PageTitle } from "@/components/ui/page-title";
import { Spinner } from "@/components/ui/spinner";
import { AppRequestError, getErrorMessage } from "@/lib/errors";
import { replacePage } from "@/lib/replace-page";

import { accessRedirect } from "../access";
import { acceptInvitation } from "../api/accept-invitation";
import { getInvitation, INVITATION_LOOKUP_FAILED } from "../api/get-invitation";
import { signIn } from "../api/sign-in";
import { acceptRequest, CHOOSE_PASSWORD, invitationIntro, isLinkError } from "../invitation-text";
import { AcceptInvitationForm } from "./accept-invitation-form";
import { AuthLayout } from "./auth-layout";

const NO_TOKEN = "This invitation link is not complete. Open the link in your invitation email again.";

type TState =
  | { step: "checking" }
  | { step: "invalid"; message: string; used: boolean }
  | { step: "ready"; invitation: TInvitationLookupResponse }
  | { step: "signing-in"; twoStepRequired: boolean };

/** The link cannot be used: why, in the server's words, and where to go from here. */
function InvalidInvitation({ message, used }: { message: string; used: boolean }) {
  return (
    <div className="space-y-5">
      <FormMessage tone="error">{message}</FormMessage>
      <a href="/login" className={buttonClasses(used ? "primary" : "secondary") + " w-full"}>
        Go to sign-in
      </a>
    </div>
  );
}

function ChoosePasswordForm({
  token,
  invitation,
  onLinkError,
  onAccepted,
}: {
  token: string;
  invitation: TInvitationLookupResponse;
  onLinkError: (error: AppRequestError) => void;
  onAccepted: (password: string, twoStepRequired: boolean) => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TResetPassword>({
    resolver: zodResolver(ZResetPasswordSchema),
    defaultValues: { password: "", confirm: "" },
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    setFailure(null);
    try {
      const accepted = await acceptInvitation(acceptRequest(token, password));
      onAccepted(password, accepted.twoStepRequired);
    } catch (error) {
      if (error instanceof AppRequestError && error.code === "PASSWORD_POLICY") {
        // The portal's password policy, in its own words, under the field.
        setError("password", { message: error.message.replace(/^password: /, "") });
      } else if (isLinkError(error)) {
        onLinkError(error);
      } else {
        setFailure(getErrorMessage(error, "Your password could not be set. Please try again."));
      }
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      {/* A delegate's greeting names who invited them; what to do comes here. */}
      {invitation.kind === "delegate" ? <p className="text-sm text-slate-600">{CHOOSE_PASSWORD}</p> : null}
      <TextField label="Email" type="email" value={invitation.email} readOnly autoComplete="username" />
      <TextField
        label="Choose a password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters, not a common password, and not your name or email. A long passphrase is best.`}
        error={errors.password?.message}
        {...register("password")}
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        error={errors.confirm?.message}
        {...register("confirm")}
      />
      {invitation.twoStepRequired ? (
        <p className="text-sm text-slate-600">
          Next, you set up two-step verification with an authenticator app on your phone.
        </p>
      ) : null}
      <Button type="submit" className="w-full" isLoading={isSubmitting}>
        {isSubmitting ? "Saving..." : "Set password and sign in"}
      </Button>
      {failure ? <FormMessage tone="error">{failure}</FormMessage> : null}
    </form>
  );
}

/**
 * /invitation?token=… (DEVIATIONS D55): an invited client or employee chooses their password, then is signed in
 * and sent on; where their role requires it, the portal asks for two-step set-up next, as at any first sign-in.
 * A client's delegate (issue 23) reads who invited them; one who already has a password only accepts, then
 * signs in as usual. A used, expired or revoked link says so and changes nothing.
 */
export function InvitationScreen({ search }: { search: string }) {
  const [token] = useState(() => new URLSearchParams(search).get("token"));
  const [state, setState] = useState<TState>(() =>
    token ? { step: "checking" } : { step: "invalid", message: NO_TOKEN, used: false },
  );

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    getInvitation(token, controller.signal).then(
      (invitation) => setState({ step: "ready", invitation }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          step: "invalid",
          message: getErrorMessage(error, INVITATION_LOOKUP_FAILED),
          used: error instanceof AppRequestError && error.code === "INVITATION_USED",
        });
      },
    );
    return () => controller.abort();
  }, [token]);

  const onAccepted = (password: string, twoStepRequired: boolean) => {
    if (state.step !== "ready") return;
    setState({ step: "signing-in", twoStepRequired });
    // The first sign-in, as on /login: the portal then asks for two-step set-up where the role requires it.
    signIn({ email: state.invitation.email, password }).then(
      (result) =>
        replacePage(result.twoFactor ? "/login" : (accessRedirect("login", result.session) ?? "/login")),
      () => replacePage("/login"),
    );
  };

  const greeting = state.step === "ready" ? `Welcome, ${state.invitation.firstName}` : "Your invitation";
  const intro = state.step === "ready" ? invitationIntro(state.invitation) : CHOOSE_PASSWORD;
  const onLinkError = (error: AppRequestError) =>
    setState({ step: "invalid", message: error.message, used: error.code === "INVITATION_USED" });

  return (
    <AuthLayout>
      <PageTitle title="Your invitation" />
      <div className="space-y-6">
        <header className="space-y-1.5 text-center">
          <h1 className="text-2xl font-semibold tracking-tight text-navy-950">{greeting}</h1>
          <p className="text-sm text-slate-600">
            {state.step === "invalid" ? "This invitation link can no longer be used." : intro}
          </p>
        </header>
        {state.step === "checking" ? (
          <p role="status" className="flex items-center justify-center gap-3 py-6 text-sm text-slate-600">
            <Spinner className="size-5 text-emerald-600" />
            Checking your invitation...
          </p>
        ) : null}
        {state.step === "invalid" ? <InvalidInvitation message={state.message} used={state.used} /> : null}
        {state.step === "ready" && token && state.invitation.hasPassword ? (
          <AcceptInvitationForm token={token} invitation={state.invitation} onLinkError={onLinkError} />
        ) : null}
        {state.step === "ready" && token && !state.invitation.hasPassword ? (
          <ChoosePasswordForm
            token={token}
            invitation={state.invitation}
            onAccepted={onAccepted}
            onLinkError={onLinkError}
          />
        ) : null}
        {state.step === "signing-in" ? (
          <FormMessage tone="success">
            {state.twoStepRequired
              ? "Your password is set. Signing you in to set up two-step verification..."
              : "Your password is set. Signing you in..."}
          </FormMessage>
        ) : null}
      </div>
    </AuthLayout>
  );
}
