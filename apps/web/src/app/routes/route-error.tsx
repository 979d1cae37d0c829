import { isRouteErrorResponse, useRouteError } from "react-router";

import { ErrorScreen } from "@/components/ui/error-screen";
import { getErrorMessage } from "@/lib/errors";

import { NotFound } from "./not-found";

/** Error boundary of a route section: a failure in one screen does not blank the whole portal. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  console.error(error);
  return <ErrorScreen message={getErrorMessage(error, "This page could not be shown. Please try again.")} />;
}
