import { LogOutIcon } from "lucide-react";
import { Outlet, useNavigate } from "react-router";

import { AccountMenuItem } from "@/components/layouts/account-menu";
import { FormMessage } from "@/components/ui/form-message";
import type { useSignOut } from "@/features/auth/api/use-sign-out";
import { TwoFactorGate, type useTwoFactorGate } from "@/features/auth/components/two-factor-gate";

type TSignOut = ReturnType<typeof useSignOut>;

/** The account menu's Logout: signs out, then replaces the page with the shell's sign-in screen. */
export function LogoutItem({ signOut, signInPath }: { signOut: TSignOut; signInPath: string }) {
  const navigate = useNavigate();
  return (
    <AccountMenuItem
      icon={<LogOutIcon className="size-4" />}
      onSelect={() =>
        signOut.mutate(undefined, { onSuccess: () => void navigate(signInPath, { replace: true }) })
      }
    >
      Logout
    </AccountMenuItem>
  );
}

/** A shell's page: a failed sign-out's message, then the route's screen behind the two-step set-up gate. */
export function ShellPage({
  signOut,
  twoFactor,
  continueTo,
  signInPath,
}: {
  signOut: TSignOut;
  twoFactor: ReturnType<typeof useTwoFactorGate>;
  continueTo: string;
  /** The shell's sign-in page (/login or /admin-login). */
  signInPath: string;
}) {
  return (
    <>
      {signOut.isError ? (
        <div className="mb-6">
          <FormMessage tone="error">Sign-out failed. Please try again.</FormMessage>
        </div>
      ) : null}
      <TwoFactorGate gate={twoFactor} continueTo={continueTo} signInPath={signInPath}>
        <Outlet />
      </TwoFactorGate>
    </>
  );
}
