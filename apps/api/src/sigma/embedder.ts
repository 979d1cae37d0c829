import { createEmbedMinter, loadOrCreateLocalSigmaCredentials, type MintedEmbedUrl } from "@portal/sigma";
import type { TPrivilege } from "@portal/contracts";
import type { AppConfig } from "../config.ts";

export interface EmbedUser {
  email: string;
  firstName: string;
  lastName: string;
  privilege: TPrivilege;
  /** The complete team list: Sigma replaces the user's teams with it on every embed. */
  teams: string[];
  userAttributes: Record<string, string>;
  /**
   * The person's Sigma member also signs in to Sigma directly (`userKind` other than `embed`, linked by the
   * outbox): their token carries no user claims, so Sigma's own account type, teams and attributes stay.
   */
  managedInSigma?: boolean;
  /** Whether the outbox has looked the person's email up in the BI service yet (`bi_members`). */
  linked?: boolean;
}

export interface Embedder {
  /** A one-time URL whose embed session ends after SIGMA_EMBED_SESSION_SECONDS, or at `notAfter` if sooner. */
  mint(user: EmbedUser, workbookName: string, options?: { notAfter?: Date }): Promise<MintedEmbedUrl>;
}

export interface EmbedderOptions {
  /**
   * The firm's primary colour (`#rrggbb`, decision 014). The built-in analytics server reads it as
   * `:accent_color`; a Sigma org takes no colour in the URL, so there `:theme` (SIGMA_EMBED_UI) names the org's
   * custom theme made in the firm's colour (README, Sigma).
   */
  accent?: () => Promise<string>;
}

/** The embed parameter the built-in analytics server takes its accent colour from (not sent to Sigma). */
export const ACCENT_PARAM = ":accent_color";

/**
 * The portal's one way to mint Sigma embed URLs. The same code serves a real Sigma org and the
 * built-in analytics server; only the configuration differs.
 */
export function createEmbedder(config: AppConfig, options: EmbedderOptions = {}): Embedder {
  let minter: Promise<ReturnType<typeof createEmbedMinter>> | undefined;
  const ready = () =>
    (minter ??= (
      config.sigma.embed
        ? Promise.resolve(config.sigma.embed)
        : loadOrCreateLocalSigmaCredentials(config.dataDir).then((c) => ({
            clientId: c.embedClientId,
            secret: c.embedSecret,
          }))
    ).then(({ clientId, secret }) =>
      createEmbedMinter({
        embedBaseUrl: config.sigma.embedBaseUrl,
        clientId,
        secret,
        lifetimeSeconds: config.sigma.embedSessionSeconds,
        ui: config.sigma.ui,
      }),
    ));

  return {
    async mint(user, workbookName, { notAfter } = {}) {
      const mint = await ready();
      const minted = mint({
        workbookName,
        ...(notAfter ? { notAfter } : {}),
        user: user.managedInSigma
          ? { kind: "internal", email: user.email }
          : {
              email: user.email,
              firstName: user.firstName,
              lastName: user.lastName,
              accountType: config.sigma.accountTypes[user.privilege],
              teams: user.teams,
              userAttributes: user.userAttributes,
            },
      });
      if (!config.sigma.builtIn || !options.accent) return minted;
      // Only the look: unsigned, like every UI parameter, and checked again by the analytics server.
      const accent = await options.accent();
      return { ...minted, url: `${minted.url}&${ACCENT_PARAM}=${encodeURIComponent(accent)}` };
    },
  };
}
