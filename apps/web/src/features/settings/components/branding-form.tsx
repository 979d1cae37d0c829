import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";

import { contrastRatio, formatContrast, HEX_COLOUR, MIN_CONTRAST_RATIO } from "@portal/contracts";
import type { TBrandingResponse } from "@portal/contracts";

import { FormSection } from "@/components/admin/form-layout";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { getErrorMessage } from "@/lib/errors";
import { ALL_FIELDS_REQUIRED, fieldError, hasMissingFields } from "@/lib/form-errors";

import { SAVE_SETTINGS_FAILED, useUpdateSettings, ZSettingsFormSchema } from "../api/update-settings";
import type { TSettingsForm, TSettingsFormInput } from "../api/update-settings";

export const SETTINGS_SAVED = "✅ Settings saved.";

/** How white text reads on the colour: the measured WCAG ratio, and whether it reaches AA. */
function ContrastPreview({ colour }: { colour: string }) {
  if (!HEX_COLOUR.test(colour)) return null;
  const ratio = contrastRatio(colour, "#ffffff");
  const passes = ratio >= MIN_CONTRAST_RATIO;
  return (
    <div className="flex flex-wrap items-center gap-3" data-testid="contrast-preview">
      <span
        className="inline-flex h-9 items-center rounded-lg px-3 text-sm font-semibold text-white"
        style={{ backgroundColor: colour }}
      >
        Button text
      </span>
      <p className={passes ? "text-sm text-emerald-800" : "text-sm text-red-700"}>
        Contrast with white text {formatContrast(ratio)}:{" "}
        {passes ? "meets WCAG AA (4.5:1)." : "below WCAG AA (4.5:1), choose a darker colour."}
      </p>
    </div>
  );
}

/** Firm name, primary colour and support email (PUT /api/admin/settings). */
export function BrandingForm({ current }: { current: TBrandingResponse }) {
  const update = useUpdateSettings();
  const [saved, setSaved] = useState(false);
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<TSettingsFormInput, unknown, TSettingsForm>({
    resolver: zodResolver(ZSettingsFormSchema),
    defaultValues: {
      firmName: current.firmName,
      primaryColour: current.primaryColour,
      supportEmail: current.supportEmail,
    },
  });
  const colour = (useWatch({ control, name: "primaryColour" }) ?? "").trim();

  return (
    <form
      onSubmit={handleSubmit((values) => {
        setSaved(false);
        update.mutate(values, { onSuccess: () => setSaved(true) });
      })}
      noValidate
      className="rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <fieldset disabled={update.isPending} className="contents">
        <FormSection
          title="Firm"
          description="How the portal names your firm and where clients ask for help."
        >
          <TextField
            label="Firm name"
            autoComplete="organization"
            error={fieldError(errors.firmName?.message)}
            {...register("firmName")}
          />
          <TextField
            label="Support email"
            type="email"
            autoComplete="email"
            spellCheck={false}
            error={fieldError(errors.supportEmail?.message)}
            {...register("supportEmail")}
          />
          <TextField
            label="Primary colour"
            autoComplete="off"
            spellCheck={false}
            hint="A hex colour like #1f4e8c; white text on it must reach WCAG AA (4.5:1)."
            error={fieldError(errors.primaryColour?.message)}
            {...register("primaryColour")}
          />
          <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
            <input
              type="color"
              aria-label="Pick the primary colour"
              value={HEX_COLOUR.test(colour) ? colour.toLowerCase() : "#000000"}
              onChange={(event) =>
                setValue("primaryColour", event.target.value, { shouldValidate: true, shouldDirty: true })
              }
              className="h-9 w-14 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
            />
            <ContrastPreview colour={colour} />
          </div>
        </FormSection>
      </fieldset>
      <div className="space-y-4 px-5 py-6 sm:px-8">
        {hasMissingFields(errors) ? <FormMessage tone="error">{ALL_FIELDS_REQUIRED}</FormMessage> : null}
        {update.isError ? (
          <FormMessage tone="error">{getErrorMessage(update.error, SAVE_SETTINGS_FAILED)}</FormMessage>
        ) : null}
        {saved && !update.isPending ? <FormMessage tone="success">{SETTINGS_SAVED}</FormMessage> : null}
        <div className="flex justify-end">
          <Button type="submit" isLoading={update.isPending}>
            {update.isPending ? "Saving..." : "Save settings"}
          </Button>
        </div>
      </div>
    </form>
  );
}
