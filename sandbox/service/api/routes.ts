/**
 * Every route of the service described once, with zod (`createRoute` of @hono/zod-openapi):
 * its path, parameters (api/params.ts: they validate requests), answers (the records of
 * contract/) and errors. The app registers them with their handlers (validation comes from
 * these descriptions) and /openapi.json is generated from them (api/document.ts).
 */
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  AccessRules,
  ColumnList,
  dataEnvelope,
  DatasetList,
  DatasetStatus,
  HTTPError,
  HTTPValidationError,
  Identity,
  Quotas,
  recordSchema,
  SERVICE_DEFAULT_FORMAT,
} from "../../../contract/mod.ts";
import type { Dataset } from "../../market/catalog.ts";
import { MAX_IN_VALUES, MAX_PATTERN_LENGTH, MAX_REQUEST_TARGET_BYTES } from "../query/limits.ts";
import { DEFAULT_LIMIT, FORMATS, MAX_LIMIT } from "../query/parse.ts";
import { operatorsOf } from "../query/operators.ts";
import { columnListQuery, enumQuery, filterQuery, integerQuery, presentKeysOnly } from "./params.ts";

const error = (description: string) => ({ description, content: { "application/json": { schema: HTTPError } } });

/** The errors every API route may answer. */
const ERRORS = {
  401: error("Not authenticated (no X-API-KEY) / Invalid API key; WWW-Authenticate: APIKey"),
  403: error("Forbidden: IP address not allowed, dataset or ticker not entitled"),
  404: error("A dataset with the id '{id}' is not found"),
  410: error("The account is deactivated / The API key access has expired"),
  // Deno's HTTP server refuses a longer request target before the app sees it: no body, no request id.
  414: {
    description:
      "URI Too Long: a request target (path and query string) longer than 65,534 bytes; answered by the HTTP server before any route, with no body",
  },
  422: {
    description:
      `Validation error (FastAPI/pydantic v2 shape). Besides malformed values and unknown columns: a parameter given more than once (value_error), an 'in' list of more than ${MAX_IN_VALUES} values (too_long), a like/ilike pattern of more than ${MAX_PATTERN_LENGTH} characters (string_too_long), a data request whose target (path and query string) is longer than ${MAX_REQUEST_TARGET_BYTES} bytes (string_too_long, loc ["query"])`,
    content: { "application/json": { schema: HTTPValidationError } },
  },
  429: error(
    "A quota is exhausted (see the quota headers), a page would take the monthly returned bytes past their quota even cut to one row (a page that fits only in part is served shortened, its next offset following the rows served), or the address presented too many invalid API keys (no quota headers then); Retry-After says when to come back",
  ),
  503: error("Service unavailable (maintenance)"),
  504: error("Gateway timeout: the query outlived its time budget or its memory ceiling and was stopped"),
} as const;

const header = (description: string) => z.string().meta({ description });

/** Methods no route serves: each answers them 405 (app.ts), before authentication. */
export const OTHER_METHODS = ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"] as const;

/** The 405 answer of every route to the methods it does not serve (OTHER_METHODS). */
export const METHOD_NOT_ALLOWED = {
  description:
    "Method Not Allowed: every route is read-only (GET, and HEAD for the headers alone); answered before authentication, naming the methods allowed",
  headers: z.object({ Allow: header("The methods the route answers: GET, HEAD") }),
  content: { "application/json": { schema: HTTPError } },
};

/** The quota headers of every data answer (a 429 too). */
const QUOTA_HEADERS = z.object({
  "RateLimit-Limit": header("Requests allowed in the per-minute window (always the per-minute quota)"),
  "RateLimit-Remaining": header("Requests left in the per-minute window"),
  "RateLimit-Reset": header("Seconds until the per-minute window resets"),
  "X-Quota-Monthly-Requests-Limit": header("Requests allowed this month"),
  "X-Quota-Monthly-Requests-Remaining": header("Requests left this month"),
  "X-Quota-Monthly-Scanned-Bytes-Limit": header("Bytes the engine may scan this month"),
  "X-Quota-Monthly-Scanned-Bytes-Remaining": header("Bytes left to scan this month"),
  "X-Quota-Monthly-Returned-Bytes-Limit": header("Bytes that may be returned this month"),
  "X-Quota-Monthly-Returned-Bytes-Remaining": header("Bytes left to return this month"),
  "X-Quota-Monthly-Reset": header("Seconds until the monthly quotas reset (00:00 UTC on the 1st)"),
  "X-Quota-Warning": z.string().optional().meta({
    description: "Present once a monthly quota is more than 90% used: which, how much, and when it resets",
  }),
});

const ok = (description: string, schema: z.ZodType) => ({ 200: { description, content: { "application/json": { schema } } } });
const security = [{ APIKeyHeader: [] }];
const idParam = z.object({ id: z.string().meta({ description: "The dataset's text id (eq-taq-1min) or short dataset_id (EQT1M)" }) });

/** GET routes of /api/v1/account and /api/v1/meta. */
export const ACCOUNT_ROUTES = {
  identity: createRoute({
    method: "get",
    path: "/api/v1/account/my",
    tags: ["account"],
    security,
    responses: { ...ok("The identity of the key", Identity), ...ERRORS },
  }),
  quotas: createRoute({
    method: "get",
    path: "/api/v1/account/my/quotas",
    tags: ["account"],
    security,
    responses: { ...ok("Usage this minute and month against limits", Quotas), ...ERRORS },
  }),
  rules: createRoute({
    method: "get",
    path: "/api/v1/account/my/data-access-rules",
    tags: ["account"],
    security,
    responses: { ...ok("Data access rules", AccessRules), ...ERRORS },
  }),
};

export const META_ROUTES = {
  datasets: createRoute({
    method: "get",
    path: "/api/v1/meta/datasets",
    tags: ["meta"],
    security,
    responses: { ...ok("Datasets this identity may reach", DatasetList), ...ERRORS },
  }),
  status: createRoute({
    method: "get",
    path: "/api/v1/meta/datasets/{id}/status",
    tags: ["meta"],
    security,
    request: { params: idParam },
    responses: { ...ok("Availability, dates, row and ticker counts within the identity's access rule", DatasetStatus), ...ERRORS },
  }),
  columns: createRoute({
    method: "get",
    path: "/api/v1/meta/datasets/{id}/columns",
    tags: ["meta"],
    security,
    request: { params: idParam },
    responses: { ...ok("Column schema", ColumnList), ...ERRORS },
  }),
};

/** The query parameters of a dataset's data route: paging, format, variant, and every filter its columns support. */
function dataQuery(dataset: Dataset) {
  const shape: Record<string, z.ZodType> = {
    sort: columnListQuery("Comma-separated columns; prefix - for descending, + or none for ascending", "[+-]?"),
    columns: columnListQuery("Comma-separated columns to return (case-sensitive)"),
    offset: integerQuery("offset", 0, Number.MAX_SAFE_INTEGER, 0, "Records to skip"),
    limit: integerQuery("limit", 0, MAX_LIMIT, DEFAULT_LIMIT, "Records in the page"),
    response_format: enumQuery("response_format", FORMATS, SERVICE_DEFAULT_FORMAT, "json, csv (text/csv) or csv_gzip (application/gzip)"),
  };
  if (dataset.variant) {
    shape[dataset.variant.param] = enumQuery(
      dataset.variant.param,
      dataset.variant.values,
      dataset.variant.values[0],
      "Aggregation variant",
    );
  }
  for (const column of dataset.columns) {
    // `Column=value` and `Column.eq=value` are the same filter.
    shape[column.name] = filterQuery(column, "eq", column.name);
    for (const op of operatorsOf(column.type)) shape[`${column.name}.${op}`] = filterQuery(column, op, `${column.name}.${op}`);
  }
  return presentKeysOnly(z.object(shape));
}

/**
 * The route of one dataset's pages. Built once per dataset and shared by every app of the
 * process: its zod schemas are immutable, and building them (dozens of filter parameters a
 * dataset) is most of what opening an app costs.
 */
export function dataRoute(dataset: Dataset): ReturnType<typeof buildDataRoute> {
  let route = builtRoutes.get(dataset);
  if (route === undefined) builtRoutes.set(dataset, route = buildDataRoute(dataset));
  return route;
}
const builtRoutes = new WeakMap<Dataset, ReturnType<typeof buildDataRoute>>();

function buildDataRoute(dataset: Dataset) {
  const byName = new Map(dataset.columns.map((c) => [c.name, c]));
  const params = dataset.pathParams.length === 0
    ? undefined
    : z.object(Object.fromEntries(dataset.pathParams.map((p) => [p.name, filterQuery(byName.get(p.column)!, "eq", p.name, "path")])));
  const records = recordSchema(
    dataset.columns.map((c) => ({ name: c.name, data_type: c.type, description: c.description, nullable: c.nullable })),
  )
    // `columns=` returns a subset of the columns: none is required, none other allowed.
    .partial().meta({ id: `Record_${dataset.textId}`, description: `One record of ${dataset.name} (only the columns asked for)` });
  return createRoute({
    method: "get",
    path: `/api/v1/data/${dataset.assetClass}/${dataset.textId}${dataset.pathParams.map((p) => `/{${p.name}}`).join("")}`,
    operationId: `data_${dataset.textId.replace(/-/g, "_")}`,
    summary: dataset.name,
    tags: ["data"],
    security,
    request: { query: dataQuery(dataset), ...(params ? { params } : {}) },
    responses: {
      200: {
        description: `${dataset.name}: one page (HEAD: the same headers, no query run, nothing counted)`,
        headers: QUOTA_HEADERS,
        content: {
          "application/json": { schema: dataEnvelope(records) },
          "text/csv": { schema: z.string().meta({ description: "Header line, then one line per record" }) },
          "application/gzip": { schema: z.string().meta({ format: "binary", description: "The CSV, gzipped" }) },
        },
      },
      ...ERRORS,
    },
  });
}
