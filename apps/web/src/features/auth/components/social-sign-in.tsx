import type { TPublicConfig } from "@portal/contracts";

import { Spinner } from "@/components/ui/spinner";
import { getErrorMessage } from "@/lib/errors";
import { useAsyncAction } from "@/lib/use-async-action";

import { signInWithProvider } from "../api/social-sign-in";
import { ProviderIcon } from "./provider-icons";

type TSocialSignInProps = {
  providers: TPublicConfig["socialProviders"];
  onError: (message: string) => void;
};

/** One icon button per configured provider; each starts a redirect to that provider. */
export function SocialSignIn({ providers, onError }: TSocialSignInProps) {
  const socialSignIn = useAsyncAction(signInWithProvider);
  if (providers.length === 0) return null;

  return (
    <div className="space-y-5">
      <ul className="flex flex-wrap justify-center gap-3" aria-label="Sign in with a provider">
        {providers.map((provider) => {
          const pending = socialSignIn.isPending && socialSignIn.input === provider.id;
          return (
            <li key={provider.id}>
              <button
                type="button"
                aria-label={`Sign in with ${provider.name}`}
                title={`Sign in with ${provider.name}`}
                disabled={socialSignIn.isPending}
                onClick={() =>
                  socialSignIn.run(provider.id, {
                    onError: (error) =>
                      onError(
                        getErrorMessage(error, "Sign-in with this provider is not available right now."),
                      ),
                  })
                }
                className="flex size-12 items-center justify-center rounded-full border border-slate-200 bg-white shadow-sm transition hover:border-navy-200 hover:bg-navy-50 disabled:opacity-60"
              >
                {pending ? (
                  <Spinner className="size-5 text-navy-700" />
                ) : (
                  <ProviderIcon provider={provider.id} />
                )}
              </button>
            </li>
          );
        })}
      </ul>
      <div className="flex items-center gap-3 text-xs font-medium tracking-wide text-slate-500 uppercase">
        <span className="h-px flex-1 bg-slate-200" />
        or use your email
        <span className="h-px flex-1 bg-slate-200" />
      </div>
    </div>
  );
}
