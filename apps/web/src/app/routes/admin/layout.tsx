import { AdminNav } from "@/components/admin/admin-nav";
import { AccountMenu } from "@/components/layouts/account-menu";
import { ShellLayout } from "@/components/layouts/shell-layout";
import { CheckingAuthentication } from "@/components/ui/spinner";
import { useSignOut } from "@/features/auth/api/use-sign-out";
import { RequireAccess } from "@/features/auth/components/require-access";
import { SETUP_TITLE, TwoFactorSidebar, useTwoFactorGate } from "@/features/auth/components/two-factor-gate";
import { useSession } from "@/lib/session";

import { LogoutItem, ShellPage } from "../shell-parts";

function AdminShell() {
  const { data: session } = useSession();
  const signOut = useSignOut();
  const twoFactor = useTwoFactorGate();
  // Spec: the Logout menu shows 'Checking authentication...' while signing out.
  if (signOut.isPending) return <CheckingAuthentication />;
  if (!session) return null;

  return (
    <ShellLayout
      homeTo="/admin"
      screen={twoFactor.screen === "setup" ? SETUP_TITLE : undefined}
      // Every admin page waits for two-step verification, so until then the sidebar offers none.
      sidebar={(collapsed) => (
        <TwoFactorSidebar
          gate={twoFactor}
          collapsed={collapsed}
          note="The admin pages open once two-step verification is set up."
        >
          <AdminNav collapsed={collapsed} />
        </TwoFactorSidebar>
      )}
      headerEnd={
        <AccountMenu user={session.user}>
          <LogoutItem signOut={signOut} signInPath="/admin-login" />
        </AccountMenu>
      }
    >
      <ShellPage signOut={signOut} twoFactor={twoFactor} continueTo="/admin" signInPath="/admin-login" />
    </ShellLayout>
  );
}

/** `/admin` for signed-in admins: back-office sidebar, breadcrumb and the Logout menu. */
export function Component() {
  return (
    <RequireAccess area="admin">
      <AdminShell />
    </RequireAccess>
  );
}
