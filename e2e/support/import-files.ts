import { DEMO_WORKBOOKS } from "../../packages/contracts/src/demo.ts";

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/** A CSV file as a spreadsheet saves it: byte order mark, CRLF, quoted cells where needed. */
export function csvFile(rows: string[][]): Buffer {
  return Buffer.from("\uFEFF" + rows.map((r) => r.map(quote).join(",")).join("\r\n") + "\r\n");
}

export const CLIENT_HEADER = [
  "Client ID",
  "First name",
  "Last name",
  "E-mail",
  "Password",
  "Privilege",
  "Workbooks",
];

/** 20 good client rows and 5 bad ones (a missing email, an unknown privilege, an unknown workbook, an
 * email twice, a formula in a name with a bad email), all named after `token`. */
export function clientRows(token: string): { good: string[][]; bad: string[][] } {
  const good = Array.from({ length: 20 }, (_, i) => [
    `IMP-${token}-${i + 1}`,
    `Imported${i + 1}`,
    `Person ${token}`,
    `imported.${token}.${i + 1}@example.com`,
    `copper-valley-${i + 1}-lantern`,
    i % 2 ? "View" : "Analyze",
    i % 4 === 0 ? DEMO_WORKBOOKS[0].workbookName : "",
  ]);
  const bad = [
    [`BAD-${token}-1`, "Nora", `Noemail ${token}`, "", "copper-valley-bad-lantern", "View", ""],
    [
      `BAD-${token}-2`,
      "Pia",
      `Privilege ${token}`,
      `pia.${token}@example.com`,
      "copper-valley-bad-lantern",
      "Owner",
      "",
    ],
    [
      `BAD-${token}-3`,
      "Uma",
      `Workbook ${token}`,
      `uma.${token}@example.com`,
      "copper-valley-bad-lantern",
      "View",
      "No Such Workbook",
    ],
    [
      `BAD-${token}-4`,
      "Dee",
      `Twice ${token}`,
      `imported.${token}.3@example.com`,
      "copper-valley-bad-lantern",
      "View",
      "",
    ],
    [
      `BAD-${token}-5`,
      '=HYPERLINK("http://evil.example","x")',
      `Formula ${token}`,
      "not-an-email",
      "copper-valley-bad-lantern",
      "View",
      "",
    ],
  ];
  return { good, bad };
}
