import { describe, expect, it } from "vitest";
import { readEmbedQuery } from "../src/embed/url.ts";
import {
  decodeControlValue,
  encodeControlList,
  encodeControlRange,
  encodeControlValue,
  singleValueOf,
} from "../src/workbooks/control-values.ts";
import { parseDateRange } from "../src/workbooks/run.ts";

describe("control values in Sigma's URL form", () => {
  it("encodes each value with encodeURIComponent and joins a list with plain commas", () => {
    expect(encodeControlList(["Greg Humphrey", "Xiaoyu Xu", "Meera Deshpande"])).toBe(
      "Greg%20Humphrey,Xiaoyu%20Xu,Meera%20Deshpande",
    );
    // A comma inside a value is %2C; the separators stay plain.
    expect(encodeControlList(["30", "450", "2,000", "600"])).toBe("30,450,2%2C000,600");
    expect(encodeControlList(["Smith, Jones & Co"])).toBe("Smith%2C%20Jones%20%26%20Co");
    expect(encodeControlList(["Zoë Ltd", "東京"])).toBe("Zo%C3%AB%20Ltd,%E6%9D%B1%E4%BA%AC");
    expect(encodeControlList([""])).toBe(":empty");
    expect(encodeControlValue({ kind: "null" })).toBe(":null");
  });

  it("writes dates and date-times as they are, in lists and ranges", () => {
    expect(encodeControlList(["1970-05-01", "1991-01-24"])).toBe("1970-05-01,1991-01-24");
    expect(encodeControlList(["2024-05-01T08:00Z"])).toBe("2024-05-01T08:00Z");
    expect(encodeControlRange("2024-04-01", null)).toBe("min:2024-04-01,max:");
    expect(encodeControlRange("1,000", "3,000")).toBe("min:1%2C000,max:3%2C000");
    expect(encodeControlValue({ kind: "range", min: null, max: "100,000" })).toBe("min:,max:100%2C000");
  });

  it("reads what it writes, and Sigma's documented examples", () => {
    for (const values of [["Smith, Jones & Co"], ["Zoë Ltd", "Plain", "a%b"], ["東京", "2,000"]]) {
      expect(decodeControlValue(encodeControlList(values))).toEqual({ kind: "list", values });
    }
    expect(decodeControlValue("sales-amount")).toEqual({ kind: "list", values: ["sales-amount"] });
    expect(decodeControlValue("30,450,2%2C000,600")).toEqual({
      kind: "list",
      values: ["30", "450", "2,000", "600"],
    });
    expect(decodeControlValue("min:4000.5,max:")).toEqual({ kind: "range", min: "4000.5", max: null });
    expect(decodeControlValue("min:1%2C000,max:3%2C000")).toEqual({
      kind: "range",
      min: "1,000",
      max: "3,000",
    });
    expect(decodeControlValue("start:2024-04-01,end:2024-04-30")).toEqual({
      kind: "range",
      min: "2024-04-01",
      max: "2024-04-30",
    });
    expect(decodeControlValue("min:,max:")).toEqual({ kind: "range", min: null, max: null });
    expect(decodeControlValue(":null")).toEqual({ kind: "null" });
    expect(decodeControlValue(":empty")).toEqual({ kind: "list", values: [""] });
    // An encoded colon is part of a value, not a range.
    expect(decodeControlValue("min%3A1,max%3A2")).toEqual({ kind: "list", values: ["min:1", "max:2"] });
    expect(decodeControlValue("bad%E0%A4")).toBeUndefined();
  });

  it("a single-value control takes exactly one value", () => {
    expect(singleValueOf("Smith%2C%20Jones%20%26%20Co")).toBe("Smith, Jones & Co");
    expect(singleValueOf("Smith,Jones")).toBeUndefined();
    expect(singleValueOf(":null")).toBeUndefined();
    expect(singleValueOf("min:1,max:2")).toBeUndefined();
    expect(singleValueOf(undefined)).toBeUndefined();
  });

  it("a date range control reads ranges, :null, date-times and this server's presets", () => {
    const asOf = "2026-11-20";
    const start = "2020-01-02";
    const range = (raw: string) => parseDateRange(decodeControlValue(raw), "ytd", asOf, start);
    expect(range("min:2026-10-01,max:2026-10-31")).toEqual({ start: "2026-10-01", end: "2026-10-31" });
    expect(range("min:2026-10-01T08:00Z,max:")).toEqual({ start: "2026-10-01", end: asOf });
    expect(range("min:,max:2021-01-01")).toEqual({ start, end: "2021-01-01" });
    expect(range(":null")).toEqual({ start, end: asOf });
    expect(range("mtd")).toEqual({ start: "2026-11-01", end: asOf });
    expect(range("min:yesterday,max:")).toEqual({ start: "2026-01-01", end: asOf });
  });
});

describe("the embed URL's query, read from the raw URL", () => {
  it("keeps control values as written and decodes the : parameters", () => {
    const q = readEmbedQuery(
      "/local/workbook/X-abc?:jwt=a.b.c&:embed=true&:theme=Dark&Entities=Zo%C3%AB%20Ltd,Smith%2C%20Jones" +
        "&Period=min:2026-10-01,max:2026-10-31&:accent_color=%231f4e8c&Entities=ignored",
    );
    expect(q.invalid).toEqual([]);
    expect(Object.fromEntries(q.ui)).toEqual({
      ":jwt": "a.b.c",
      ":embed": "true",
      ":theme": "Dark",
      ":accent_color": "#1f4e8c",
    });
    expect(Object.fromEntries(q.controls)).toEqual({
      Entities: "Zo%C3%AB%20Ltd,Smith%2C%20Jones",
      Period: "min:2026-10-01,max:2026-10-31",
    });
  });

  it("names the : parameters Sigma does not have", () => {
    const q = readEmbedQuery("/x?:jwt=t&:nodeId=abc&%3Ahide_title=true&:lng=fr&:menu_position=top&:bad=%E0");
    expect(q.invalid).toEqual([":nodeId", ":hide_title", ":bad"]);
    expect(readEmbedQuery("/x").invalid).toEqual([]);
  });
});
