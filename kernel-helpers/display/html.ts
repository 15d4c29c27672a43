/** HTML escaping shared by every display renderer. */

/**
 * Text made safe for HTML content and quoted attributes.
 *
 * @example
 * ```ts
 * escapeHtml(`<b>&"x"`); // "&lt;b&gt;&amp;&quot;x&quot;"
 * ```
 */
export const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** "1 row", "9,580 rows". */
export const count = (n: number, noun: string) => `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
