import { KeyRoundIcon } from "lucide-react";

import type { TSocialProviderId } from "@portal/contracts";

/**
 * Simplified marks of the sign-in providers, drawn for the portal (no third-party assets are loaded): brand
 * marks are not in the icon set (lucide), so they are kept here, as plain SVG, in this one file.
 */
function GoogleIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true" focusable="false">
      <g fill="none" strokeWidth="3.6">
        <path d="M19.75 7.18A7.5 7.5 0 0 0 4.95 9.43" stroke="#EA4335" />
        <path d="M4.95 9.43a7.5 7.5 0 0 0 0 5.14" stroke="#FBBC05" />
        <path d="M4.95 14.57A7.5 7.5 0 0 0 17.3 17.3" stroke="#34A853" />
        <path d="M17.3 17.3A7.5 7.5 0 0 0 19.5 12H12" stroke="#4285F4" />
      </g>
    </svg>
  );
}

function MicrosoftIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="8.5" height="8.5" fill="#F25022" />
      <rect x="12.5" y="3" width="8.5" height="8.5" fill="#7FBA00" />
      <rect x="3" y="12.5" width="8.5" height="8.5" fill="#00A4EF" />
      <rect x="12.5" y="12.5" width="8.5" height="8.5" fill="#FFB900" />
    </svg>
  );
}

function GitHubIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="10" fill="#181717" />
      <path
        d="M9.6 19.6v-2.2c-2.3.5-2.8-1-2.8-1-.4-1-.9-1.2-.9-1.2-.8-.5 0-.5 0-.5.8.1 1.3.9 1.3.9.7 1.3 2 .9 2.4.7.1-.5.3-.9.5-1.1-1.8-.2-3.7-.9-3.7-4.1 0-.9.3-1.6.8-2.2-.1-.2-.4-1 .1-2.2 0 0 .7-.2 2.2.8a7.6 7.6 0 0 1 4 0c1.5-1 2.2-.8 2.2-.8.4 1.2.2 2 .1 2.2.5.6.8 1.3.8 2.2 0 3.2-1.9 3.9-3.7 4.1.3.3.6.8.6 1.5v2.6"
        fill="#fff"
      />
    </svg>
  );
}

function AppleIcon() {
  return (
    <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true" focusable="false">
      <path
        fill="#111827"
        d="M16.4 12.7c0-2.1 1.7-3.1 1.8-3.2-1-1.4-2.5-1.6-3-1.7-1.3-.1-2.5.8-3.1.8-.7 0-1.7-.8-2.7-.7-1.4 0-2.7.8-3.4 2-1.5 2.5-.4 6.3 1 8.3.7 1 1.5 2.1 2.6 2.1 1 0 1.4-.7 2.7-.7 1.2 0 1.6.7 2.7.7s1.8-1 2.5-2c.8-1.1 1.1-2.3 1.1-2.3s-2.2-.9-2.2-3.3zM14.4 6.5c.6-.7.9-1.6.8-2.5-.8 0-1.8.5-2.4 1.2-.5.6-1 1.5-.9 2.4.9.1 1.9-.4 2.5-1.1z"
      />
    </svg>
  );
}

export function ProviderIcon({ provider }: { provider: TSocialProviderId }) {
  switch (provider) {
    case "google":
      return <GoogleIcon />;
    case "microsoft":
      return <MicrosoftIcon />;
    case "github":
      return <GitHubIcon />;
    case "apple":
      return <AppleIcon />;
    case "oidc":
      return <KeyRoundIcon className="size-5 text-navy-800" />;
  }
}
