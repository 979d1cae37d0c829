import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ANALYTICS_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DIST_DIR = path.join(ANALYTICS_ROOT, "dist");
const MANIFEST = path.join(DIST_DIR, ".vite", "manifest.json");
const ENTRY = "web/main.tsx";

export interface FrontEndAssets {
  script: string;
  styles: string[];
}

/**
 * Builds the embed front end (React + ECharts) into apps/analytics/dist with Vite. ECharts is bundled only
 * here, never in the portal's bundle.
 */
export async function buildAnalyticsFrontEnd(options: { quiet?: boolean } = {}): Promise<void> {
  const { build } = await import("vite");
  // Always React's production build: the tests run with NODE_ENV=test, which would otherwise give the
  // development build (a third larger and slower), and `npm start` serves whatever was built last.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      configFile: path.join(ANALYTICS_ROOT, "vite.config.ts"),
      root: ANALYTICS_ROOT,
      mode: "production",
      logLevel: options.quiet ? "warn" : "info",
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}

export function frontEndBuilt(): boolean {
  return existsSync(MANIFEST);
}

export async function readFrontEndAssets(): Promise<FrontEndAssets> {
  const manifest = JSON.parse(await readFile(MANIFEST, "utf8")) as Record<
    string,
    { file: string; css?: string[]; isEntry?: boolean }
  >;
  const entry = manifest[ENTRY];
  if (!entry) throw new Error(`${MANIFEST} has no entry ${ENTRY}; rebuild the analytics front end`);
  return { script: `/${entry.file}`, styles: (entry.css ?? []).map((c) => `/${c}`) };
}
