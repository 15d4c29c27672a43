/**
 * /openapi.json, generated from the routes' zod descriptions (api/routes.ts): parameters from
 * their schemas' metadata (api/params.ts), answers from the contract's records converted by
 * zod's own JSON Schema writer (draft 2020-12, the dialect of OpenAPI 3.1: a nullable value is
 * `type: [..., "null"]` or `anyOf [..., {type: "null"}]`, never 3.0's `nullable`). Schemas
 * with an id become components. zod's writer is used rather than the zod-to-openapi one that
 * @hono/zod-openapi bundles, which drops `null` from a nullable reference to a shared schema
 * (e.g. `next_offset`), so its document would reject the service's own answers. Methods no
 * route serves get an operation each whose one answer is the shared 405.
 */
import type { RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";

type Json = Record<string, unknown>;

/** An answer as routes.ts describes it. */
interface ResponseConfig {
  description: string;
  headers?: z.ZodObject;
  content?: Record<string, { schema: z.ZodType }>;
}

/** The methods an OpenAPI 3.1 path item can describe (CONNECT is not one of them). */
const OPENAPI_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** Answers to the methods no route serves: which methods, and the one answer they all get. */
export interface NotAllowed {
  methods: readonly string[];
  response: ResponseConfig;
}

/** Rewrites zod's `#/$defs/X` references to `#/components/schemas/X`, everywhere in `value`. */
function toComponents(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toComponents);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map((
      [k, v],
    ) => [k, k === "$ref" && typeof v === "string" ? v.replace("#/$defs/", "#/components/schemas/") : toComponents(v)]),
  );
}

class DocumentBuilder {
  readonly schemas: Json = {};

  /** The JSON schema of `schema`: a reference when it has an id, its shared parts as components. */
  schema(schema: z.ZodType, io: "input" | "output" = "output"): Json {
    const { $defs, $schema: _dialect, id, ...root } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as
      & Json
      & { $defs?: Json; id?: string };
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
    return {
      name,
      in: where,
      required: where === "path" || !schema.safeParse(undefined).success,
      schema: wire,
      ...(description ? { description } : {}),
    };
  }

  /** One answer: its description, headers (described, as strings) and content schemas. */
  response(r: ResponseConfig): Json {
    const headers = r.headers
      ? Object.fromEntries(
        Object.entries(r.headers.shape).map(([n, s]) => {
          const { description } = (z.globalRegistry.get(s as z.ZodType) ?? {}) as Json;
          return [n, { description, schema: { type: "string" } }];
        }),
      )
      : undefined;
    const content = r.content
      ? Object.fromEntries(Object.entries(r.content).map(([type, c]) => [type, { schema: this.schema(c.schema) }]))
      : undefined;
    return { description: r.description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) };
  }

  operation(route: RouteConfig): Json {
    const request = route.request ?? {};
    const parameters = [
      ...Object.entries((request.params as z.ZodObject | undefined)?.shape ?? {}).map(([n, s]) =>
        this.parameter(n, "path", s as z.ZodType)
      ),
      ...Object.entries((request.query as z.ZodObject | undefined)?.shape ?? {}).map(([n, s]) =>
        this.parameter(n, "query", s as z.ZodType)
      ),
    ];
    const responses = Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [status, this.response(response as ResponseConfig)]),
    );
    const { operationId, summary, tags, security } = route;
    return {
      ...(operationId ? { operationId } : {}),
      ...(summary ? { summary } : {}),
      tags,
      security,
      ...(parameters.length > 0 ? { parameters } : {}),
      responses,
    };
  }
}

/**
 * The OpenAPI 3.1 document of `routes`.
 *
 * @example
 * ```ts
 * const doc = openApiDocument([ACCOUNT_ROUTES.identity, ...datasets.map(dataRoute)], { methods: OTHER_METHODS, response: METHOD_NOT_ALLOWED });
 * doc.paths["/api/v1/account/my"].get.responses["200"];
 * doc.paths["/api/v1/account/my"].post.responses["405"]; // { $ref: "#/components/responses/MethodNotAllowed" }
 * ```
 */
export function openApiDocument(routes: readonly RouteConfig[], notAllowed?: NotAllowed): Json {
  const builder = new DocumentBuilder();
  const paths: Record<string, Json> = {};
  for (const route of routes) (paths[route.path] ??= {})[route.method] = builder.operation(route);
  const responses: Json = {};
  if (notAllowed) {
    // Described once and referenced: a client (or a contract check) then knows what a POST to
    // any route answers. No security: the answer comes before authentication.
    responses.MethodNotAllowed = builder.response(notAllowed.response);
    const methods = notAllowed.methods.map((m) => m.toLowerCase()).filter((m) => OPENAPI_METHODS.has(m));
    for (const item of Object.values(paths)) {
      const served = Object.values(item)[0] as { tags?: string[]; parameters?: Json[] };
      // A path template's parameters must be declared by every operation of the path.
      const inPath = (served.parameters ?? []).filter((p) => p.in === "path");
      for (const method of methods) {
        item[method] ??= {
          tags: served.tags,
          summary: `${method.toUpperCase()}: not allowed (the route is read-only)`,
          security: [],
          ...(inPath.length > 0 ? { parameters: inPath } : {}),
          responses: { 405: { $ref: "#/components/responses/MethodNotAllowed" } },
        };
      }
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Historical Market Data Datasets Service (sandbox)",
      version: "v1",
      description:
        "Local sandbox of the Datasets Service over a synthetic market. Every GET also answers HEAD (headers only: no query runs, no quota is spent); other methods answer 405 with Allow: GET, HEAD.",
    },
    paths,
    components: {
      securitySchemes: { APIKeyHeader: { type: "apiKey", in: "header", name: "X-API-KEY" } },
      schemas: builder.schemas,
      ...(Object.keys(responses).length > 0 ? { responses } : {}),
    },
  };
}
