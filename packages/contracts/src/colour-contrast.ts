import { HEX_COLOUR } from "./branding.ts";

// Its own module (not branding.ts): the sign-in page reads the branding, only the settings screen and the API
// check colours, and a module goes into one chunk with every export any chunk uses (decision 004).

/** WCAG 2.x AA for normal text: white text on the primary colour needs at least this contrast. */
export const MIN_CONTRAST_RATIO = 4.5;

/** WCAG 2.x relative luminance of a `#rrggbb` colour. */
function relativeLuminance(hex: string): number {
  const channel = (offset: number) => {
    const c = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.x contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/** The ratio as people read it: rounded down to two decimals, so 4.499 never shows as a passing 4.5. */
export function formatContrast(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}

/** Why a primary colour cannot be used, or undefined when white text on it reaches AA. */
export function primaryColourProblem(value: string): string | undefined {
  if (!HEX_COLOUR.test(value)) return "Primary colour must be a hex colour like #1f4e8c.";
  const ratio = contrastRatio(value, "#ffffff");
  if (ratio < MIN_CONTRAST_RATIO) {
    return `Primary colour ${value.toLowerCase()} has a contrast of ${formatContrast(ratio)} against white; at least 4.5:1 is needed (WCAG AA). Choose a darker colour.`;
  }
  return undefined;
}
