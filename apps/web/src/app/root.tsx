import { QueryClientProvider } from "@tanstack/react-query";
import { LucideProvider } from "lucide-react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import type { DataRouter } from "react-router";
import { RouterProvider } from "react-router/dom";

import { SpaBranding } from "@/lib/branding-query";
import { queryClient } from "@/lib/query-client";

/** Renders the SPA into #root; `main.tsx` loads this (React DOM) while the router already loads the route. */
export function renderApp(router: DataRouter) {
  const container = document.getElementById("root");
  if (!container) throw new Error("The page has no #root element.");
  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SpaBranding>
          {/* The portal's icons (lucide) are drawn a little lighter than lucide's 2px; login/main.tsx too. */}
          <LucideProvider strokeWidth={1.8}>
            <RouterProvider router={router} />
          </LucideProvider>
        </SpaBranding>
      </QueryClientProvider>
    </StrictMode>,
  );
}
