import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";

import { ShieldIcon } from "@/components/ui/icons";
import { PageTitle } from "@/components/ui/page-title";
import { isAdmin } from "@/lib/roles";
import { clearSession } from "@/lib/session";
import type { TSession } from "@/lib/session";

import { signOut } from "../api/sign-out";
import { AuthLayout } from "./auth-layout";
import { SignInForm } from "./sign-in-form";
import type { TFormMessage } from "./sign-in-form";

export const NOT_AN_ADMIN = "You are not authorized as an admin.";

/** /admin-login: sign-in for admins; anyone else is signed straight out again and told why. */
export function AdminLoginScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<TFormMessage>(null);

  const onSignedIn = async (session: TSession | null) => {
    if (isAdmin(session?.user)) {
      await navigate("/admin", { replace: true });
      return;
    }
    try {
      await signOut();
    } catch (error) {
      // The error below is shown either way; the session cache is cleared so no guard lets the user in.
      console.error("Signing out a non-admin after admin sign-in failed", error);
    }
    clearSession(queryClient);
    setMessage({ tone: "error", text: NOT_AN_ADMIN });
  };

  return (
    <AuthLayout tagline="Administration for clients, advisors and workbooks.">
      <PageTitle title="Admin Login" />
      <div className="space-y-6">
        <header className="space-y-3 text-center">
          <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-navy-50 text-navy-800">
            <ShieldIcon className="size-6" />
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
          <Link to="/login" className="font-medium text-emerald-700 underline-offset-4 hover:underline">
            Go to client sign-in
          </Link>
        </p>
      </div>
    </AuthLayout>
  );
}
