export * from "./claims.ts";
export * from "./credentials.ts";
export * from "./mint.ts";
export * from "./rest-schemas.ts";
export * from "./rest.ts";
