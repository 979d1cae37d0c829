import { useQueryClient } from "@tanstack/react-query";
import { UserRoundXIcon } from "lucide-react";
import { useEffect } from "react";
import { Link } from "react-router";

import { buttonClasses } from "@/components/ui/button";
import { useSession } from "@/lib/session";

import { myClientsQueryOptions } from "../api/get-my-clients";
import { ownsNoWorkbooks } from "../utils/viewed-client";
import { CLIENT_ACCESS_ENDED } from "./workbook-nav";

/**
 * In place of the workbook when the URL names a client the person may not view: the client ended the sharing,
 * it expired, or the link was never theirs (the API answers 404 for all of them, decision 020). The list of
 * clients is read again, so the switcher no longer offers that client.
 */
export function ClientAccessEnded() {
  const queryClient = useQueryClient();
  const { data: session } = useSession();
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: myClientsQueryOptions().queryKey });
  }, [queryClient]);
  const sharedOnly = ownsNoWorkbooks(session?.user.role);

  return (
    <section className="relative -mx-4 -my-6 min-h-[calc(100dvh-90px)] sm:-mx-8 sm:-my-8">
      <div className="absolute inset-0 flex items-center justify-center bg-slate-50 px-4 py-8">
        <div
          role="alert"
          className="flex w-full max-w-lg flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center shadow-sm"
        >
          <span className="mb-4 flex size-12 items-center justify-center rounded-full bg-amber-50 text-amber-700">
            <UserRoundXIcon className="size-6" />
          </span>
          <h1 className="text-lg font-semibold text-navy-950">{CLIENT_ACCESS_ENDED}</h1>
          <p className="mt-2 text-sm leading-relaxed text-slate-600">
            The client may have stopped sharing them, or the access you were given has ended. If you think
            this is a mistake, please ask them to invite you again.
          </p>
          <Link to="/" className={`${buttonClasses("primary")} mt-6`}>
            {sharedOnly ? "Go to the workbooks shared with you" : "Back to your own workbooks"}
          </Link>
        </div>
      </div>
    </section>
  );
}
