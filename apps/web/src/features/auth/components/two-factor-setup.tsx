import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery } from "@tanstack/react-query";
import { KeyRoundIcon } from "lucide-react";
import { useState } from "react";
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";
import QRCode from "react-qr-code";

import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";
import { ADD_FAILED, webAuthnAvailable, webAuthnProblem } from "@/lib/passkey-ceremony";
import { addPasskey, suggestedPasskeyName, ZPasskeyNameFormSchema } from "@/lib/passkey-registration";
import type { TPasskeyNameForm } from "@/lib/passkey-registration";

import { getConfig } from "../api/get-config";
import { confirmTwoFactor, startTwoFactor, totpKeyOf } from "../api/two-factor";
import type { TEnrolment } from "../api/two-factor";
import { ConfirmCodeForm, EmailCodeForm } from "./two-factor-confirm-code";
import { TwoFactorPasswordStep } from "./two-factor-password-step";

type TSetupProps = {
  /** Called once the secret exists (the person is now mid-way: keep this screen until `onDone`). */
  onStarted?: () => void;
  /** After the backup codes were shown and the person continues. */
  onDone: () => void | Promise<void>;
  /** Label of the last button ("Continue to the admin area", "Done"). */
  doneLabel: string;
  /** Offers to stop before anything changed (optional enrolment only). */
  onCancel?: () => void;
  /** Offers a passkey beside the authenticator app (the enrolment screen; the profile has its own card). */
  offerPasskey?: boolean;
};

/** The key in groups of four, as authenticator apps show and accept it. */
function groupKey(key: string) {
  return key.match(/.{1,4}/g)?.join(" ") ?? key;
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span
        aria-hidden="true"
        className="flex size-7 shrink-0 items-center justify-center rounded-full bg-navy-900 text-sm font-semibold text-white"
      >
        {n}
      </span>
      <div className="min-w-0 flex-1 space-y-3">
        <h3 className="text-base font-semibold text-navy-950">{title}</h3>
        {children}
      </div>
    </li>
  );
}

/** The enrolment's last button: `onDone`, busy until it has finished. */
function DoneButton({ doneLabel, onDone }: Pick<TSetupProps, "doneLabel" | "onDone">) {
  const [finishing, setFinishing] = useState(false);
  return (
    <Button
      isLoading={finishing}
      onClick={() => {
        setFinishing(true);
        void Promise.resolve(onDone()).finally(() => setFinishing(false));
      }}
    >
      {doneLabel}
    </Button>
  );
}

/** The app's enrolment is done: the backup codes, shown once, then `onDone`. */
function BackupCodes({
  backupCodes,
  doneLabel,
  onDone,
}: {
  backupCodes: string[];
  doneLabel: string;
  onDone: TSetupProps["onDone"];
}) {
  return (
    <div className="space-y-5">
      <FormMessage tone="success">Two-step verification is on.</FormMessage>
      <div className="space-y-2">
        <h3 className="text-base font-semibold text-navy-950">Save your backup codes</h3>
        <p className="text-sm text-slate-600">
          If you lose your phone, each of these codes signs you in once instead of a code from the app. Store
          them somewhere safe, such as a password manager or a printed copy kept under lock.{" "}
          <strong className="font-semibold text-navy-950">They are shown only this once.</strong>
        </p>
      </div>
      <ul
        aria-label="Backup codes"
        className="grid max-w-md grid-cols-2 gap-2 rounded-xl border border-slate-200 bg-slate-50 p-4 font-mono text-sm text-navy-950"
      >
        {backupCodes.map((backupCode) => (
          <li key={backupCode} className="tracking-wide">
            {backupCode}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() => void navigator.clipboard?.writeText(backupCodes.join("\n"))}
        >
          Copy codes
        </Button>
        <DoneButton doneLabel={doneLabel} onDone={onDone} />
      </div>
    </div>
  );
}

/**
 * The passkey path of the enrolment (issue 24): a name, the browser's prompt (create the passkey, confirm with
 * a PIN or biometric), done. No backup codes: the person adds more passkeys or an app on their profile.
 */
function PasskeyEnrolment({ onStarted, onDone, doneLabel, onBack }: TSetupProps & { onBack: () => void }) {
  const add = useMutation({ mutationFn: addPasskey });
  const [added, setAdded] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TPasskeyNameForm>({
    resolver: zodResolver(ZPasskeyNameFormSchema),
    defaultValues: { name: suggestedPasskeyName(navigator.userAgent) },
  });

  if (added !== null) {
    return (
      <div className="space-y-5">
        <FormMessage tone="success">{`Your passkey "${added}" is set up. From now on, sign in with it.`}</FormMessage>
        <DoneButton doneLabel={doneLabel} onDone={onDone} />
      </div>
    );
  }

  const onSubmit = handleSubmit(({ name }) =>
    add.mutate(name, {
      onSuccess: () => {
        // The session re-read later says "enrolled": the screen stays until the person continues.
        onStarted?.();
        setAdded(name);
      },
    }),
  );
  return (
    <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
      <p className="text-sm text-slate-600">
        Name the passkey, then follow your browser: it creates the passkey on this device (or a security key)
        and asks for your fingerprint, face, screen lock or PIN. From then on you sign in with the passkey
        alone.
      </p>
      <TextField
        label="Passkey name"
        autoComplete="off"
        hint="To tell your passkeys apart later, such as Work laptop."
        error={errors.name?.message}
        {...register("name")}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" isLoading={add.isPending}>
          {add.isPending ? "Waiting for your passkey..." : "Add passkey"}
        </Button>
        <Button variant="secondary" onClick={onBack} disabled={add.isPending}>
          Back
        </Button>
      </div>
      {add.isError ? <FormMessage tone="error">{getErrorMessage(add.error, ADD_FAILED)}</FormMessage> : null}
    </form>
  );
}

/** Beside the authenticator app on the enrolment screen: a passkey instead. */
function PasskeyChoice({ onChoose }: { onChoose: () => void }) {
  return (
    <div className="space-y-3 border-t border-slate-100 pt-6">
      <h2 className="flex items-center gap-2 text-base font-semibold text-navy-950">
        <KeyRoundIcon aria-hidden="true" className="size-4 text-navy-800" />
        Or use a passkey
      </h2>
      <p className="max-w-md text-sm text-slate-600">
        Sign in with your fingerprint, face or screen lock on this device, or with a security key, instead of
        a password and a code.
      </p>
      {webAuthnAvailable() ? (
        <Button variant="secondary" onClick={onChoose}>
          Use a passkey
        </Button>
      ) : (
        <FormMessage tone="info">{webAuthnProblem()}</FormMessage>
      )}
    </div>
  );
}

/**
 * Enrolment in two-step verification (decision 006): confirm the password, scan the QR code (or type the
 * key), confirm with a code, then see the backup codes once. Where `offerPasskey`, a passkey instead.
 */
export function TwoFactorSetup(props: TSetupProps) {
  const { onStarted, onDone, doneLabel, onCancel, offerPasskey = false } = props;
  const [enrolment, setEnrolment] = useState<TEnrolment | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [passkey, setPasskey] = useState(false);
  const [byEmail, setByEmail] = useState(false);
  // Codes by email are offered where the firm allows them (its policy, in the public settings).
  const emailCodes = useQuery({ queryKey: ["config"], queryFn: () => getConfig(), staleTime: 60_000 }).data
    ?.emailCodes;

  if (passkey) return <PasskeyEnrolment {...props} onBack={() => setPasskey(false)} />;

  if (!enrolment) {
    const passwordStep = (
      <TwoFactorPasswordStep
        intro={
          <>
            Two-step verification asks for a code from an authenticator app on your phone (such as Google
            Authenticator, Microsoft Authenticator or 1Password) each time you sign in, so your password alone
            is not enough. Confirm your password to start.
          </>
        }
        confirm={startTwoFactor}
        onConfirmed={(data) => {
          setEnrolment(data);
          onStarted?.();
        }}
        submitLabel="Continue"
        pendingLabel="Checking..."
        errorFallback="Two-step verification could not be started. Please try again."
        onCancel={onCancel}
      />
    );
    if (!offerPasskey) return passwordStep;
    return (
      <div className="space-y-6">
        <div className="space-y-3">
          <h2 className="text-base font-semibold text-navy-950">Use an authenticator app</h2>
          {passwordStep}
        </div>
        <PasskeyChoice onChoose={() => setPasskey(true)} />
      </div>
    );
  }

  if (confirmed) {
    return <BackupCodes backupCodes={enrolment.backupCodes} doneLabel={doneLabel} onDone={onDone} />;
  }

  if (byEmail) {
    return <EmailCodeForm onConfirmed={() => setConfirmed(true)} onBack={() => setByEmail(false)} />;
  }

  const key = totpKeyOf(enrolment.totpURI);
  return (
    <div className="space-y-8">
      <ol className="space-y-8">
        <Step n={1} title="Scan the QR code with your authenticator app">
          <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
            <div className="w-fit rounded-xl border border-slate-200 bg-white p-3 shadow-sm">
              <QRCode
                value={enrolment.totpURI}
                size={168}
                fgColor="#0b1b33"
                title="QR code for your authenticator app"
                role="img"
                aria-label="QR code for your authenticator app"
              />
            </div>
            <div className="min-w-0 space-y-2 text-sm text-slate-600">
              <p>In the app, choose to add an account and scan this code.</p>
              <p>Can&apos;t scan it? Choose to enter a setup key and type this one (time-based):</p>
              <p
                aria-label="Setup key"
                className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm text-navy-950 select-all"
              >
                {groupKey(key)}
              </p>
            </div>
          </div>
        </Step>
        <Step n={2} title="Enter the code the app shows">
          <ConfirmCodeForm confirmCode={confirmTwoFactor} onConfirmed={() => setConfirmed(true)} />
        </Step>
      </ol>
      {emailCodes ? (
        <div className="space-y-3 border-t border-slate-100 pt-6">
          <h2 className="text-base font-semibold text-navy-950">No authenticator app?</h2>
          <p className="max-w-md text-sm text-slate-600">
            Get a 6-digit code by email each time you sign in instead. An app or a passkey is safer: anyone
            who can read your email could use the code.
          </p>
          <Button variant="secondary" onClick={() => setByEmail(true)}>
            Use codes by email
          </Button>
        </div>
      ) : null}
    </div>
  );
}
