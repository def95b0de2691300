// A guest's best trainer figures as a table, by kind of question and for whole sessions: the
// trainer page shows it beside a session, the records page with the game's records.
import { h } from "./dom.js";
import { pick, t } from "./i18n.js";

export function percent(share) {
  return share === null || share === undefined ? "—" : `${Math.round(share * 100)}%`;
}

export function seconds(value) {
  return value === null || value === undefined ? "—" : t("trainer.seconds", { s: value.toFixed(2) });
}

/** The display name of a level among `levels` ({id, name: {ja, en}}). */
export function levelName(levels, id) {
  return pick(levels.find((level) => level.id === id)?.name) || id;
}

/**
 * Fill `table` with `best` ({kind: {sessions, accuracy, seconds, level}}, "all" first), the
 * kinds named by `kinds` ({kind: {ja, en}}) and the matched strength by `levels`.
 */
export function fillBestTable(table, best, kinds, levels) {
  const heads = [t("trainer.kind"), t("trainer.sessions"), t("trainer.best_accuracy"), t("trainer.best_mean"), t("trainer.level")];
  const order = ["all", ...Object.keys(kinds)];
  const entries = Object.entries(best ?? {}).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  table.replaceChildren(
    h("thead", {}, h("tr", {}, ...heads.map((head) => h("th", { scope: "col" }, head)))),
    h(
      "tbody",
      {},
      ...entries.map(([kind, figures]) =>
        h(
          "tr",
          { "data-kind": kind },
          h("th", { scope: "row", "data-label": heads[0] }, kind === "all" ? t("trainer.all") : pick(kinds[kind]) || kind),
          h("td", { "data-label": heads[1] }, String(figures.sessions)),
          h("td", { "data-label": heads[2] }, percent(figures.accuracy)),
          h("td", { "data-label": heads[3] }, seconds(figures.seconds)),
          h("td", { "data-label": heads[4] }, figures.level ? levelName(levels, figures.level) : "—"),
        ),
      ),
    ),
  );
}
