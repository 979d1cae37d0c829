import * as z from "zod/mini";

/**
 * The firm's branding as everyone may read it (`GET /api/branding`): on the sign-in page, in both shells, in
 * mail and in the embed theme. zod/mini, because the sign-in page reads it on its first load (decision 004).
 */
export const ZBrandingSchema = z.object({
  firmName: z.string(),
  /** `#rrggbb`, lower case; white text on it reaches WCAG AA (4.5:1). */
  primaryColour: z.string(),
  supportEmail: z.string(),
  /** Versioned (`?v=`), so it can be cached for good; null → the portal's built-in mark. */
  logoUrl: z.nullable(z.string()),
});
export type TBranding = z.infer<typeof ZBrandingSchema>;

/** What the portal wears until an admin sets its own: the demo firm, as the portal has always shown it. */
export const DEFAULT_BRANDING: TBranding = {
  firmName: "Meridian Tax & Wealth",
  primaryColour: "#13233f",
  supportEmail: "support@meridian-advisory.example",
  logoUrl: null,
};

/** A logo file may be at most this large (PNG or SVG). */
export const LOGO_MAX_BYTES = 512 * 1024;

/** `#rrggbb`: the only form a primary colour takes. */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
