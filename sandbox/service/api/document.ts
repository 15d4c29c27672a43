/**
 * /openapi.json, generated from the routes' zod descriptions (api/routes.ts): parameters from
 * their schemas' metadata (api/params.ts), answers from the contract's records converted by
 * zod's own JSON Schema writer (draft 2020-12, the dialect of OpenAPI 3.1: a nullable value is
 * `type: [..., "null"]` or `anyOf [..., {type: "null"}]`, never 3.0's `nullable`). Schemas
 * with an id become components. zod's writer is used rather than the zod-to-openapi one that
 * @hono/zod-openapi bundles, which drops `null` from a nullable reference to a shared schema
 * (e.g. `next_offset`), so its document would reject the service's own answers.
 */
import type { RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";

type Json = Record<string, unknown>;

/** Rewrites zod's `#/$defs/X` references to `#/components/schemas/X`, everywhere in `value`. */
function toComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponents);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "$ref" && typeof v === "string" ? v.replace("#/$defs/", "#/components/schemas/") : toComponents(v)]));
}

class DocumentBuilder {
  readonly schemas: Json = {};

  /** The JSON schema of `schema`: a reference when it has an id, its shared parts as components. */
  schema(schema: z.ZodType, io: "input" | "output" = "output"): Json {
    const { $defs, $schema: _dialect, id, ...root } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Json & { $defs?: Json; id?: string };
    for (const [name, def] of Object.entries($defs ?? {})) this.schemas[name] = toComponents(def);
    const rewritten = toComponents(root) as Json;
    if (typeof id !== "string") return rewritten;
    this.schemas[id] = rewritten;
    return { $ref: `#/components/schemas/${id}` };
  }

  /** A parameter's schema: what its metadata declares (the wire type), else its input schema. */
  parameter(name: string, where: "query" | "path", schema: z.ZodType): Json {
    const { description, id: _id, ...declared } = (z.globalRegistry.get(schema) ?? {}) as Json;
    const wire = Object.keys(declared).length > 0 ? declared : this.schema(schema, "input");
    return { name, in: where, required: where === "path" || !schema.safeParse(undefined).success, schema: wire, ...(description ? { description } : {}) };
  }

  operation(route: RouteConfig): Json {
    const request = route.request ?? {};
    const parameters = [
      ...Object.entries((request.params as z.ZodObject | undefined)?.shape ?? {}).map(([n, s]) => this.parameter(n, "path", s as z.ZodType)),
      ...Object.entries((request.query as z.ZodObject | undefined)?.shape ?? {}).map(([n, s]) => this.parameter(n, "query", s as z.ZodType)),
    ];
    const responses = Object.fromEntries(Object.entries(route.responses).map(([status, response]) => {
      const r = response as { description: string; headers?: z.ZodObject; content?: Record<string, { schema: z.ZodType }> };
      const headers = r.headers
        ? Object.fromEntries(Object.entries(r.headers.shape).map(([n, s]) => {
          const { description } = (z.globalRegistry.get(s as z.ZodType) ?? {}) as Json;
          return [n, { description, schema: { type: "string" } }];
        }))
        : undefined;
      const content = r.content ? Object.fromEntries(Object.entries(r.content).map(([type, c]) => [type, { schema: this.schema(c.schema) }])) : undefined;
      return [status, { description: r.description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) }];
    }));
    const { operationId, summary, tags, security } = route;
    return { ...(operationId ? { operationId } : {}), ...(summary ? { summary } : {}), tags, security, ...(parameters.length > 0 ? { parameters } : {}), responses };
  }
}

/**
 * The OpenAPI 3.1 document of `routes`.
 *
 * @example
 * ```ts
 * const doc = openApiDocument([ACCOUNT_ROUTES.identity, ...datasets.map(dataRoute)]);
 * doc.paths["/api/v1/account/my"].get.responses["200"];
 * ```
 */
export function openApiDocument(routes: readonly RouteConfig[]): Json {
  const builder = new DocumentBuilder();
  const paths: Record<string, Json> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = builder.operation(route);
  return {
    openapi: "3.1.0",
    info: {
      title: "Historical Market Data Datasets Service (sandbox)",
      version: "v1",
      description: "Local sandbox of the Datasets Service over a synthetic market. Every GET also answers HEAD (headers only: no query runs, no quota is spent); other methods answer 405 with Allow: GET, HEAD.",
    },
    paths,
    components: { securitySchemes: { APIKeyHeader: { type: "apiKey", in: "header", name: "X-API-KEY" } }, schemas: builder.schemas },
  };
}
