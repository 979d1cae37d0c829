import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { EMBED_BOOT_ELEMENT_ID, type EmbedBoot } from "../src/embed/boot.ts";
import { App } from "./App.tsx";
// Inter, self-hosted with the page's assets (font-src 'self'). The server-drawn charts are set in it too:
// the server lays their labels out with Inter's widths (src/charts/text.ts).
import "@fontsource-variable/inter/wght.css";
import "./styles.css";

performance.mark("wb:script");
const bootElement = document.getElementById(EMBED_BOOT_ELEMENT_ID);
const root = document.getElementById("root");
/**
 * The data is shown once Inter is here (it loads with the skeleton, beside the data; the wait is at most
 * `FONT_WAIT_MS`): a table decides from its measured width whether it stacks (Table.tsx), and measured in
 * the fallback font it could take one form and change to the other as the font arrives, which moves
 * everything under it.
 */
const FONT_WAIT_MS = 3000;
const fontHere = Promise.race([
  document.fonts.load('1em "Inter Variable"'),
  new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS)),
]).catch(() => undefined);

if (bootElement?.textContent && root) {
  const boot = JSON.parse(bootElement.textContent) as EmbedBoot;
  void fontHere.then(() =>
    createRoot(root).render(
      <StrictMode>
        <App boot={boot} />
      </StrictMode>,
    ),
  );
}
