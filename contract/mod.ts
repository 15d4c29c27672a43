/**
 * The contract of the Datasets Service: zod schemas of every record it answers, shared by the
 * sandbox (validation and OpenAPI) and the workbench (checking what a service answers). It
 * imports neither side. Each schema carries `.meta({ id, description })` for documentation.
 */
export * from "./wire.ts";
export * from "./errors.ts";
export * from "./account.ts";
export * from "./meta.ts";
export * from "./data.ts";
export * from "./formats.ts";
