import { LucideProvider } from "lucide-react";
import { StrictMode } from "react";
import type { ReactNode } from "react";
import { createRoot } from "react-dom/client";

import { DEFAULT_BRANDING, signInPathOf } from "@portal/contracts";

import "../index.css";
import { ErrorScreen } from "@/components/ui/error-screen";
import { CheckingAuthentication } from "@/components/ui/spinner";
import { accessRedirect } from "@/features/auth/access";
import { getConfig } from "@/features/auth/api/get-config";
import { AdminLoginScreen } from "@/features/auth/components/admin-login-screen";
import { LoginScreen } from "@/features/auth/components/login-screen";
import { BrandingProvider, getBranding } from "@/lib/branding";
import { getErrorMessage } from "@/lib/errors";
import { getSession } from "@/lib/get-session";
import { replacePage } from "@/lib/replace-page";

/**
 * The sign-in page (`login.html`, decision 004): /login, /admin-login, /reset-password and /invitation (D55)
 * without the SPA's router, query cache or screens. Signing in ends with a full page load of `/` or `/admin`.
 */
const container = document.getElementById("root");
if (!container) throw new Error("The page has no #root element.");
const root = createRoot(container);
// The firm's name, logo and colour (decision 014): one small JSON read alongside the session check; the screens
// wait for it so they never show another firm first (without it they show the demo firm).
const branding = getBranding().catch(() => DEFAULT_BRANDING);
const render = (screen: ReactNode) =>
  void branding.then((firm) =>
    root.render(
      <StrictMode>
        <BrandingProvider branding={firm}>
          {/* The SPA's icon stroke (app/root.tsx). */}
          <LucideProvider strokeWidth={1.8}>{screen}</LucideProvider>
        </BrandingProvider>
      </StrictMode>,
    ),
  );

async function start() {
  const path = signInPathOf(window.location.pathname);
  const search = window.location.search;
  if (path === null) return replacePage("/login");
  // Reached only from an emailed link: loaded on demand, so /login itself stays within its budget.
  if (path === "/reset-password") {
    const { ResetPasswordScreen } = await import("@/features/auth/components/reset-password-screen");
    return render(<ResetPasswordScreen search={search} />);
  }
  if (path === "/invitation") {
    const { InvitationScreen } = await import("@/features/auth/components/invitation-screen");
    return render(<InvitationScreen search={search} />);
  }

  // Route table (spec section 2): a signed-in visitor is sent on before the screen shows.
  render(<CheckingAuthentication />);
  try {
    const [session, config] = await Promise.all([
      getSession(),
      // The sign-in screen's settings (sign-up, providers) load alongside; without them it shows less.
      path === "/login" ? getConfig().catch(() => null) : null,
    ]);
    const target = accessRedirect(path === "/login" ? "login" : "admin-login", session);
    if (target) return await replacePage(target);
    render(path === "/login" ? <LoginScreen config={config} search={search} /> : <AdminLoginScreen />);
  } catch (error) {
    render(
      <ErrorScreen
        message={getErrorMessage(error, "We could not check your sign-in. Please reload the page.")}
      />,
    );
  }
}

// This page never adds history entries of its own. The browser may still treat Back or Forward to an entry the
// SPA made before it handed over (same document lineage) as a move within this page: load that entry for real.
window.addEventListener("popstate", () => window.location.reload());

// A screen that could not be loaded (the network dropped mid-way) says so instead of leaving a blank page.
start().catch((error: unknown) =>
  render(
    <ErrorScreen message={getErrorMessage(error, "This page could not be loaded. Please reload it.")} />,
  ),
);
