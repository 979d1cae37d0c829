import { PageHeader } from "@/components/admin/page-header";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";

import { LOAD_SETTINGS_FAILED, useSettings } from "../api/get-settings";
import { BrandingForm } from "./branding-form";
import { DelegationCard } from "./delegation-card";
import { LogoCard } from "./logo-card";
import { SignInPolicyCard } from "./sign-in-policy-card";

/**
 * /admin/settings (issue 13 point 4, DEVIATIONS D54): the firm's name, primary colour, support email and logo,
 * which the sign-in page, both shells, mail and the embedded workbooks wear.
 */
export function SettingsPage() {
  const settings = useSettings();
  return (
    <section aria-labelledby="page-title" className="mx-auto max-w-3xl">
      <PageHeader
        title="Firm settings"
        description="Your firm's name, colour, logo and support address, shown on the sign-in page, in the portal, in emails and in embedded workbooks."
      />
      {settings.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Loading settings...
        </p>
      ) : settings.isError ? (
        <FormMessage tone="error">{getErrorMessage(settings.error, LOAD_SETTINGS_FAILED)}</FormMessage>
      ) : (
        <div className="space-y-6">
          <BrandingForm current={settings.data} />
          <LogoCard current={settings.data} />
        </div>
      )}
      <div className="mt-6 space-y-6">
        <SignInPolicyCard />
        <DelegationCard />
      </div>
    </section>
  );
}
