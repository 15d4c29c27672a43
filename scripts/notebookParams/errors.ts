/** A parameter that the notebook cannot take: unknown, malformed, or of the wrong type. */
export class ParameterError extends Error {
  override name = "ParameterError";
}
