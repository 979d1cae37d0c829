import { useQueryClient } from "@tanstack/react-query";
import { ShieldCheckIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";

import { Spinner } from "@/components/ui/spinner";
import { refreshSession } from "@/lib/session";

import { useTwoFactorPolicy } from "../api/two-factor";

// Only someone who must enrol sees it: its QR code and forms load on demand (decision 015).
const TwoFactorSetup = lazy(() => import("./two-factor-setup").then((m) => ({ default: m.TwoFactorSetup })));

export const SETUP_TITLE = "Set up two-step verification";

/** What a shell shows: its pages, the enrolment screen instead of them, or a spinner while that is unknown. */
export type TTwoFactorScreen = "pending" | "setup" | "pages";

/**
 * For a shell: someone whose role requires two-step verification and who has not set it up gets the
 * enrolment screen instead of the pages (the server refuses their other requests anyway, decision 006).
 * Once started, the screen stays until the backup codes were shown, even when the session is re-read.
 * The shell reads `screen` too, so its breadcrumb and sidebar do not offer pages that cannot be opened.
 */
export function useTwoFactorGate() {
  const policy = useTwoFactorPolicy();
  const [inSetup, setInSetup] = useState(false);
  let screen: TTwoFactorScreen = "pages";
  if (inSetup || policy.status === "required") screen = "setup";
  else if (policy.status === "pending") screen = "pending";
  return { screen, setInSetup };
}

export type TTwoFactorGateState = ReturnType<typeof useTwoFactorGate>;

type TTwoFactorSidebarProps = {
  gate: TTwoFactorGateState;
  collapsed: boolean;
  /** During enrolment, in the open sidebar: why it offers no pages yet. */
  note: string;
  /** The shell's navigation, once its pages can be opened. */
  children: ReactNode;
};

/** A shell's sidebar: its navigation, or nothing to navigate while the pages wait for enrolment. */
export function TwoFactorSidebar({ gate, collapsed, note, children }: TTwoFactorSidebarProps) {
  if (gate.screen === "pages") return children;
  if (gate.screen === "setup" && !collapsed) return <p className="px-2.5 text-sm text-navy-300">{note}</p>;
  return null;
}

type TTwoFactorGateProps = {
  gate: TTwoFactorGateState;
  /** Where the person lands once set up. */
  continueTo: string;
  children: ReactNode;
};

/** Shows `children` (the shell's page), or in their place the enrolment screen or a spinner (see `gate`). */
export function TwoFactorGate({ gate, continueTo, children }: TTwoFactorGateProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const pending = (
    <div role="status" className="flex justify-center py-16 text-emerald-600">
      <Spinner className="size-8" />
      <span className="sr-only">Loading...</span>
    </div>
  );
  if (gate.screen === "pending") return pending;
  if (gate.screen === "pages") return children;

  // The spinner stays until the enrolment screen can show whole.
  return (
    <Suspense fallback={pending}>
      <section
        aria-labelledby="two-factor-setup-title"
        className="mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
      >
        <header className="mb-6 flex items-start gap-4">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-navy-50 text-navy-800">
            <ShieldCheckIcon className="size-5" />
          </span>
          <div className="space-y-1">
            <h1 id="two-factor-setup-title" className="text-xl font-semibold text-navy-950">
              {SETUP_TITLE}
            </h1>
            <p className="text-sm text-slate-600">
              Your role requires a second step when you sign in. It takes about a minute.
            </p>
          </div>
        </header>
        <TwoFactorSetup
          onStarted={() => gate.setInSetup(true)}
          doneLabel="Continue"
          onDone={async () => {
            await refreshSession(queryClient);
            gate.setInSetup(false);
            await navigate(continueTo, { replace: true });
          }}
        />
      </section>
    </Suspense>
  );
}
