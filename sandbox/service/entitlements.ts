/** Which datasets an identity may reach, and the refusal when it may not. */
import type { Dataset } from "../market/catalog.ts";
import type { Market } from "./context.ts";
import { datasetForbidden, datasetNotFound } from "./errors.ts";
import type { AccessRule } from "./state/accounts.ts";
import type { Settings } from "./state/settings.ts";

/**
 * The dataset and the identity's rule for it. An unknown dataset is 404; an unentitled one is
 * 404 too by default, so the answer does not reveal what exists, or 403 when the setting says so.
 * With `acceptShortId`, `textId` may also be the short `dataset_id` (EQT1M).
 */
export function entitledDataset(
  market: Market,
  rules: readonly AccessRule[],
  textId: string,
  settings: Settings,
  options: { acceptShortId?: boolean } = {},
): { dataset: Dataset; rule: AccessRule } {
  // The meta routes' `{id}` is either id /meta/datasets lists: the text id or the short `dataset_id` (EQT1M).
  const dataset = market.datasets.find((d) => d.textId === textId || (options.acceptShortId === true && d.id === textId));
  if (!dataset) throw datasetNotFound(textId);
  const rule = rules.find((r) => r.dataset_text_id === dataset.textId);
  if (!rule) throw settings.unentitledStatus === 403 ? datasetForbidden(textId) : datasetNotFound(textId);
  return { dataset, rule };
}
