import { KeyRoundIcon } from "lucide-react";
import { useEffect, useEffectEvent, useState } from "react";

import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";
import { getSession } from "@/lib/get-session";
import type { TSession } from "@/lib/get-session";
import {
  cancelPasskeyCeremony,
  passkeyAutofillAvailable,
  PasskeyCeremonyAborted,
  requestPasskey,
  SIGN_IN_FAILED,
  verifyPasskey,
} from "@/lib/passkey-ceremony";

type TPasskeyResponse = Awaited<ReturnType<typeof requestPasskey>>;

export type TPasskeySignInProps = {
  /** Runs with the new session, as after a password sign-in (navigate, or check the role). */
  onSignedIn: (session: TSession | null) => void | Promise<void>;
  /** Under the button: the passkey's outcome, or the password form's "sign in with your passkey". */
  message: string | null;
  onMessageChange: (message: string | null) => void;
  /** A passkey sign-in starts: the password form's message no longer applies. */
  onStart: () => void;
};

/**
 * "Sign in with a passkey" under the password form (issue 24), and the same from the email field's suggestions
 * where the browser offers passkeys there (autofill: conditional mediation, started once the form shows). The
 * button's ceremony replaces a waiting autofill one (the WebAuthn library aborts it), and the autofill is
 * offered again once the button's is over. Either ends like a password sign-in: `onSignedIn` with the session.
 */
export function PasskeySignIn({ onSignedIn, message, onMessageChange, onStart }: TPasskeySignInProps) {
  const [phase, setPhase] = useState<"idle" | "prompt" | "finishing">("idle");
  const [autofillRound, setAutofillRound] = useState(0);

  // The server checks the passkey's answer and signs the person in; afterwards they may still be here (not an
  // admin at /admin-login), or it failed and says why.
  const finish = async (response: TPasskeyResponse) => {
    setPhase("finishing");
    try {
      await verifyPasskey(response);
      await onSignedIn(await getSession());
    } catch (error) {
      if (!(error instanceof PasskeyCeremonyAborted)) onMessageChange(getErrorMessage(error, SIGN_IN_FAILED));
    }
    setPhase("idle");
  };

  // After a pick from the suggestions they are not offered again until the button was used: a browser that
  // answers them by itself would otherwise repeat the same outcome.
  const onPicked = useEffectEvent(async (response: TPasskeyResponse) => {
    onStart();
    onMessageChange(null);
    await finish(response);
  });

  useEffect(() => {
    let active = true;
    void (async () => {
      if (!(await passkeyAutofillAvailable()) || !active) return;
      // Waits until a passkey is picked. A failure here (replaced by the button, no challenge from the server)
      // shows nothing: the button still works, and says what went wrong.
      const response = await requestPasskey({ autofill: true }).catch(() => null);
      if (response && active) await onPicked(response);
    })();
    return () => {
      active = false;
    };
  }, [autofillRound]);

  // Leaving the form (for the second step, or another screen) ends a ceremony still waiting in the email field.
  useEffect(() => cancelPasskeyCeremony, []);

  const onPasskey = async () => {
    onStart();
    onMessageChange(null);
    setPhase("prompt");
    try {
      await finish(await requestPasskey({ autofill: false }));
    } catch (error) {
      if (!(error instanceof PasskeyCeremonyAborted)) onMessageChange(getErrorMessage(error, SIGN_IN_FAILED));
      setPhase("idle");
    }
    setAutofillRound((round) => round + 1);
  };

  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3 text-xs font-medium tracking-wide text-slate-500 uppercase">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <Button
        variant="secondary"
        className="w-full"
        isLoading={phase !== "idle"}
        onClick={() => void onPasskey()}
      >
        {phase === "idle" ? <KeyRoundIcon className="size-4" /> : null}
        {phase === "finishing" ? "Signing in..." : "Sign in with a passkey"}
      </Button>
      {message ? <FormMessage tone="error">{message}</FormMessage> : null}
    </div>
  );
}
