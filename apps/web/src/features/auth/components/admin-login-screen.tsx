import { ShieldCheckIcon } from "lucide-react";
import { useState } from "react";

import { PageTitle } from "@/components/ui/page-title";
import type { TSession } from "@/lib/get-session";
import { replacePage } from "@/lib/replace-page";
import { isAdmin } from "@/lib/roles";

import { signOut } from "../api/sign-out";
import { AuthLayout } from "./auth-layout";
import { SignInForm } from "./sign-in-form";
import type { TFormMessage } from "./sign-in-form";

export const NOT_AN_ADMIN = "You are not authorized as an admin.";

/** /admin-login: sign-in for admins; anyone else is signed straight out again and told why. */
export function AdminLoginScreen() {
  const [message, setMessage] = useState<TFormMessage>(null);

  const onSignedIn = async (session: TSession | null) => {
    // A full page load: the SPA takes over from here (decision 004).
    if (isAdmin(session?.user)) return replacePage("/admin");
    try {
      await signOut();
    } catch (error) {
      // The error below is shown either way; the server decides every access on its own.
      console.error("Signing out a non-admin after admin sign-in failed", error);
    }
    setMessage({ tone: "error", text: NOT_AN_ADMIN });
  };

  return (
    <AuthLayout tagline="Administration for clients, advisors and workbooks.">
      <PageTitle title="Admin Login" />
      <div className="space-y-6">
        <header className="space-y-3 text-center">
          <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-navy-50 text-navy-800">
            <ShieldCheckIcon className="size-6" />
          </span>
          <h1 className="text-2xl font-semibold tracking-tight text-navy-950">Admin Login</h1>
          <p className="text-sm text-slate-600">Only authorized admins can access this panel.</p>
        </header>
        <SignInForm
          onSignedIn={onSignedIn}
          message={message}
          onMessageChange={setMessage}
          allowPasswordReset={false}
        />
        <p className="text-center text-sm text-slate-600">
          Not an admin?{" "}
          <a href="/login" className="font-medium text-emerald-700 underline-offset-4 hover:underline">
            Go to client sign-in
          </a>
        </p>
      </div>
    </AuthLayout>
  );
}
