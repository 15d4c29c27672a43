/**
 * The data endpoints' answer formats (`response_format`), described once for the sandbox, which
 * serves them, and the workbench, which asks for them and checks what comes back: their names,
 * the content type of each, and the service's default (the spec: json when a request names none).
 */

/** One of the data endpoints' answer formats: JSON, CSV, or gzip-compressed CSV. */
export type ResponseFormat = "json" | "csv" | "csv_gzip";

/** The formats a data endpoint answers in, every one. */
export const RESPONSE_FORMATS = ["json", "csv", "csv_gzip"] as const satisfies readonly ResponseFormat[];

/** What the service answers when a request names no `response_format`. */
export const SERVICE_DEFAULT_FORMAT: ResponseFormat = "json";

/** The Content-Type each format is answered with (CSV with its charset; clients compare the media type only). */
export const RESPONSE_CONTENT_TYPES: Readonly<Record<ResponseFormat, string>> = {
  json: "application/json",
  csv: "text/csv; charset=utf-8",
  csv_gzip: "application/gzip",
};

/**
 * The media type of a format's answers (the Content-Type without parameters); the service's
 * default format's when `format` is absent or not a format.
 *
 * @example
 * ```ts
 * mediaTypeOf("csv"); // "text/csv"
 * mediaTypeOf(null); // "application/json"
 * ```
 */
export function mediaTypeOf(format: string | null | undefined): string {
  const known = (RESPONSE_FORMATS as readonly string[]).includes(format ?? "") ? (format as ResponseFormat) : SERVICE_DEFAULT_FORMAT;
  return RESPONSE_CONTENT_TYPES[known].split(";")[0];
}
