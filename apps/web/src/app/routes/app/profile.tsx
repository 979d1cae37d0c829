import { useQueryClient } from "@tanstack/react-query";
import { LogOutIcon } from "lucide-react";
import { useNavigate } from "react-router";

import { Button } from "@/components/ui/button";
import { useSignOut } from "@/features/auth/api/use-sign-out";
import { TwoFactorSettings } from "@/features/auth/components/two-factor-settings";
import { DelegatesCard } from "@/features/delegates/components/delegates-card";
import { usePasskeys } from "@/features/passkeys/api/get-passkeys";
import { PasskeysCard } from "@/features/passkeys/components/passkeys-card";
import { sessionsQueryKey } from "@/features/profile/api/get-sessions";
import { ProfileCard } from "@/features/profile/components/profile-card";
import { SessionsCard } from "@/features/profile/components/sessions-card";
import { useSession } from "@/lib/session";

export function Component() {
  const navigate = useNavigate();
  const { data: session } = useSession();
  const signOut = useSignOut();
  const queryClient = useQueryClient();
  // A passkey is a second step too: with one, the authenticator app may go even where the role requires one.
  const passkeys = usePasskeys();

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
      {session ? <TwoFactorSettings hasPasskey={(passkeys.data?.length ?? 0) > 0} /> : null}
      {/* A passkey added right after the password makes this session a two-step one (Sessions says how). */}
      {session ? (
        <PasskeysCard onChanged={() => void queryClient.invalidateQueries({ queryKey: sessionsQueryKey })} />
      ) : null}
      {session ? <SessionsCard /> : null}
      {/* Clients only: the card shows itself once the API answers with the client's delegates. */}
      {session ? <DelegatesCard /> : null}
    </>
  );
}
