import { describe, expect, it } from "vitest";
import { findCycles as find, SOURCE_TREES as trees } from "../../../scripts/lib/cycles.mjs";

const FIXTURES = "apps/api/test/fixtures/cycles";

describe("the import cycle check (npm run lint:cycles, part of npm run lint)", () => {
  it("finds a ring of three modules", async () => {
    const cycles = await find({ paths: [`${FIXTURES}/ring`] });
    expect(cycles).toHaveLength(1);
    expect([...cycles[0]!].sort()).toEqual(["a.ts", "b.ts", "c.ts"].map((f) => `${FIXTURES}/ring/${f}`));
  });

  it("finds a ring made of type-only imports", async () => {
    const cycles = await find({ paths: [`${FIXTURES}/types`] });
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toHaveLength(2);
  });

  it("finds nothing where imports go one way", async () => {
    expect(await find({ paths: [`${FIXTURES}/line`] })).toEqual([]);
  });

  it("finds no cycle in the portal's own source", async () => {
    expect(trees.flatMap((tree) => tree.paths)).toEqual(
      expect.arrayContaining([
        "apps/api/src",
        "apps/web/src",
        "apps/analytics/src",
        "packages/contracts/src",
      ]),
    );
    for (const tree of trees) expect(await find(tree), tree.paths.join(", ")).toEqual([]);
  });
});
