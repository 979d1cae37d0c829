import { isRouteErrorResponse, useRouteError } from "react-router";

import { Button } from "@/components/ui/button";
import { getErrorMessage } from "@/lib/errors";

import { NotFound } from "./not-found";

/** Error boundary of a route section: a failure in one screen does not blank the whole portal. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  console.error(error);

  return (
    <main
      role="alert"
      className="flex min-h-dvh flex-col items-center justify-center bg-slate-50 px-6 text-center"
    >
      <h1 className="text-2xl font-semibold text-navy-950">Something went wrong.</h1>
      <p className="mt-3 max-w-md text-slate-600">
        {getErrorMessage(error, "This page could not be shown. Please try again.")}
      </p>
      <Button className="mt-8" onClick={() => window.location.reload()}>
        Reload the page
      </Button>
    </main>
  );
}
