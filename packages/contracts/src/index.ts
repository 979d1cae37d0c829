export * from "./auth.ts";
export * from "./provision.ts";
export * from "./config.ts";
export * from "./errors.ts";
export * from "./admin.ts";
export * from "./routes.ts";
export * from "./mfa.ts";
export * from "./text.ts";
