import { ESLint } from "eslint";
import type { Linter } from "eslint";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The web app's layout rules of `eslint.config.js` (CODE_STYLE.md, web): a feature imports no other feature,
 * components/ and lib/ import no feature, and file names are kebab-case. Each fixture of `lint-fixtures/`
 * (ignored by `npm run lint`) is linted with the repository's own config as if it were a file at the given
 * place in apps/web/src, so each rule is seen to fire where it must and to keep quiet where it must not.
 */
const root = fileURLToPath(new URL("../../../", import.meta.url));
const fixture = (name: string) => readFileSync(new URL(`./lint-fixtures/${name}`, import.meta.url), "utf8");

const BOUNDARY = "import-x/no-restricted-paths";
const FILE_NAME = "check-file/filename-naming-convention";
const FOLDER_NAME = "check-file/folder-naming-convention";
const TEST_NAME = "check-file/filename-blocklist";

const eslint = new ESLint({ cwd: root });

/** The problems ESLint reports for `code` as the file `at` (a path under apps/web/src). */
async function lint(code: string, at: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}apps/web/src/${at}` });
  return result?.messages ?? [];
}

const reported = (messages: Linter.LintMessage[], ruleId: string) =>
  messages.filter((message) => message.ruleId === ruleId);

// Loading the config and its plugins takes a few seconds on a busy machine; the cases then take milliseconds.
beforeAll(() => lint("", "lib/warm-up.ts"), 60_000);

describe("feature boundaries", () => {
  it("refuses another feature's module in a feature, through the alias and through a relative path", async () => {
    const messages = await lint(fixture("cross-feature-import.ts"), "features/people/components/fixture.ts");
    const refused = reported(messages, BOUNDARY);
    expect(refused.map((message) => message.line)).toEqual([3, 5]);
    expect(refused[0]?.message).toContain('"@/features/workbooks/api/get-my-workbooks"');
    expect(refused[1]?.message).toContain('"../../workbooks/utils/select-workbook"');
    expect(refused[0]?.message).toContain("features/people imports only itself, components/ and lib/");
  });

  it("lets a feature import itself, components/ and lib/", async () => {
    expect(await lint(fixture("allowed-imports.ts"), "features/workbooks/components/fixture.ts")).toEqual([]);
    // The same imports that another feature may not make are its own in features/workbooks.
    const own = await lint(fixture("cross-feature-import.ts"), "features/workbooks/components/fixture.ts");
    expect(reported(own, BOUNDARY)).toEqual([]);
  });

  it("refuses a feature's module in components/ and lib/", async () => {
    for (const at of ["components/admin/fixture.ts", "lib/fixture.ts"]) {
      const refused = reported(await lint(fixture("shared-imports-feature.ts"), at), BOUNDARY);
      expect(refused.map((message) => message.line)).toEqual([3]);
      expect(refused[0]?.message).toContain("components/ and lib/ are shared by every feature");
    }
  });

  it("lets components/ and lib/ import each other", async () => {
    const code =
      'import { cn } from "@/components/ui/cn";\nimport { getErrorMessage } from "@/lib/errors";\n\nexport const shared = [cn, getErrorMessage];\n';
    expect(await lint(code, "lib/fixture.ts")).toEqual([]);
  });
});

describe("file names", () => {
  it("wants kebab-case file names, React components included", async () => {
    const code = fixture("PersonCard.tsx");
    const misnamed = reported(await lint(code, "features/people/components/PersonCard.tsx"), FILE_NAME);
    expect(misnamed.map((message) => message.message)).toEqual([
      'The filename "PersonCard.tsx" does not match the "KEBAB_CASE" pattern',
    ]);
    expect(await lint(code, "features/people/components/person-card.tsx")).toEqual([]);
  });

  it("wants kebab-case folder names (and __tests__)", async () => {
    const code = fixture("PersonCard.tsx");
    const misnamed = reported(await lint(code, "features/people/Components/person-card.tsx"), FOLDER_NAME);
    expect(misnamed).toHaveLength(1);
    expect(await lint("export const one = 1;\n", "features/people/__tests__/person-card.test.ts")).toEqual(
      [],
    );
  });

  it("wants `<name>.test.ts` in __tests__", async () => {
    const code = "export const one = 1;\n";
    expect(
      reported(await lint(code, "features/people/__tests__/person-card.spec.ts"), TEST_NAME),
    ).toHaveLength(1);
    expect(
      reported(await lint(code, "features/people/__tests__/person-card.test.tsx"), TEST_NAME),
    ).toHaveLength(1);
  });
});
