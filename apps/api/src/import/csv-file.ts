import { IMPORT_MAX_ROWS } from "@portal/contracts";
import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { neutraliseCell } from "../audit/csv.ts";
import { AppError } from "../lib/errors.ts";

export interface ParsedCsv {
  headers: string[];
  /** Each data row with its line number in the file (the header is line 1); blank lines are left out. */
  rows: { line: number; cells: string[] }[];
}

const notCsv = (message: string) => new AppError(400, message, "NOT_CSV");

/**
 * The uploaded bytes as text: UTF-8 only (with or without a byte order mark). Binary files, spreadsheets
 * saved in their own format and other encodings are refused with what to do instead, before anything is stored.
 */
export function decodeCsvFile(bytes: Buffer): string {
  if (bytes.length === 0) throw notCsv("The file is empty.");
  if (bytes.subarray(0, 4).equals(Buffer.from("PK\x03\x04", "latin1"))) {
    throw notCsv(
      "This is a spreadsheet workbook (.xlsx), not a CSV file. Save it as “CSV UTF-8” and upload that.",
    );
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new AppError(
      400,
      "The file is in UTF-16. Save it as “CSV UTF-8” and upload that.",
      "FILE_ENCODING",
    );
  }
  if (bytes.includes(0)) throw notCsv("The file is not a CSV file: it contains binary data.");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError(
      400,
      "The file is not UTF-8 text (perhaps Windows-1252 or Latin-1). Save it as “CSV UTF-8” and upload that.",
      "FILE_ENCODING",
    );
  }
}

/** The delimiter of the header line: comma, semicolon (spreadsheets in many European locales) or tab. */
function detectDelimiter(text: string): string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const outsideQuotes = firstLine.replace(/"[^"]*"/g, "");
  const counts = [",", ";", "\t"].map((d) => [d, outsideQuotes.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ",";
}

/**
 * Reads a CSV file with csv-parse: quoted cells (with commas, quotes and line breaks), a byte order mark,
 * CRLF or LF line ends. A row with more or fewer cells than the header is kept (and reported by the
 * validation), so one bad row does not refuse the file; a broken quote does, naming the line.
 */
export function parseCsv(text: string): ParsedCsv {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      delimiter: detectDelimiter(text.replace(/^\uFEFF/, "")),
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      // One record beyond the limit is enough to refuse the file.
      to: IMPORT_MAX_ROWS + 2,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw notCsv(`The file could not be read as CSV${line ? ` (line ${line})` : ""}: ${error.message}`);
    }
    throw error;
  }
  const [header, ...data] = records;
  if (!header || header.record.every((cell) => cell.trim() === ""))
    throw notCsv("The file has no header row.");
  if (data.length > IMPORT_MAX_ROWS) {
    throw new AppError(
      413,
      `The file has more than ${IMPORT_MAX_ROWS.toLocaleString("en")} rows. Split it into smaller files.`,
      "TOO_MANY_ROWS",
    );
  }
  const rows = data
    .filter(({ record }) => record.some((cell) => cell.trim() !== ""))
    .map(({ record, info }) => ({ line: info.lines, cells: record }));
  if (rows.length === 0) throw notCsv("The file has a header row but no people in it.");
  return { headers: header.record.map((cell) => cell.trim()), rows };
}

/**
 * The failed rows as a CSV file to fix and upload again: the file's own columns and an Error column.
 * Every cell that a spreadsheet would read as a formula is neutralised (a leading apostrophe).
 */
export function failedRowsCsv(headers: string[], rows: { cells: string[]; reason: string }[]): string {
  return stringify(
    [[...headers, "Error"], ...rows.map((row) => [...headers.map((_, i) => row.cells[i] ?? ""), row.reason])],
    {
      bom: true,
      record_delimiter: "windows",
      cast: { string: (value) => neutraliseCell(value) },
    },
  );
}
