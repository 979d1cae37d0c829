import type { ChartRender } from "../charts/contract.ts";
import type { TChartTheme } from "../charts/themes.ts";
import type { QueryResult } from "../workbooks/run.ts";
import type { TPublicWorkbook } from "../workbooks/schema.ts";

/**
 * A page's data as the embed page receives it (the first page's in the boot data, later ones from
 * `POST /<org>/api/embed/query`): the elements' rows and the charts drawn by the server at the sizes the page
 * measured (decision 015).
 */
export interface PageData extends QueryResult {
  charts: Record<string, ChartRender>;
}

/** What the embed page's script receives in `<script type="application/json" id="embed-boot">`. */
export interface EmbedBoot {
  /** Bearer token of this embed session for the page's data requests (never a JWT). */
  sessionToken: string;
  queryUrl: string;
  workbook: TPublicWorkbook;
  pageId: string;
  theme: TChartTheme;
  responsiveHeight: boolean;
  hideMenu: boolean;
  /** Parent origins the page may post to; the actual parent is picked from these. */
  allowedOrigins: string[];
  /** Control values from the URL (`<ControlId>=<value>`). */
  initialVariables: Record<string, string>;
  user: { name: string; email: string };
  /** The URL without `:jwt`, shown after load so the token does not linger in history. */
  cleanUrl: string;
  /** The first page's data, computed with the page so the frame needs no second round trip to show it. */
  initialData?: PageData;
}

export const EMBED_BOOT_ELEMENT_ID = "embed-boot";
