// Import cycles across the code base, found with madge. Type-only imports count too: a cycle through a type is
// still two modules that cannot be understood (or moved) one without the other.
import path from "node:path";
import madge from "madge";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The source trees checked, each with the tsconfig paths it resolves imports with. */
export const SOURCE_TREES = [
  { paths: ["apps/api/src", "apps/api/bench"] },
  { paths: ["apps/analytics/src", "apps/analytics/web", "apps/analytics/bench"] },
  { paths: ["packages/contracts/src", "packages/sigma/src"] },
  { paths: ["apps/web/src"], baseDir: "apps/web", aliases: { "@/*": ["src/*"] } },
];

/**
 * The cycles among the modules under `paths` (relative to the repository, or absolute), each as the list of
 * files (relative to the repository) that import each other in a ring.
 * @param {{ paths: string[], baseDir?: string, aliases?: Record<string, string[]> }} tree
 * @returns {Promise<string[][]>}
 */
export async function findCycles({ paths, baseDir, aliases }) {
  const absolute = paths.map((p) => path.resolve(ROOT, p));
  const result = await madge(absolute, {
    baseDir: ROOT,
    fileExtensions: ["ts", "tsx", "mjs", "js"],
    excludeRegExp: [/node_modules/, /\.d\.m?ts$/],
    tsConfig: {
      compilerOptions: {
        module: "esnext",
        moduleResolution: "bundler",
        allowImportingTsExtensions: true,
        ...(baseDir && aliases && { baseUrl: path.resolve(ROOT, baseDir), paths: aliases }),
      },
    },
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  return result.circular();
}
