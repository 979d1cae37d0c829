import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROLES, type TRole } from "@portal/contracts";
import { ZEmbedUiParamsSchema, type TEmbedUiParams } from "@portal/sigma";

// What `loadConfig` (config.ts) reads beyond its zod schema: the values it parses itself, each parser adding
// what is wrong to `problems` (start-up stops with one readable list), and the generated auth secret.

export interface SocialProviderConfig {
  clientId: string;
  clientSecret: string;
}

const PRIVILEGE_NAMES = ["Build", "Analyze", "Act", "View"] as const;

/** Privilege → a name in the BI service (an account type, a member type). */
export type PrivilegeMap = Record<(typeof PRIVILEGE_NAMES)[number], string>;

export function parsePrivilegeMap(
  problems: string[],
  name: string,
  raw: string | undefined,
  defaults: PrivilegeMap,
): PrivilegeMap {
  const map = { ...defaults };
  if (!raw) return map;
  for (const pairText of raw.split(",")) {
    const [key, value] = pairText.split("=").map((p) => p.trim());
    if (!key || !value || !(PRIVILEGE_NAMES as readonly string[]).includes(key)) {
      problems.push(`${name}: "${pairText}" is not <Build|Analyze|Act|View>=<name>`);
      continue;
    }
    map[key as keyof typeof map] = value;
  }
  return map;
}

const UI_BOOLEAN_OPTIONS = new Set([
  "hide_menu",
  "hide_folder_navigation",
  "hide_bookmarks",
  "hide_explore_toggle",
  "hide_tooltip",
  "responsive_height",
]);

/** "theme=Dark,menu_position=none,hide_bookmarks=true" → Sigma's embed UI options, validated. */
export function parseEmbedUi(problems: string[], raw: string | undefined): TEmbedUiParams {
  if (!raw?.trim()) return {};
  const entries: Record<string, string | boolean> = {};
  for (const pairText of raw.split(",")) {
    const [key = "", value = ""] = pairText.split("=").map((p) => p.trim());
    if (!key || !value) {
      problems.push(`SIGMA_EMBED_UI: "${pairText}" is not <option>=<value>`);
      continue;
    }
    if (UI_BOOLEAN_OPTIONS.has(key) && value !== "true" && value !== "false") {
      problems.push(`SIGMA_EMBED_UI: ${key} must be true or false`);
      continue;
    }
    entries[key] = UI_BOOLEAN_OPTIONS.has(key) ? value === "true" : value;
  }
  const parsed = ZEmbedUiParamsSchema.strict().safeParse(entries);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const where = issue.path.length
        ? issue.path.join(".")
        : (issue as { keys?: string[] }).keys?.join(", ");
      problems.push(`SIGMA_EMBED_UI: ${where}: ${issue.message}`);
    }
    return {};
  }
  return parsed.data;
}

/** "admin,employee" → the roles, each one of ROLES; "" → none. */
export function parseRoleList(problems: string[], name: string, raw: string): TRole[] {
  const roles: TRole[] = [];
  for (const part of raw.split(",")) {
    const role = part.trim().toLowerCase();
    if (!role) continue;
    if (!(ROLES as readonly string[]).includes(role)) {
      problems.push(`${name}: "${part.trim()}" is not a role (${ROLES.join(", ")})`);
      continue;
    }
    if (!roles.includes(role as TRole)) roles.push(role as TRole);
  }
  return roles;
}

export function pair(
  problems: string[],
  name: string,
  id: string | undefined,
  secret: string | undefined,
  secretName = `${name}_CLIENT_SECRET`,
): SocialProviderConfig | undefined {
  if (!id && !secret) return undefined;
  if (!id || !secret) {
    problems.push(`${name}_CLIENT_ID and ${secretName} must be set together`);
    return undefined;
  }
  return { clientId: id, clientSecret: secret };
}

/** Secrets the embedded default needs are generated once and kept under DATA_DIR (never in production). */
export function loadOrCreateAuthSecret(dataDir: string): string {
  const file = path.join(dataDir, "secrets.json");
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, "utf8")) as { authSecret?: string };
    if (stored.authSecret) return stored.authSecret;
  }
  mkdirSync(dataDir, { recursive: true });
  const authSecret = randomBytes(32).toString("base64url");
  writeFileSync(file, JSON.stringify({ authSecret }, null, 2), { mode: 0o600 });
  return authSecret;
}
