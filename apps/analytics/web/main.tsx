import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { EMBED_BOOT_ELEMENT_ID, type EmbedBoot } from "../src/embed/boot.ts";
import { App } from "./App.tsx";
// Inter, self-hosted with the page's assets (font-src 'self'); the charts keep the system font, which
// ECharts can measure before any web font has loaded.
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
