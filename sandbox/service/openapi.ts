/**
 * The OpenAPI 3.1 description served at /openapi.json, built from the catalog so every
 * dataset, path parameter, column (as a filter), record and error is described.
 */
import type { Dataset } from "../market/catalog.ts";
import type { ColumnType } from "../market/schema.ts";
import { DEFAULT_LIMIT, FORMATS, MAX_LIMIT, OPERATORS } from "./query/parse.ts";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const JSON_TYPES: Record<ColumnType, object> = {
  date: { type: "string", format: "date" },
  datetime_ns: { type: "string", format: "date-time", description: "New York time with offset, nanoseconds" },
  datetime_ms: { type: "string", format: "date-time", description: "New York time with offset, milliseconds" },
  int64: { type: "integer", format: "int64" },
  float64: { type: "number" },
  string: { type: "string" },
  list_string: { type: "array", items: { type: "string" } },
};

const errorResponses = {
  "401": { description: "Not authenticated / Invalid API key", content: { "application/json": { schema: ref("HTTPError") } } },
  "403": { description: "Forbidden: IP address not allowed, dataset or ticker not entitled", content: { "application/json": { schema: ref("HTTPError") } } },
  "404": { description: "A dataset with the id '{dataset_id}' is not found", content: { "application/json": { schema: ref("HTTPError") } } },
  "410": { description: "The account is deactivated / The API key access has expired", content: { "application/json": { schema: ref("HTTPError") } } },
  "422": { description: "Validation error", content: { "application/json": { schema: ref("HTTPValidationError") } } },
  "429": { description: "A quota is exhausted; Retry-After and RateLimit-* headers say until when", content: { "application/json": { schema: ref("HTTPError") } } },
  "503": { description: "Service unavailable", content: { "application/json": { schema: ref("HTTPError") } } },
  "504": { description: "Gateway timeout", content: { "application/json": { schema: ref("HTTPError") } } },
};

function jsonResponse(schema: object, description: string) {
  return { "200": { description, content: { "application/json": { schema } } }, ...errorResponses };
}

const queryParam = (name: string, schema: object, description: string) => ({ name, in: "query", required: false, schema, description });

function dataPath(d: Dataset) {
  const filterParams = d.columns.flatMap((c) => [
    queryParam(c.name, JSON_TYPES[c.type], `Filter: ${c.name} equals the value. ${c.description}`),
    ...OPERATORS.map((op) => queryParam(`${c.name}.${op}`, { type: "string" }, `Filter: ${c.name} ${op}${op === "in" ? " (comma-separated)" : op.includes("like") ? " (* is the wildcard)" : ""}`)),
  ]);
  return {
    get: {
      operationId: `data_${d.textId.replace(/-/g, "_")}`,
      summary: d.name,
      tags: ["data"],
      security: [{ APIKeyHeader: [] }],
      parameters: [
        ...d.pathParams.map((p) => ({ name: p.name, in: "path", required: true, schema: p.type === "date" ? JSON_TYPES.date : JSON_TYPES.string })),
        queryParam("sort", { type: "string" }, "Comma-separated columns; prefix - for descending, + or none for ascending"),
        queryParam("columns", { type: "string" }, "Comma-separated columns to return (case-sensitive)"),
        queryParam("offset", { type: "integer", minimum: 0, default: 0 }, "Records to skip"),
        queryParam("limit", { type: "integer", minimum: 0, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }, "Records in the page"),
        queryParam("response_format", { type: "string", enum: FORMATS, default: "json" }, "json, csv (text/csv) or csv_gzip (application/gzip)"),
        ...(d.variant ? [queryParam(d.variant.param, { type: "string", enum: d.variant.values, default: d.variant.values[0] }, "Aggregation variant")] : []),
        ...filterParams,
      ],
      responses: {
        "200": {
          description: `${d.name}: one page`,
          content: {
            "application/json": { schema: { type: "object", required: ["data", "pagination"], properties: { data: { type: "array", items: ref(`Record_${d.textId}`) }, pagination: ref("Pagination") } } },
            "text/csv": { schema: { type: "string" } },
            "application/gzip": { schema: { type: "string", format: "binary" } },
          },
        },
        ...errorResponses,
      },
    },
  };
}

export function openApiDocument(datasets: readonly Dataset[]) {
  const paths: Record<string, object> = {
    "/api/v1/account/my": jsonResponse(ref("Identity"), "The identity of the key"),
    "/api/v1/account/my/quotas": jsonResponse(ref("Quotas"), "Usage this minute and month against limits"),
    "/api/v1/account/my/data-access-rules": jsonResponse({ type: "array", items: ref("MetaDatasetAccessRuleOut") }, "Data access rules"),
    "/api/v1/meta/datasets": jsonResponse({ type: "array", items: ref("Dataset") }, "Datasets this identity may reach"),
    "/api/v1/meta/datasets/{id}/status": jsonResponse(ref("DatasetStatus"), "Availability and last update"),
    "/api/v1/meta/datasets/{id}/columns": jsonResponse({ type: "array", items: ref("Column") }, "Column schema"),
  };
  for (const [path, item] of Object.entries(paths)) {
    const get = { tags: [path.split("/")[3]], security: [{ APIKeyHeader: [] }], responses: item, ...(path.includes("{id}") ? { parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }] } : {}) };
    paths[path] = { get };
  }
  for (const d of datasets) paths[`/api/v1/data/${d.assetClass}/${d.textId}${d.pathParams.map((p) => `/{${p.name}}`).join("")}`] = dataPath(d);
  const records = Object.fromEntries(datasets.map((d) => [`Record_${d.textId}`, {
    type: "object",
    properties: Object.fromEntries(d.columns.map((c) => [c.name, { ...JSON_TYPES[c.type], description: c.description, ...(c.nullable ? { nullable: true } : {}) }])),
  }]));
  const str = { type: "string" }, int = { type: "integer" };
  const quotaKeys = { type: "object", properties: { per_minute_requests: int, monthly_requests: int, monthly_data_scanned: int, monthly_data_returned: int } };
  return {
    openapi: "3.1.0",
    info: { title: "Historical Market Data Datasets Service (sandbox)", version: "v1", description: "Local sandbox of the Datasets Service over a synthetic market." },
    paths,
    components: {
      securitySchemes: { APIKeyHeader: { type: "apiKey", in: "header", name: "X-API-KEY" } },
      schemas: {
        Identity: { type: "object", properties: { identity_id: int, name: str, max_active_api_keys: int, ip_subnets: { type: "array", items: str } } },
        Quotas: { type: "object", properties: { quotas_usage: quotaKeys, quotas_limit: quotaKeys } },
        MetaDatasetAccessRuleOut: { type: "object", properties: { dataset_text_id: str, dataset_id: str, dataset_name: str, dataset_version: str, start_date: JSON_TYPES.date, end_date: { type: ["string", "null"], format: "date" }, universe_identifiers: { type: "array", items: str } } },
        Dataset: { type: "object", properties: { dataset_id: str, dataset_text_id: str, dataset_name: str, data_group: str, vendor: str } },
        DatasetStatus: { type: "object", properties: { dataset_id: str, dataset_text_id: str, status: str, first_available_date: JSON_TYPES.date, last_available_date: JSON_TYPES.date, last_updated: { type: "string", format: "date-time" }, row_count: int, variants: { type: "object" } } },
        Column: { type: "object", properties: { name: str, data_type: { type: "string", enum: Object.keys(JSON_TYPES) }, description: str, nullable: { type: "boolean" }, time_zone: str } },
        Pagination: { type: "object", required: ["limit"], properties: { offset: int, limit: int, next_offset: { type: ["integer", "null"] } } },
        HTTPError: { type: "object", properties: { detail: str } },
        ValidationError: { type: "object", properties: { type: str, loc: { type: "array", items: { type: ["string", "integer"] } }, msg: str, input: {}, ctx: { type: "object" } } },
        HTTPValidationError: { type: "object", properties: { detail: { type: "array", items: ref("ValidationError") } } },
        ...records,
      },
    },
  };
}
