import { describe, expect, it } from "vitest";

import { ZWorkbookSchema } from "@portal/contracts";
import type { TWorkbook } from "@portal/contracts";

import { passedRecord } from "../edit-state";
import { noticeFrom } from "../notice";

const workbook = { id: 3, workbook_name: "Tax-Center-hPiZspmSJMAnf8GyCctPAE", team_name: "Tax Clients" };
const matchesAnything = () => true;

describe("passedRecord", () => {
  it("takes the record the list passed along", () => {
    expect(passedRecord<TWorkbook>({ workbook }, "workbook", ZWorkbookSchema, matchesAnything)).toEqual(
      workbook,
    );
  });

  it("ignores missing or malformed state, and a record the address does not name", () => {
    expect(passedRecord<TWorkbook>(null, "workbook", ZWorkbookSchema, matchesAnything)).toBeUndefined();
    expect(
      passedRecord<TWorkbook>({ workbook: { id: "3" } }, "workbook", ZWorkbookSchema, matchesAnything),
    ).toBe(undefined);
    expect(
      passedRecord<TWorkbook>({ workbook }, "workbook", ZWorkbookSchema, (w) => w.id === 4),
    ).toBeUndefined();
  });
});

describe("noticeFrom", () => {
  it("reads a confirmation from navigation state", () => {
    expect(noticeFrom({ notice: "Client updated successfully!" })).toBe("Client updated successfully!");
    expect(noticeFrom({ notice: "" })).toBeUndefined();
    expect(noticeFrom(undefined)).toBeUndefined();
  });
});
