import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";

import "./index.css";
import { router } from "./app/router";
import { SpaBranding } from "./lib/branding-query";
import { queryClient } from "./lib/query-client";

const container = document.getElementById("root");
if (!container) throw new Error("The page has no #root element.");

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <SpaBranding>
        <RouterProvider router={router} />
      </SpaBranding>
    </QueryClientProvider>
  </StrictMode>,
);
