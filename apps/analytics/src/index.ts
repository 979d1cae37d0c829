export { startAnalyticsServer, buildAnalyticsApp } from "./server.ts";
export type { AnalyticsServer, StartAnalyticsServerOptions } from "./server.ts";
export { loadAnalyticsConfig, ConfigError, type AnalyticsConfig } from "./config.ts";
export { buildAnalyticsFrontEnd, frontEndBuilt } from "./frontend.ts";
