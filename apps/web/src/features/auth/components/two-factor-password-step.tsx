import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";

import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";

// Any non-empty password: the server checks it, and a wrong one is explained under the form.
const ZPasswordConfirmationSchema = z.object({ password: z.string().min(1, "Enter your password.") });
type TPasswordConfirmation = z.infer<typeof ZPasswordConfirmationSchema>;

type TPasswordStepProps<TResult> = {
  /** Sends the password (turn on: start the enrolment; turn off: disable). */
  confirm: (password: string) => Promise<TResult>;
  /** After `confirm` succeeded, with what it answered. */
  onConfirmed: (result: TResult) => void;
  submitLabel: string;
  /** The submit button's label while `confirm` runs. */
  pendingLabel: string;
  /** Shown when the failure carries no message of its own. */
  errorFallback: string;
  /** Above the field: what is about to happen. */
  intro?: ReactNode;
  /** Under the field. */
  hint?: string;
  /** Offers to stop before anything changed. */
  onCancel?: () => void;
};

/**
 * Confirming the password before two-step verification is turned on or off (decision 006): the field, the
 * submit and Cancel buttons, and the server's answer under the form.
 */
export function TwoFactorPasswordStep<TResult>({
  confirm,
  onConfirmed,
  submitLabel,
  pendingLabel,
  errorFallback,
  intro,
  hint,
  onCancel,
}: TPasswordStepProps<TResult>) {
  const action = useMutation({ mutationFn: confirm });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TPasswordConfirmation>({
    resolver: zodResolver(ZPasswordConfirmationSchema),
    defaultValues: { password: "" },
  });

  const onSubmit = handleSubmit(({ password }) => action.mutate(password, { onSuccess: onConfirmed }));

  return (
    <form onSubmit={onSubmit} noValidate className="max-w-md space-y-4">
      {intro ? <p className="text-sm text-slate-600">{intro}</p> : null}
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        hint={hint}
        error={errors.password?.message}
        {...register("password")}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" isLoading={action.isPending}>
          {action.isPending ? pendingLabel : submitLabel}
        </Button>
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={action.isPending}>
            Cancel
          </Button>
        ) : null}
      </div>
      {action.isError ? (
        <FormMessage tone="error">{getErrorMessage(action.error, errorFallback)}</FormMessage>
      ) : null}
    </form>
  );
}
