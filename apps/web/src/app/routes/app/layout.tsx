import { Outlet, useNavigate } from "react-router";

import { AccountMenu, AccountMenuItem } from "@/components/layouts/account-menu";
import { ShellLayout } from "@/components/layouts/shell-layout";
import { FormMessage } from "@/components/ui/form-message";
import { LogOutIcon, UserIcon } from "@/components/ui/icons";
import { useSignOut } from "@/features/auth/api/use-sign-out";
import { RequireAccess } from "@/features/auth/components/require-access";
import { WorkbookNav } from "@/features/workbooks/components/workbook-nav";
import { useSession } from "@/lib/session";

function UserShell() {
  const navigate = useNavigate();
  const { data: session } = useSession();
  const signOut = useSignOut();
  if (!session) return null;

  return (
    <ShellLayout
      homeTo="/"
      sidebar={(collapsed) => <WorkbookNav collapsed={collapsed} />}
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
      <Outlet />
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
