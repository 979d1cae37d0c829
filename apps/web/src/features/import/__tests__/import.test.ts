import { describe, expect, it } from "vitest";

import { previewSummary, progressPercent, unmappedRequired, withColumn } from "../utils/import";

describe("CSV import helpers", () => {
  it("reports progress in whole percent and never above 100", () => {
    expect(progressPercent({ done: 0, total: 25 })).toBe(0);
    expect(progressPercent({ done: 12, total: 25 })).toBe(48);
    expect(progressPercent({ done: 25, total: 25 })).toBe(100);
    expect(progressPercent({ done: 0, total: 0 })).toBe(100);
  });

  it("moves a column to another field, freeing it where it was", () => {
    expect(withColumn({ clientId: 0, email: 3 }, "firstName", 0)).toEqual({ email: 3, firstName: 0 });
    expect(withColumn({ clientId: 0, email: 3 }, "email", null)).toEqual({ clientId: 0 });
  });

  it("names the required fields that have no column; the workbooks and the password may be left out", () => {
    expect(unmappedRequired("client", { clientId: 0, firstName: 1, lastName: 2, email: 3 })).toEqual([
      "Privilege",
    ]);
    expect(unmappedRequired("employee", {})).toContain("Employee ID");
  });

  it("sums up a preview", () => {
    expect(previewSummary({ kind: "client", total: 25, valid: 20, invalid: 5, skipped: 0 })).toBe(
      "25 rows in the file: 20 rows ready to import, 5 rows with problems.",
    );
    expect(previewSummary({ kind: "client", total: 21, valid: 0, invalid: 1, skipped: 20 })).toBe(
      "21 rows in the file: 0 rows ready to import, 20 rows already in the portal (skipped), 1 row with problems.",
    );
  });
});
