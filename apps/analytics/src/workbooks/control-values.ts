/**
 * Control values as Sigma writes them, in embed URLs (`<ControlId>=<value>`) and in the `variables` of
 * `workbook:loaded`, `workbook:variables:onchange`, `workbook:variables:current` and
 * `workbook:variables:update` ("Set control values in a URL using query string parameters"):
 *
 * - a value is `encodeURIComponent`'d, except dates and date-times (`2024-05-01`, `2024-05-01T08:00Z`);
 * - a list joins its values with plain commas: `Greg%20Humphrey,Xiaoyu%20Xu`; `%2C` is a comma inside a
 *   value (`2%2C000` is one value);
 * - a range is `min:<value>,max:<value>` (or `start:`/`end:`), either side blank: `min:2024-04-01,max:`;
 * - `:null` clears the control, `:empty` is the empty string.
 *
 * Used by the server (URL and data requests) and by the page (what it posts).
 */
export type TControlValue =
  | { kind: "null" }
  | { kind: "list"; values: string[] }
  | { kind: "range"; min: string | null; max: string | null };

const DATE_OR_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z?)?$/;
const RANGE = /^(?:min|start):([^,]*),(?:max|end):([^,]*)$/;

/** One value, encoded (dates and date-times are written as they are). */
export function encodeControlItem(value: string): string {
  return DATE_OR_DATE_TIME.test(value) ? value : encodeURIComponent(value);
}

/** A single value or a list: each value encoded, joined by plain commas; `:empty` for the empty string. */
export function encodeControlList(values: readonly string[]): string {
  if (values.length === 1 && values[0] === "") return ":empty";
  return values.map(encodeControlItem).join(",");
}

export function encodeControlRange(min: string | null, max: string | null): string {
  return `min:${min === null ? "" : encodeControlItem(min)},max:${max === null ? "" : encodeControlItem(max)}`;
}

export function encodeControlValue(value: TControlValue): string {
  if (value.kind === "null") return ":null";
  if (value.kind === "range") return encodeControlRange(value.min, value.max);
  return encodeControlList(value.values);
}

function decodeItem(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Reads a control value as Sigma writes it; undefined when it cannot be read (a malformed `%` escape). */
export function decodeControlValue(raw: string): TControlValue | undefined {
  if (raw === ":null") return { kind: "null" };
  if (raw === ":empty") return { kind: "list", values: [""] };
  const range = RANGE.exec(raw);
  if (range) {
    const side = (s: string) => (s === "" || s === ":null" ? null : decodeItem(s));
    const min = side(range[1] as string);
    const max = side(range[2] as string);
    if (min === undefined || max === undefined) return undefined;
    return { kind: "range", min, max };
  }
  const values = raw.split(",").map(decodeItem);
  if (values.some((v) => v === undefined)) return undefined;
  return { kind: "list", values: values as string[] };
}

/** The one value of a single-value control, or undefined (cleared, a list of several, a range, unreadable). */
export function singleValueOf(raw: string | undefined): string | undefined {
  const value = raw === undefined ? undefined : decodeControlValue(raw);
  return value?.kind === "list" && value.values.length === 1 ? value.values[0] : undefined;
}
