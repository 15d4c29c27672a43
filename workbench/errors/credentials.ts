/**
 * Credentials kept out of text: a user name and password in a URL (`https://me:pw@host/`) are
 * removed wherever a URL is shown, and the key and password a workbench holds are masked in
 * any text that might carry them (a service echoing a header, a proxy's error page). Here, with
 * the errors, because every error's message is cleaned with it (errors/base.ts).
 */

/** `scheme://user:password@` in a text: the user information of a URL. */
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"<>]*@/gi;

/**
 * `text` with the user name and password of every URL in it removed.
 *
 * @example
 * ```ts
 * withoutCredentials("Cannot reach https://me:secret@data.example.com/api"); // "Cannot reach https://data.example.com/api"
 * ```
 */
export function withoutCredentials(text: string): string {
  return text.replace(USER_INFO, "$1");
}

/** The user name and password of a URL (decoded), or undefined when it has none or is not a URL. */
export function credentialsOf(url: string): { user: string; password: string } | undefined {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return undefined;
    return { user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  } catch {
    return undefined;
  }
}

/**
 * A function that masks each secret (the key, a password) in a text as `***`, and removes URL
 * credentials. Secrets shorter than 4 characters are not masked (they would mask ordinary text);
 * a key that short is refused by any service.
 *
 * @example
 * ```ts
 * const redact = redactor(["demo-full-access"]);
 * redact("key demo-full-access refused"); // "key *** refused"
 * ```
 */
export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const masked = [...new Set(secrets.filter((s): s is string => typeof s === "string" && s.length >= 4))].sort((a, b) =>
    b.length - a.length
  );
  return (text) => masked.reduce((t, s) => t.split(s).join("***"), withoutCredentials(String(text)));
}
