import { useMemo } from "react";
import type { EmbedBoot } from "../src/embed/boot.ts";
import { createMessenger } from "./messages.ts";
import { useControlValues } from "./use-control-values.ts";
import { useChartErrors, useHostRequests, usePageHeight, useWorkbookLoaded } from "./use-host-events.ts";
import { useNavigation } from "./use-navigation.ts";
import { usePageData } from "./use-page-data.ts";
import { SessionExpired, Workbook } from "./Workbook.tsx";

/**
 * The embed page: a workbook shown in the host's frame, speaking Sigma's postMessage protocol with it. The
 * hooks are called in the order their events reach the host: `workbook:loaded` first, then the page's URL.
 */
export function App({ boot }: { boot: EmbedBoot }) {
  const messenger = useMemo(() => createMessenger(boot.allowedOrigins), [boot.allowedOrigins]);
  useWorkbookLoaded(boot, messenger);
  const nav = useNavigation(boot, messenger);
  const { variables, currentVariablesRef, change } = useControlValues(boot, messenger);
  const { status, loaded, renders, expired, onChartSize } = usePageData(
    boot,
    messenger,
    { variables, currentVariablesRef },
    { pageId: nav.pageId, page: nav.page },
  );
  const { select, toggleFullscreen } = nav;
  useHostRequests(boot, messenger, { currentVariablesRef, change, select, toggleFullscreen });
  const onChartError = useChartErrors(loaded, messenger);
  usePageHeight(boot, messenger, status.kind !== "loading");

  if (expired) return <SessionExpired />;
  return (
    <Workbook
      boot={boot}
      loading={status.kind === "loading"}
      error={status.kind === "error" ? status.message : undefined}
      result={loaded}
      renders={renders}
      page={nav.page}
      pageId={nav.pageId}
      fullscreen={nav.fullscreen}
      selected={nav.selected}
      select={select}
      toggleFullscreen={toggleFullscreen}
      change={change}
      onChartSize={onChartSize}
      onChartError={onChartError}
    />
  );
}
