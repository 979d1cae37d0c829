import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ANALYTICS_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DIST_DIR = path.join(ANALYTICS_ROOT, "dist");
const MANIFEST = path.join(DIST_DIR, ".vite", "manifest.json");
const ENTRY = "web/main.tsx";

export interface FrontEndAssets {
  script: string;
  /**
   * The page's stylesheet, written into the page's head: the skeleton is then laid out styled from the first
   * layout (a linked sheet left an unstyled layout that counted as a layout shift), and one request fewer.
   */
  css: string;
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

async function loadFrontEndAssets(): Promise<FrontEndAssets> {
  const manifest = JSON.parse(await readFile(MANIFEST, "utf8")) as Record<
    string,
    { file: string; css?: string[]; isEntry?: boolean }
  >;
  const entry = manifest[ENTRY];
  if (!entry) throw new Error(`${MANIFEST} has no entry ${ENTRY}; rebuild the analytics front end`);
  const sheets = await Promise.all((entry.css ?? []).map((c) => readFile(path.join(DIST_DIR, c), "utf8")));
  const css = sheets.join("\n");
  // Inside a <style> element only "</style" could end it early; the built CSS never holds one.
  if (/<\/style/i.test(css)) throw new Error(`${ENTRY}'s CSS holds "</style"; it cannot be written inline`);
  return { script: `/${entry.file}`, css };
}

let loaded: { builtAt: number; assets: Promise<FrontEndAssets> } | undefined;

/** The built front end's entry script and CSS, read again only when the front end is rebuilt. */
export async function readFrontEndAssets(): Promise<FrontEndAssets> {
  const builtAt = (await stat(MANIFEST)).mtimeMs;
  if (loaded?.builtAt !== builtAt) {
    const assets = loadFrontEndAssets();
    loaded = { builtAt, assets };
    assets.catch(() => {
      if (loaded?.assets === assets) loaded = undefined;
    });
  }
  return loaded.assets;
}
