import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";

import { ZSignUpSchema } from "@portal/contracts";
import type { TPublicConfig, TSignUp } from "@portal/contracts";

import { Button } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";
import { useAsyncAction } from "@/lib/use-async-action";

import { createAccount as createAccountRequest } from "../api/sign-up";
import type { TFormMessage } from "./sign-in-form";

const ROLE_OPTIONS = [
  { value: "editor", label: "Editor" },
  { value: "author", label: "Author" },
] as const;

type TCreateAccountFormProps = {
  config: TPublicConfig;
  message: TFormMessage;
  onMessageChange: (message: TFormMessage) => void;
};

function domainHint(domains: string[]): string | undefined {
  if (domains.length === 0) return undefined;
  const list = domains.map((domain) => `@${domain}`).join(", ");
  return `Use your work email (${list}).`;
}

/** Create Account: Full Name, email, password and the editor/author role. */
export function CreateAccountForm({ config, message, onMessageChange: setMessage }: TCreateAccountFormProps) {
  const createAccount = useAsyncAction(createAccountRequest);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TSignUp>({
    resolver: zodResolver(ZSignUpSchema),
    defaultValues: { name: "", email: "", password: "", role: "editor" },
  });

  const onSubmit = handleSubmit((values) => {
    setMessage(null);
    createAccount.run(values, {
      onSuccess: () =>
        setMessage({
          tone: "success",
          text: `Check your inbox: we sent a link to ${values.email}. Open it to confirm your email and finish creating your account.`,
        }),
      onError: (error) =>
        setMessage({
          tone: "error",
          text: getErrorMessage(error, "Your account could not be created. Please try again."),
        }),
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <TextField label="Full Name" autoComplete="name" error={errors.name?.message} {...register("name")} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        hint={domainHint(config.signUpDomains)}
        error={errors.email?.message}
        {...register("email")}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${config.passwordMinLength} characters.`}
        error={errors.password?.message}
        {...register("password")}
      />
      <SelectField label="Role" options={ROLE_OPTIONS} error={errors.role?.message} {...register("role")} />
      <Button type="submit" className="w-full" isLoading={createAccount.isPending}>
        {createAccount.isPending ? "Creating account..." : "Create Account"}
      </Button>
      {message ? <FormMessage tone={message.tone}>{message.text}</FormMessage> : null}
    </form>
  );
}
