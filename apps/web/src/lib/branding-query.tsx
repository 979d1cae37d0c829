import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";

import { DEFAULT_BRANDING } from "@portal/contracts";
import type { TBranding } from "@portal/contracts";

import { BrandingProvider, getBranding } from "./branding";
import { queryClient } from "./query-client";

export const brandingQueryOptions = queryOptions({
  queryKey: ["branding"],
  queryFn: ({ signal }) => getBranding(signal),
  staleTime: 60_000,
});

/** Asks for the branding as the SPA starts, so the first screen already wears it. */
export function prefetchBranding() {
  void queryClient.prefetchQuery(brandingQueryOptions);
}

/** The firm's branding in the SPA (cached; /admin/settings refreshes it after a change). */
export function useBranding(): TBranding {
  return useQuery(brandingQueryOptions).data ?? DEFAULT_BRANDING;
}

/** The SPA's root: every screen (shells, legal pages, 404) wears the firm's branding. */
export function SpaBranding({ children }: { children: ReactNode }) {
  return <BrandingProvider branding={useBranding()}>{children}</BrandingProvider>;
}
