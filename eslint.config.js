import js from "@eslint/js";
import checkFile from "eslint-plugin-check-file";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { readdirSync } from "node:fs";
import path from "node:path";
import tseslint from "typescript-eslint";

// The web app's layout (CODE_STYLE.md, web): one folder per feature under features/, which imports only itself,
// components/ and lib/; components/ and lib/ import no feature (nor the routes of app/ or the sign-in page).
const WEB_SRC = "apps/web/src";
const WEB_FEATURES = readdirSync(path.join(import.meta.dirname, WEB_SRC, "features"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const webBoundaries = [
  ...WEB_FEATURES.map((feature) => ({
    target: `${WEB_SRC}/features/${feature}`,
    from: `${WEB_SRC}/features`,
    except: [`./${feature}`],
    message: `features/${feature} imports only itself, components/ and lib/: move what two features share to components/ or lib/, or let a route in app/ compose them.`,
  })),
  {
    target: [`${WEB_SRC}/components`, `${WEB_SRC}/lib`],
    from: [`${WEB_SRC}/features`, `${WEB_SRC}/app`, `${WEB_SRC}/login`],
    message: "components/ and lib/ are shared by every feature: they import no feature, route or page.",
  },
];

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/node_modules/**",
      ".tmp/**",
      "data/**",
      "test-results/**",
      "playwright-report/**",
      // Lint rules' test inputs, wrong on purpose: apps/web/test/lint-rules.test.ts lints them.
      "apps/web/test/lint-fixtures/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["apps/web/**/*.{ts,tsx}", "apps/analytics/web/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: [`${WEB_SRC}/**/*.{ts,tsx}`],
    plugins: { "import-x": importX, "check-file": checkFile },
    settings: {
      // Resolves `@/…` through the web app's tsconfig paths, so an alias import is checked like a relative one.
      "import-x/resolver-next": [
        createNodeResolver({
          extensions: [".ts", ".tsx", ".js", ".json"],
          tsconfig: { configFile: path.join(import.meta.dirname, "apps/web/tsconfig.json") },
        }),
      ],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: webBoundaries }],
      // File and folder names are kebab-case (React components too); a test is `__tests__/<name>.test.ts`.
      "check-file/filename-naming-convention": [
        "error",
        { [`${WEB_SRC}/**/*.{ts,tsx}`]: "KEBAB_CASE" },
        { ignoreMiddleExtensions: true },
      ],
      "check-file/folder-naming-convention": [
        "error",
        { [`${WEB_SRC}/**/`]: "KEBAB_CASE" },
        { ignoreWords: ["__tests__"] },
      ],
      "check-file/filename-blocklist": ["error", { [`${WEB_SRC}/**/__tests__/!(*.test.ts)`]: "*.test.ts" }],
    },
  },
  {
    // Small enough to hold in one's head, in every part: tests excepted (a describe block is a list of cases),
    // and the files that are tables rather than code (the database schema, the demo data's reference tables).
    files: ["apps/*/{src,web,bench}/**/*.{ts,tsx}", "packages/*/src/**/*.ts", "scripts/**/*.mjs"],
    ignores: [
      "**/__tests__/**",
      "apps/api/src/db/schema.ts",
      "apps/analytics/src/demo/reference.ts",
      "apps/analytics/src/demo/schema.ts",
    ],
    rules: {
      "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }],
      "max-lines-per-function": [
        "error",
        { max: 150, skipBlankLines: false, skipComments: false, IIFEs: true },
      ],
    },
  },
);
