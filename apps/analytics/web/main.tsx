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
if (bootElement?.textContent && root) {
  const boot = JSON.parse(bootElement.textContent) as EmbedBoot;
  createRoot(root).render(
    <StrictMode>
      <App boot={boot} />
    </StrictMode>,
  );
}
