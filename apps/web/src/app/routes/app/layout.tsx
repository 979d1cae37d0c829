import { Outlet, useNavigate } from "react-router";

import { AccountMenu, AccountMenuItem } from "@/components/layouts/account-menu";
import { ShellLayout } from "@/components/layouts/shell-layout";
import { FormMessage } from "@/components/ui/form-message";
import { LogOutIcon, UserIcon } from "@/components/ui/icons";
import { useSignOut } from "@/features/auth/api/use-sign-out";
import { useTwoFactorPolicy } from "@/features/auth/api/two-factor";
import { RequireAccess } from "@/features/auth/components/require-access";
import { TwoFactorGate } from "@/features/auth/components/two-factor-gate";
import { WorkbookNav } from "@/features/workbooks/components/workbook-nav";
import { useSession } from "@/lib/session";

function UserShell() {
  const navigate = useNavigate();
  const { data: session } = useSession();
  const signOut = useSignOut();
  const twoFactor = useTwoFactorPolicy();
  if (!session) return null;
  // Until required two-step verification is set up the server refuses the workbook list (decision 006).
  const showWorkbooks = twoFactor.status === "optional" || twoFactor.status === "enrolled";

  return (
    <ShellLayout
      homeTo="/"
      sidebar={(collapsed) => (showWorkbooks ? <WorkbookNav collapsed={collapsed} /> : null)}
      headerEnd={
        <AccountMenu user={session.user}>
          <AccountMenuItem icon={<UserIcon className="size-4" />} onSelect={() => void navigate("/profile")}>
            Profile
          </AccountMenuItem>
          <AccountMenuItem
            icon={<LogOutIcon className="size-4" />}
            onSelect={() =>
              signOut.mutate(undefined, { onSuccess: () => void navigate("/login", { replace: true }) })
            }
          >
            Logout
          </AccountMenuItem>
        </AccountMenu>
      }
    >
      {signOut.isError ? (
        <div className="mb-6">
          <FormMessage tone="error">Sign-out failed. Please try again.</FormMessage>
        </div>
      ) : null}
      <TwoFactorGate continueTo="/">
        <Outlet />
      </TwoFactorGate>
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
