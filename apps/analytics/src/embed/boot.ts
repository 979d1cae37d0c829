import type { QueryResult } from "../workbooks/run.ts";
import type { TPublicWorkbook } from "../workbooks/schema.ts";

/** What the embed page's script receives in `<script type="application/json" id="embed-boot">`. */
export interface EmbedBoot {
  /** Bearer token of this embed session for the page's data requests (never a JWT). */
  sessionToken: string;
  queryUrl: string;
  workbook: TPublicWorkbook;
  pageId: string;
  theme: "light" | "dark" | "surface";
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
  initialData?: QueryResult;
}

export const EMBED_BOOT_ELEMENT_ID = "embed-boot";
