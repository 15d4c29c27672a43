/**
 * The service's error bodies: `{"detail": "..."}` for every failure but 422, and the 422 body
 * FastAPI + pydantic v2 write: `{"detail": [{type, loc, msg, input, ctx?}, ...]}` (no `url`).
 */
import { z } from "zod";

/** Any error but 422: one sentence of detail. */
export const HTTPError: z.ZodObject<{ detail: z.ZodString }> = z.object({
  detail: z.string().meta({ description: "What failed, e.g. 'Invalid API key'" }),
}).meta({ id: "HTTPError", description: "An error answer: the detail says what failed" });

/** One entry of a 422 detail list, as FastAPI writes it. */
export const ValidationIssue: z.ZodObject<{
  type: z.ZodString;
  loc: z.ZodArray<z.ZodUnion<readonly [z.ZodString, z.ZodNumber]>>;
  msg: z.ZodString;
  input: z.ZodUnknown;
  ctx: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
}> = z.object({
  type: z.string().meta({ description: "pydantic's error type, e.g. int_parsing, less_than_equal, value_error" }),
  loc: z.array(z.union([z.string(), z.number().int()])).meta({ description: "Where: e.g. ['query', 'limit']" }),
  msg: z.string().meta({ description: "Human-readable message" }),
  input: z.unknown().meta({ description: "The value received (text for query parameters)" }),
  ctx: z.record(z.string(), z.unknown()).optional().meta({ description: "Details such as {le: 100000}" }),
}).meta({ id: "ValidationError", description: "One validation failure (FastAPI/pydantic v2 shape)" });

/** The 422 body. */
export const HTTPValidationError: z.ZodObject<{ detail: z.ZodArray<typeof ValidationIssue> }> = z.object({
  detail: z.array(ValidationIssue),
}).meta({ id: "HTTPValidationError", description: "422: the request does not validate; detail lists why" });

/** Any error body but 422: `{ detail: "What failed" }`. */
export type HTTPError = z.infer<typeof HTTPError>;
/** The 422 body: `{ detail: [...] }`, each entry one validation failure. */
export type HTTPValidationError = z.infer<typeof HTTPValidationError>;
