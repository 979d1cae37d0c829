import "./index.css";
// The route table comes first: creating the router starts the address's guard (the session request) and its
// screens' modules at once, so they load alongside React DOM instead of after it (decision 015).
import { router } from "./app/router";
import { prefetchBranding } from "./lib/branding-query";

prefetchBranding();
void import("./app/root").then(({ renderApp }) => renderApp(router));
