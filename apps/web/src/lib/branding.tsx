import { createContext, useContext, useLayoutEffect } from "react";
import type { ReactNode } from "react";

import { DEFAULT_BRANDING, HEX_COLOUR, ZBrandingSchema } from "@portal/contracts";
import type { TBranding } from "@portal/contracts";

import { apiRequest } from "./api-client";

/** GET /api/branding: the firm's name, colour, support email and logo (public; the sign-in page reads it). */
export function getBranding(signal?: AbortSignal): Promise<TBranding> {
  return apiRequest("/api/branding", {
    schema: ZBrandingSchema,
    fallbackError: "The firm's branding could not be loaded.",
    signal,
  });
}

const BrandingContext = createContext<TBranding>(DEFAULT_BRANDING);

/** The firm the portal wears (the demo firm until an admin sets its own, /admin/settings). */
export function useFirm(): TBranding {
  return useContext(BrandingContext);
}

/**
 * Gives its children the firm's branding and paints the page in its primary colour: `--color-brand`, which
 * primary buttons and the shells' accents use (index.css). White text on it reaches WCAG AA (checked on save).
 */
export function BrandingProvider({ branding, children }: { branding: TBranding; children: ReactNode }) {
  const colour = branding.primaryColour;
  useLayoutEffect(() => {
    if (!HEX_COLOUR.test(colour)) return;
    document.documentElement.style.setProperty("--color-brand", colour);
  }, [colour]);
  return <BrandingContext value={branding}>{children}</BrandingContext>;
}
