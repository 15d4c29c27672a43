/**
 * Status icons drawn as inline SVG, so they show the same without an emoji font (a bare
 * Chromium or a server without Noto Color Emoji draws ✅ and ❌ as empty boxes).
 */

/** Which icon: allowed (green tick), refused (red cross), warning (amber bang). */
export type IconKind = "allowed" | "refused" | "warning";

const PATHS: Record<IconKind, [color: string, path: string]> = {
  allowed: ["#2ca25f", "M4.5 8.2 7 10.7 11.6 5.6"],
  refused: ["#d7301f", "M5.2 5.2 10.8 10.8M10.8 5.2 5.2 10.8"],
  warning: ["#e6a700", "M8 4.2V9M8 11.3V11.4"],
};

/**
 * A 16 px inline SVG icon with an accessible label.
 *
 * @example
 * ```ts
 * icon("allowed"); // '<svg class="wb-icon wb-icon-allowed" ...>'
 * ```
 */
export function icon(kind: IconKind): string {
  const [color, path] = PATHS[kind];
  return `<svg class="wb-icon wb-icon-${kind}" role="img" aria-label="${kind}" width="16" height="16" viewBox="0 0 16 16" style="vertical-align:-3px"><circle cx="8" cy="8" r="7.5" fill="${color}"/><path d="${path}" stroke="#fff" stroke-width="2" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
}
