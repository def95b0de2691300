// Readable names of rule sets and levels, from the game's declared options (OptionSpec.to_json()).
import { pick, t } from "./i18n.js";

/** The option's value as the form and value_labels spell it ("true", "4", "kalah"). */
export const valueKey = (value) => (typeof value === "boolean" ? String(value) : String(value));

/** "カラハ・4個・横取りあり・残った石を数える" for a resolved options dict. */
export function ruleName(options, specs) {
  const parts = [];
  for (const spec of specs) {
    if (!(spec.key in (options ?? {}))) continue;
    const value = options[spec.key];
    const label = spec.value_labels?.[valueKey(value)];
    parts.push(label ? pick(label) : t("rule.value", { label: pick(spec.label), value }));
  }
  return parts.join(t("rule.sep"));
}

/** The level's display name from [{id, name: {ja, en}}]. */
export function levelName(level, levels) {
  const found = (levels ?? []).find((entry) => entry.id === level);
  return found ? pick(found.name) : level;
}
