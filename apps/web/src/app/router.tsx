import { createBrowserRouter, matchRoutes } from "react-router";
import type { RouteObject } from "react-router";

import type { TCrumbHandle } from "@/components/layouts/breadcrumbs";

import { FirstScreenStays, RootError, RootLayout } from "./first-screen";
import { guard, prefetchSession } from "./guards";
import { NotFound } from "./routes/not-found";
import { SignInHandOff } from "./routes/sign-in-hand-off";

const crumb = (label: TCrumbHandle["crumb"]): TCrumbHandle => ({ crumb: label });

/** `/` and `/workbooks/:workbookId`: the workbook view; its crumb names the workbook shown. */
const workbookRoute = () =>
  import("@/features/workbooks/components/workbook-page").then((m) => ({
    Component: m.WorkbookPage,
    handle: m.workbookCrumb,
  }));

/**
 * The route table of spec section 2. The sign-in screens (/login, /admin-login, /reset-password) are their own
 * page, `login.html` (decision 004): here they only hand over to it with a full page load. Everything else
 * loads on demand. Guards run as loaders, so a visitor who does not belong is redirected before the screen
 * renders; 'Checking authentication...' (index.html's first screen) shows while the first one runs.
 */
const routes: RouteObject[] = [
  {
    id: "root",
    Component: RootLayout,
    HydrateFallback: FirstScreenStays,
    ErrorBoundary: RootError,
    children: [
      { path: "login", Component: SignInHandOff },
      { path: "admin-login", Component: SignInHandOff },
      { path: "reset-password", Component: SignInHandOff },
      { path: "invitation", Component: SignInHandOff },
      {
        path: "terms",
        lazy: () =>
          import("@/features/legal/components/terms-of-service").then((m) => ({
            Component: m.TermsOfService,
          })),
      },
      {
        path: "privacy",
        lazy: () =>
          import("@/features/legal/components/privacy-policy").then((m) => ({ Component: m.PrivacyPolicy })),
      },
      {
        // "This wasn't me" from a new-device email (issue 24): public, acts only when its button is pressed.
        path: "not-me",
        lazy: () =>
          import("@/features/sign-in-alerts/components/not-me-page").then((m) => ({
            Component: m.NotMePage,
          })),
      },
      {
        path: "/",
        loader: guard("user"),
        lazy: () => import("./routes/app/layout"),
        // Home keeps the client being viewed (`?client=`, issue 23).
        handle: { crumb: "Home", keep: ["client"] } satisfies TCrumbHandle,
        children: [
          { index: true, lazy: workbookRoute },
          { path: "profile", handle: crumb("Profile"), lazy: () => import("./routes/app/profile") },
          { path: "workbooks/:workbookId", lazy: workbookRoute },
        ],
      },
      {
        path: "admin",
        loader: guard("admin"),
        lazy: () => import("./routes/admin/layout"),
        handle: crumb("Admin"),
        children: [
          {
            index: true,
            handle: crumb("Clients"),
            lazy: () =>
              import("@/features/people/components/list-screens").then((m) => ({
                Component: m.ClientListPage,
              })),
          },
          {
            path: "client-list",
            handle: crumb("Clients"),
            lazy: () =>
              import("@/features/people/components/list-screens").then((m) => ({
                Component: m.ClientListPage,
              })),
          },
          {
            path: "add-client",
            handle: crumb("Add Client"),
            lazy: () =>
              import("@/features/people/components/add-screens").then((m) => ({
                Component: m.AddClientPage,
              })),
          },
          {
            path: "edit-client",
            handle: crumb("Edit Client"),
            // Edit Client with the household and the people with access (issue 23), composed by the route.
            lazy: () => import("./routes/admin/edit-client"),
          },
          {
            path: "employee-list",
            handle: crumb("Employees"),
            lazy: () =>
              import("@/features/people/components/list-screens").then((m) => ({
                Component: m.EmployeeListPage,
              })),
          },
          {
            path: "add-employee",
            handle: crumb("Add Employee"),
            lazy: () =>
              import("@/features/people/components/add-screens").then((m) => ({
                Component: m.AddEmployeePage,
              })),
          },
          {
            path: "edit-employee",
            handle: crumb("Edit Employee"),
            lazy: () =>
              import("@/features/people/components/edit-screens").then((m) => ({
                Component: m.EditEmployeePage,
              })),
          },
          {
            path: "embed-url",
            handle: crumb("Embed"),
            lazy: () =>
              import("@/features/workbooks/components/embed-url-page").then((m) => ({
                Component: m.EmbedUrlPage,
              })),
          },
          {
            path: "import",
            handle: crumb("Import CSV"),
            lazy: () =>
              import("@/features/import/components/import-upload-page").then((m) => ({
                Component: m.ImportUploadPage,
              })),
          },
          {
            path: "import/:jobId",
            handle: crumb("Import CSV"),
            lazy: () =>
              import("@/features/import/components/import-job-page").then((m) => ({
                Component: m.ImportJobPage,
              })),
          },
          {
            path: "workbook-list",
            handle: crumb("Workbooks"),
            lazy: () =>
              import("@/features/workbooks/components/workbook-list-page").then((m) => ({
                Component: m.WorkbookListPage,
              })),
          },
          {
            path: "view-as-client",
            handle: crumb("View as client"),
            lazy: () =>
              import("@/features/people/components/view-as-client-page").then((m) => ({
                Component: m.ViewAsClientPage,
              })),
          },
          {
            path: "households",
            handle: crumb("Households"),
            lazy: () =>
              import("@/features/households/components/households-page").then((m) => ({
                Component: m.HouseholdsPage,
              })),
          },
          {
            path: "sync",
            handle: crumb("BI sync"),
            lazy: () =>
              import("@/features/sync/components/sync-page").then((m) => ({
                Component: m.SyncPage,
              })),
          },
          {
            path: "audit",
            handle: crumb("Audit log"),
            lazy: () =>
              import("@/features/audit/components/audit-page").then((m) => ({
                Component: m.AuditPage,
              })),
          },
          {
            path: "settings",
            handle: crumb("Firm settings"),
            lazy: () =>
              import("@/features/settings/components/settings-page").then((m) => ({
                Component: m.SettingsPage,
              })),
          },
          {
            path: "add-workbook",
            handle: crumb("Add Workbook"),
            lazy: () =>
              import("@/features/workbooks/components/add-workbook-page").then((m) => ({
                Component: m.AddWorkbookPage,
              })),
          },
          {
            path: "edit-workbook",
            handle: crumb("Edit Workbook"),
            lazy: () =>
              import("@/features/workbooks/components/edit-workbook-page").then((m) => ({
                Component: m.EditWorkbookPage,
              })),
          },
        ],
      },
      { path: "*", Component: NotFound },
    ],
  },
];

// A guarded address asks for the session before the router asks for the route's modules, so the request
// does not queue behind them (decision 015).
if (matchRoutes(routes, window.location)?.some((match) => match.route.loader)) prefetchSession();

export const router = createBrowserRouter(routes);
