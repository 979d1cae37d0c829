import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";

import { Button, buttonClasses } from "@/components/ui/button";
import { SelectField, TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";

import { ZAddClientFormSchema, useAddClient } from "../api/add-client";
import type { TAddClientFormInput, TAddClientFormValues } from "../api/add-client";
import { ALL_FIELDS_REQUIRED, fieldError, hasMissingFields } from "../utils/form-errors";
import type { TNoticeState } from "../utils/notice";
import { PRIVILEGE_OPTIONS } from "../utils/privileges";
import { FormFooter, FormPage, FormSection } from "./form-layout";
import { RegistrationFrame } from "./registration-frame";
import { WorkbookPicker } from "./workbook-picker";
import type { TWorkbookOption } from "./workbook-picker";

export const CLIENT_REGISTERED = "✅ Client registered successfully!";
export const REGISTERING_CLIENT = "Registering client in Sigma...";

const LIST = "/admin/client-list";

/**
 * /admin/add-client. After the API has registered the client, a hidden frame loads their embed URL so
 * Sigma knows them too ('Registering client in Sigma...'); its `load` leads to the client list. No
 * workbook chosen → no embed URL (DEVIATION D18) → straight to the list.
 */
export function AddClientPage() {
  const navigate = useNavigate();
  const addClient = useAddClient();
  const [workbooks, setWorkbooks] = useState<TWorkbookOption[]>([]);
  const [embedUrl, setEmbedUrl] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<TAddClientFormInput, unknown, TAddClientFormValues>({
    resolver: zodResolver(ZAddClientFormSchema),
    defaultValues: { clientId: "", firstName: "", lastName: "", email: "", password: "", privilege: "" },
  });

  const toList = () => navigate(LIST, { state: { notice: CLIENT_REGISTERED } satisfies TNoticeState });

  const onSubmit = handleSubmit((values) => {
    addClient.mutate(
      {
        ...values,
        role: "client",
        workbookIds: workbooks.map((workbook) => workbook.value),
        // Spec payload; the server derives the teams itself (DEVIATION D17).
        teams: [...new Set(workbooks.map((workbook) => workbook.team))],
      },
      {
        onSuccess: ({ data }) => {
          if (data.embed.embedUrl) setEmbedUrl(data.embed.embedUrl);
          else void toList();
        },
      },
    );
  });

  const registered = addClient.isSuccess;
  const busy = addClient.isPending || registered;

  return (
    <FormPage
      title="Add Client"
      description="Registers the client, creates their sign-in and assigns the workbooks they will see."
      backTo={LIST}
      backLabel="Back to clients"
    >
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={busy} className="contents">
          <FormSection title="Client" description="How the firm identifies the client.">
            <TextField
              label="Client ID"
              autoComplete="off"
              error={fieldError(errors.clientId?.message)}
              {...register("clientId")}
            />
            <div className="hidden sm:block" />
            <TextField
              label="First Name"
              autoComplete="off"
              error={fieldError(errors.firstName?.message)}
              {...register("firstName")}
            />
            <TextField
              label="Last Name"
              autoComplete="off"
              error={fieldError(errors.lastName?.message)}
              {...register("lastName")}
            />
          </FormSection>
          <FormSection title="Sign-in" description="The client signs in at the portal with these.">
            <TextField
              label="Email"
              type="email"
              inputMode="email"
              autoComplete="off"
              error={fieldError(errors.email?.message)}
              {...register("email")}
            />
            <TextField
              label="Password"
              type="password"
              autoComplete="new-password"
              hint="At least 8 characters. Share it with the client securely."
              error={fieldError(errors.password?.message)}
              {...register("password")}
            />
          </FormSection>
          <FormSection title="Access" description="What the client may do and see in the workbooks.">
            <SelectField
              label="Privilege"
              options={PRIVILEGE_OPTIONS}
              error={fieldError(errors.privilege?.message)}
              {...register("privilege")}
            />
            <div className="sm:col-span-2">
              <WorkbookPicker selected={workbooks} onChange={setWorkbooks} disabled={busy} />
            </div>
          </FormSection>
        </fieldset>
        <FormFooter
          messages={
            <>
              {hasMissingFields(errors) ? (
                <FormMessage tone="error">{ALL_FIELDS_REQUIRED}</FormMessage>
              ) : null}
              {addClient.isError ? (
                <FormMessage tone="error">
                  {getErrorMessage(addClient.error, "The client could not be registered.")}
                </FormMessage>
              ) : null}
              {registered ? <FormMessage tone="success">{CLIENT_REGISTERED}</FormMessage> : null}
              {embedUrl ? (
                <>
                  <p role="status" className="flex items-center gap-2.5 text-sm text-navy-800">
                    <Spinner className="size-4 text-emerald-600" />
                    {REGISTERING_CLIENT}
                  </p>
                  <RegistrationFrame src={embedUrl} title="Sigma registration" onDone={() => void toList()} />
                </>
              ) : null}
            </>
          }
        >
          <Link to={LIST} className={buttonClasses("secondary")}>
            Cancel
          </Link>
          <Button type="submit" isLoading={addClient.isPending} disabled={registered}>
            {addClient.isPending ? "Registering..." : "Register Client"}
          </Button>
        </FormFooter>
      </form>
    </FormPage>
  );
}
