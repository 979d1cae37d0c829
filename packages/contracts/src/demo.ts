/**
 * Demo identities shared by the portal's demo seed and the built-in analytics server's demo data,
 * so that the demo clients of the portal are clients there too. Used only when DEMO_DATA is on.
 */
export const DEMO_FIRM = { name: "Meridian Tax & Wealth", domain: "meridian-advisory.example" } as const;

export const DEMO_ADMIN = {
  email: "admin@meridian-advisory.example",
  name: "Avery Admin",
  password: "demo-ledger-vault-42",
  /**
   * The demo admin's two-step verification is set up in advance with this fixed TOTP key (raw, as Better
   * Auth keeps it; authenticator apps get its base32 form, printed at start). Demo only: DEVIATIONS D30.
   */
  totpSecret: "meridian-demo-admin-totp-key-0042",
} as const;

export const DEMO_CLIENTS = [
  {
    clientId: "CL-1001",
    firstName: "Olivia",
    lastName: "Bennett",
    email: "olivia.bennett@example.com",
    password: "demo-client-harbor-17",
    privilege: "View",
  },
  {
    clientId: "CL-1002",
    firstName: "Marcus",
    lastName: "Chen",
    email: "marcus.chen@example.com",
    password: "demo-client-summit-29",
    privilege: "Analyze",
  },
] as const;

export const DEMO_EMPLOYEE = {
  employeeId: "EM-2001",
  firstName: "Priya",
  lastName: "Raman",
  email: "priya.raman@meridian-advisory.example",
  password: "demo-advisor-compass-63",
  privilege: "Act",
  clientIds: ["CL-1001", "CL-1002"],
} as const;

/** Sigma-style workbook names: `<Name>-<workbookUrlId>`; the sidebar label is the part before the last hyphen. */
export const DEMO_WORKBOOKS = [
  { workbookName: "Portfolio-Overview-wBUBiChqcA6De2yMJGx4YJ", teamName: "Portfolio Clients" },
  { workbookName: "Tax-Center-hPiZspmSJMAnf8GyCctPAE", teamName: "Tax Clients" },
  { workbookName: "Income-and-Fees-hHwcpUAGGDWoQ6BGciXRUW", teamName: "Income Clients" },
] as const;
