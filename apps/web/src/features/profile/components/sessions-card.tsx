import { useQueryClient } from "@tanstack/react-query";
import { MonitorIcon, SmartphoneIcon } from "lucide-react";
import { useEffect } from "react";

import { SIGN_IN_METHOD_LABELS } from "@portal/contracts";
import type { TSession } from "@portal/contracts";

import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { Spinner } from "@/components/ui/spinner";
import { AppRequestError, getErrorMessage } from "@/lib/errors";
import { sessionQueryKey } from "@/lib/session";

import { LOAD_SESSIONS_FAILED, useSessions } from "../api/get-sessions";
import { REVOKE_OTHER_SESSIONS_FAILED, useRevokeOtherSessions } from "../api/revoke-other-sessions";
import { REVOKE_SESSION_FAILED, useRevokeSession } from "../api/revoke-session";
import { SIGNED_IN, deviceName, lastActiveText } from "../utils/session-text";

function SessionRow({
  session,
  onSignOut,
  pending,
}: {
  session: TSession;
  onSignOut: () => void;
  pending: boolean;
}) {
  const name = deviceName(session);
  const DeviceIcon =
    session.device === "mobile" || session.device === "tablet" ? SmartphoneIcon : MonitorIcon;
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-slate-100 text-navy-800">
          <DeviceIcon className="size-5" />
        </span>
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-navy-950">
            <span className="break-words">{name}</span>
            {session.current ? (
              <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-200">
                This device
              </span>
            ) : null}
          </p>
          <dl className="mt-1 text-sm text-slate-600 sm:flex sm:flex-wrap sm:gap-x-4">
            <div>
              <dt className="inline">IP</dt>{" "}
              <dd className="inline break-all text-slate-700">{session.ip ?? "unknown"}</dd>
            </div>
            <div>
              <dt className="inline">Signed in</dt>{" "}
              <dd className="inline text-slate-700">
                <time dateTime={session.signed_in_at}>
                  {SIGNED_IN.format(new Date(session.signed_in_at))}
                </time>
              </dd>
            </div>
            <div>
              <dt className="inline">Last active</dt>{" "}
              <dd className="inline text-slate-700">
                <time dateTime={session.last_active_at}>
                  {session.current ? "now" : lastActiveText(session.last_active_at)}
                </time>
              </dd>
            </div>
            {session.sign_in_method ? (
              <div>
                <dt className="inline">Signed in with:</dt>{" "}
                <dd className="inline text-slate-700">{SIGN_IN_METHOD_LABELS[session.sign_in_method]}</dd>
              </div>
            ) : null}
          </dl>
        </div>
      </div>
      {session.current ? null : (
        <Button
          variant="secondary"
          size="sm"
          className="shrink-0 self-start whitespace-nowrap sm:self-center"
          isLoading={pending}
          onClick={onSignOut}
        >
          Sign out
          <span className="sr-only">
            {" "}
            {name}, signed in {SIGNED_IN.format(new Date(session.signed_in_at))}
          </span>
        </Button>
      )}
    </li>
  );
}

/**
 * Profile: where the person is signed in (browser and system, address, signed in, last active, how, this device),
 * with Sign out per session and for all other sessions at once.
 */
export function SessionsCard() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  // 401: this session itself was ended (from another device, or by an admin): the guard then shows sign-in.
  const queryClient = useQueryClient();
  const ended = [sessions.error, revoke.error, revokeOthers.error].some(
    (error) => error instanceof AppRequestError && error.status === 401,
  );
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  }, [ended, queryClient]);

  const outcome = revokeOthers.isSuccess
    ? { tone: "success" as const, text: revokeOthers.data.message }
    : revokeOthers.isError
      ? { tone: "error" as const, text: getErrorMessage(revokeOthers.error, REVOKE_OTHER_SESSIONS_FAILED) }
      : revoke.isSuccess
        ? { tone: "success" as const, text: revoke.data.message }
        : revoke.isError
          ? { tone: "error" as const, text: getErrorMessage(revoke.error, REVOKE_SESSION_FAILED) }
          : null;

  return (
    <section
      aria-labelledby="sessions-title"
      className="mx-auto mt-6 max-w-2xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
    >
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-navy-50 text-navy-800">
            <MonitorIcon className="size-5" />
          </span>
          <div>
            <h2 id="sessions-title" className="text-base font-semibold text-navy-950">
              Sessions
            </h2>
            <p className="text-sm text-slate-600">
              Where you are signed in. Sign out of any session you do not recognise.
            </p>
          </div>
        </div>
        {others > 0 ? (
          <Button
            variant="secondary"
            size="sm"
            className="h-auto min-h-9 py-1.5"
            isLoading={revokeOthers.isPending}
            onClick={() => {
              revoke.reset();
              revokeOthers.mutate();
            }}
          >
            Sign out of all other sessions
          </Button>
        ) : null}
      </div>

      {sessions.isPending ? (
        <p className="mt-6 flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Loading your sessions...
        </p>
      ) : sessions.isError ? (
        <div className="mt-6">
          <FormMessage tone="error">{getErrorMessage(sessions.error, LOAD_SESSIONS_FAILED)}</FormMessage>
        </div>
      ) : (
        <ul aria-label="Your sessions" className="mt-4 divide-y divide-slate-100 border-y border-slate-100">
          {sessions.data.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              pending={revoke.isPending && revoke.variables === session.id}
              onSignOut={() => {
                revokeOthers.reset();
                revoke.mutate(session.id);
              }}
            />
          ))}
        </ul>
      )}

      {outcome ? (
        <div className="mt-4">
          <FormMessage tone={outcome.tone}>{outcome.text}</FormMessage>
        </div>
      ) : null}
    </section>
  );
}
