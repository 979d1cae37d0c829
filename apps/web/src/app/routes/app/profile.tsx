import { LogOutIcon } from "lucide-react";
import { useNavigate } from "react-router";

import { Button } from "@/components/ui/button";
import { useSignOut } from "@/features/auth/api/use-sign-out";
import { TwoFactorSettings } from "@/features/auth/components/two-factor-settings";
import { DelegatesCard } from "@/features/delegates/components/delegates-card";
import { ProfileCard } from "@/features/profile/components/profile-card";
import { SessionsCard } from "@/features/profile/components/sessions-card";
import { useSession } from "@/lib/session";

export function Component() {
  const navigate = useNavigate();
  const { data: session } = useSession();
  const signOut = useSignOut();

  return (
    <>
      <ProfileCard
        user={session?.user ?? null}
        logout={
          <Button
            variant="secondary"
            isLoading={signOut.isPending}
            onClick={() =>
              signOut.mutate(undefined, { onSuccess: () => void navigate("/login", { replace: true }) })
            }
          >
            {signOut.isPending ? null : <LogOutIcon className="size-4" />}
            Logout
          </Button>
        }
      />
      {session ? <TwoFactorSettings /> : null}
      {session ? <SessionsCard /> : null}
      {/* Clients only: the card shows itself once the API answers with the client's delegates. */}
      {session ? <DelegatesCard /> : null}
    </>
  );
}
