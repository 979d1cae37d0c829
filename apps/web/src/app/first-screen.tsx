import { useLayoutEffect } from "react";
import { Outlet } from "react-router";

import { RouteError } from "./routes/route-error";

/**
 * index.html paints 'Checking authentication...' before any script has loaded (decision 015). While the router
 * loads the first route, it stays on screen (the router's HydrateFallback draws nothing); the first screen
 * takes it away in the commit that draws it, so there is no blank moment and the same words are not drawn
 * a second time.
 */
function useFirstScreenReplaced() {
  useLayoutEffect(() => document.getElementById("first-screen")?.remove(), []);
}

export function FirstScreenStays() {
  return null;
}

/** The route table's root: its pages, which replace index.html's first screen. */
export function RootLayout() {
  useFirstScreenReplaced();
  return <Outlet />;
}

/** The route table's root error screen, which replaces index.html's first screen too. */
export function RootError() {
  useFirstScreenReplaced();
  return <RouteError />;
}
