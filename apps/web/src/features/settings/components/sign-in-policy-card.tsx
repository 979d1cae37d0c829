import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { Controller, useForm } from "react-hook-form";

import { POLICY_MFA_ROLES, ZSignInPolicySchema } from "@portal/contracts";
import type { TSignInPolicy } from "@portal/contracts";

import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { getErrorMessage } from "@/lib/errors";

import { LOAD_SIGN_IN_POLICY_FAILED, useSignInPolicy } from "../api/get-sign-in-policy";
import { SAVE_SIGN_IN_POLICY_FAILED, useUpdateSignInPolicy } from "../api/update-sign-in-policy";

type TPolicyRole = TSignInPolicy["mfaRequiredRoles"][number];

export const REQUIRE_TWO_STEP_FOR = "Require two-step verification for:";
export const EMAIL_CODES = "Allow a six-digit code by email as the second step";
export const EMAIL_CODES_HELP =
  "For people without an authenticator app. Passkeys and authenticator apps are stronger.";

/** The checkboxes' labels; admins are listed above them, always required. */
export const POLICY_ROLE_LABELS: Record<TPolicyRole, string> = {
  employee: "Employees",
  client: "Clients (and the people they invite)",
};

/** How the confirmation names the roles. */
const SAVED_NAMES: Record<TPolicyRole, string> = { employee: "employees", client: "clients" };

const checkboxClasses = "mt-0.5 size-4 shrink-0 accent-emerald-700";

/** The roles with one checked or unchecked: each once, in the order the card lists them. */
export function withRole(roles: readonly TPolicyRole[], role: TPolicyRole, checked: boolean): TPolicyRole[] {
  return POLICY_MFA_ROLES.filter((each) => (each === role ? checked : roles.includes(each)));
}

/** The confirmation once saved, saying what now holds. */
export function signInPolicySavedText({ mfaRequiredRoles, emailCodes }: TSignInPolicy): string {
  const who = [
    "admins",
    ...POLICY_MFA_ROLES.filter((role) => mfaRequiredRoles.includes(role)).map((role) => SAVED_NAMES[role]),
  ];
  const required = who.length > 1 ? `${who.slice(0, -1).join(", ")} and ${who.at(-1)}` : who[0];
  const codes = emailCodes ? "A code by email may be the second step." : "Codes by email are not offered.";
  return `✅ Saved. Two-step verification is required for ${required}. ${codes}`;
}

/** The form, once the current policy has loaded. */
export function SignInPolicyForm({ current }: { current: TSignInPolicy }) {
  const update = useUpdateSignInPolicy();
  const hintId = useId();
  const {
    control,
    handleSubmit,
    reset,
    formState: { isDirty },
  } = useForm<TSignInPolicy>({ resolver: zodResolver(ZSignInPolicySchema), defaultValues: current });

  return (
    <form
      noValidate
      onSubmit={handleSubmit((values) => update.mutate(values, { onSuccess: (saved) => reset(saved) }))}
      className="mt-5 space-y-5"
    >
      <fieldset aria-describedby={hintId} disabled={update.isPending} className="min-w-0">
        <legend className="text-sm font-medium text-navy-900">{REQUIRE_TWO_STEP_FOR}</legend>
        <p id={hintId} className="mt-0.5 text-sm text-slate-500">
          People in a checked group who have not set it up yet are asked to before they can continue.
        </p>
        <ul className="mt-3 space-y-2.5">
          <li>
            <label className="flex items-start gap-2.5 text-sm text-slate-700">
              {/* Admins manage everyone's access: their second step is not the firm's choice. */}
              <input type="checkbox" checked disabled readOnly className={checkboxClasses} />
              <span>
                Admins <span className="text-slate-500">(always)</span>
              </span>
            </label>
          </li>
          <Controller
            control={control}
            name="mfaRequiredRoles"
            render={({ field }) => (
              <>
                {POLICY_MFA_ROLES.map((role) => (
                  <li key={role}>
                    <label className="flex items-start gap-2.5 text-sm text-slate-700">
                      <input
                        type="checkbox"
                        name={`${field.name}.${role}`}
                        className={checkboxClasses}
                        checked={field.value.includes(role)}
                        onChange={(event) =>
                          field.onChange(withRole(field.value, role, event.target.checked))
                        }
                        onBlur={field.onBlur}
                      />
                      <span className="min-w-0">{POLICY_ROLE_LABELS[role]}</span>
                    </label>
                  </li>
                ))}
              </>
            )}
          />
        </ul>
      </fieldset>
      <Controller
        control={control}
        name="emailCodes"
        render={({ field }) => (
          <Switch
            label={EMAIL_CODES}
            description={EMAIL_CODES_HELP}
            checked={field.value}
            onChange={field.onChange}
            disabled={update.isPending}
          />
        )}
      />
      {update.isError ? (
        <FormMessage tone="error">{getErrorMessage(update.error, SAVE_SIGN_IN_POLICY_FAILED)}</FormMessage>
      ) : null}
      {update.isSuccess && !isDirty ? (
        <FormMessage tone="success">{signInPolicySavedText(update.data)}</FormMessage>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" isLoading={update.isPending}>
          {update.isPending ? "Saving..." : "Save sign-in security"}
        </Button>
      </div>
    </form>
  );
}

/**
 * Firm settings (issue 24): whom two-step verification is required of (admins always; until first saved,
 * MFA_REQUIRED_ROLES decides) and whether a six-digit code by email may be the second step.
 */
export function SignInPolicyCard() {
  const policy = useSignInPolicy();
  const titleId = useId();

  return (
    <section
      aria-labelledby={titleId}
      className="rounded-2xl border border-slate-200 bg-white px-5 py-6 shadow-sm sm:px-8"
    >
      <h2 id={titleId} className="text-sm font-semibold text-navy-950">
        Sign-in security
      </h2>
      <p className="mt-0.5 text-sm text-slate-500">
        How people prove who they are when they sign in to the portal.
      </p>
      {policy.isPending ? (
        <p role="status" className="mt-5 flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Loading...
        </p>
      ) : policy.isError ? (
        <div className="mt-5">
          <FormMessage tone="error">{getErrorMessage(policy.error, LOAD_SIGN_IN_POLICY_FAILED)}</FormMessage>
        </div>
      ) : (
        <SignInPolicyForm current={policy.data} />
      )}
    </section>
  );
}
