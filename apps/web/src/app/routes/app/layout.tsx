import { UserIcon } from "lucide-react";
import { useNavigate } from "react-router";

import { AccountMenu, AccountMenuItem } from "@/components/layouts/account-menu";
import { ShellLayout } from "@/components/layouts/shell-layout";
import { useSignOut } from "@/features/auth/api/use-sign-out";
import { RequireAccess } from "@/features/auth/components/require-access";
import { SETUP_TITLE, TwoFactorSidebar, useTwoFactorGate } from "@/features/auth/components/two-factor-gate";
import { ClientSwitcher } from "@/features/workbooks/components/client-switcher";
import { WorkbookNav } from "@/features/workbooks/components/workbook-nav";
import { useSession } from "@/lib/session";

import { LogoutItem, ShellPage } from "../shell-parts";

function UserShell() {
  const navigate = useNavigate();
  const { data: session } = useSession();
  const signOut = useSignOut();
  const twoFactor = useTwoFactorGate();
  if (!session) return null;
  // During enrolment every page, the profile too, shows the enrolment screen, and the server refuses the
  // workbook list (decision 006): the shell offers neither.
  const inSetup = twoFactor.screen === "setup";
  // Whose workbooks (issue 23): only once the pages can be opened; on phones in the menu, else the header.
  const pagesOpen = twoFactor.screen === "pages";

  return (
    <ShellLayout
      homeTo="/"
      screen={inSetup ? SETUP_TITLE : undefined}
      sidebar={(collapsed, place) => (
        <TwoFactorSidebar
          gate={twoFactor}
          collapsed={collapsed}
          note="Your workbooks show here once two-step verification is set up."
        >
          {place === "menu" ? (
            <div className="mb-4 empty:hidden">
              <ClientSwitcher place="menu" />
            </div>
          ) : null}
          <WorkbookNav collapsed={collapsed} />
        </TwoFactorSidebar>
      )}
      headerEnd={
        <div className="flex min-w-0 items-center gap-3">
          <div className="min-w-0 max-md:hidden empty:hidden">
            <ClientSwitcher place="header" enabled={pagesOpen} />
          </div>
          <AccountMenu user={session.user}>
            {inSetup ? null : (
              <AccountMenuItem
                icon={<UserIcon className="size-4" />}
                onSelect={() => void navigate("/profile")}
              >
                Profile
              </AccountMenuItem>
            )}
            <LogoutItem signOut={signOut} signInPath="/login" />
          </AccountMenu>
        </div>
      }
    >
      <ShellPage signOut={signOut} twoFactor={twoFactor} continueTo="/" signInPath="/login" />
    </ShellLayout>
  );
}

/** `/` for signed-in clients and employees: sidebar, header with breadcrumb and account menu. */
export function Component() {
  return (
    <RequireAccess area="user">
      <UserShell />
    </RequireAccess>
  );
}
