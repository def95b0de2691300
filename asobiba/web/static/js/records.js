// The records page: per game, GET /api/rooms?mine=unfinished (games to go back to), then
// GET /api/records/{game} → one table of every rule set (strength × first/second, the rule sets
// as row groups so the columns line up), the games with other people at the table in a table
// of their own ("With people": rule set × number of people × players × seat), and the list of
// stored games with links to replays, the other players' names and a stand-in mark.
// /records shows every game's, /records/{game} one game's (page data: `games`, `game`). The head
// links to the person's profile (their ratings) and the leaderboards.
// Above them, the person's learning in the game (`learning` of the API): the course's lessons
// done and the trainer's best figures (trainer-best.js).
// Names are data: they only ever become text nodes (h() children), never markup.
import { getJSON } from "./api.js";
import { h } from "./dom.js";
import { LANG, pageData, t, tn } from "./i18n.js";
import { levelName, ruleName } from "./rules-name.js";
import { seatLabel } from "./seat-names.js";
import { fillBestTable } from "./trainer-best.js";

const data = pageData();
const box = document.getElementById("records");
const COLUMNS = 9; // before the game's own figures

/** First / second between two; at a table of more, the seat's place in the turn order. */
function seatName(seat, players = 2) {
  if (players > 2) return t("seat.nth", { n: seat + 1 });
  return t(seat === 0 ? "seat.first" : "seat.second");
}

/** A game's own figure (``fields`` from the API: key, label, how, digits, names), or a dash. A
 * "tally" is ``[[label, times], ...]``, shown as the named labels with their counts. */
function figure(value, field) {
  if (value === null || value === undefined) return "—";
  if (field.how === "tally") {
    return h(
      "ul",
      { class: "tally" },
      value.map(([label, times]) => {
        const name = field.names?.[label];
        return h("li", {}, `${name?.[LANG] ?? name?.en ?? label} ×${times}`);
      }),
    );
  }
  // Up to the field's decimals, and none a round figure does not need: 20 cards, 5.5 rounds.
  return new Intl.NumberFormat(LANG, { maximumFractionDigits: field.digits }).format(value);
}

/** The rule set's name, with the number of players where the game takes several counts; the
 * number of players alone where the game offers no options to name ("2 players"). */
function rulesText(options, players, info) {
  const rules = ruleName(options ?? {}, info.options);
  const [fewest, most] = info.seats ?? [2, 2];
  const count = t("records.players", { n: players });
  if (!rules) return count;
  return fewest === most ? rules : `${rules} · ${count}`;
}

function percent(rate) {
  if (rate === null || rate === undefined) return "—";
  return new Intl.NumberFormat(LANG, { style: "percent", maximumFractionDigits: 0 }).format(rate);
}

function when(value) {
  if (value === null || value === undefined) return "";
  // The server sends ISO 8601 with a UTC offset.
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return new Intl.DateTimeFormat(LANG, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

function streak(value) {
  if (!value || !value.length) return "—";
  return t(`records.streak.${value.kind}`, { n: value.length });
}

function resultBadge(result) {
  return h("span", { class: `badge badge--${result}` }, t(`result.short.${result}`));
}

/** A table cell that names its column (data-label), for the stacked layout on narrow screens. */
function cell(key, content, { numeric = false, head = false, wide = false } = {}) {
  const classes = [numeric ? "num" : "", wide ? "cell--wide" : ""].join(" ").trim();
  const attrs = { class: classes || null, "data-label": t(key) };
  if (head) attrs.scope = "row";
  return h(head ? "th" : "td", attrs, content ?? "—");
}

function header(...keys) {
  return h(
    "thead",
    {},
    h(
      "tr",
      {},
      keys.map(([key, numeric]) =>
        h("th", { scope: "col", class: numeric ? "num" : null }, t(key)),
      ),
    ),
  );
}

/** The average accuracy over the rule set's reviewed games (`accuracy` of the API), if any. */
function accuracyLine(accuracy) {
  if (!accuracy) return null;
  const pct = Math.round(accuracy.accuracy * 100);
  return h(
    "span",
    { class: "record-set-accuracy", "data-accuracy": accuracy.accuracy },
    tn("records.accuracy", accuracy.games, { pct }),
  );
}

/** Who a row of games with people was played against: the people, and the bots' level if any
 * seat was a bot. */
function peopleOpponents(level, levels) {
  return level ? t("records.people.and_bots", { level: levelName(level, levels) }) : t("records.people.only");
}

/** One rule set's rows (weakest opponent first, then by seat), under its name and, when some of
 * its games were reviewed, the average accuracy over them. Rows of games with people name the
 * number of people in the title and who sat with them in the first column. */
function ruleSetGroup(rows, info, fields, accuracy) {
  const people = rows[0].people ?? 1;
  const order = new Map(info.levels.map((level, index) => [level.id, index]));
  rows.sort((a, b) => (order.get(a.level) ?? 99) - (order.get(b.level) ?? 99) || a.seat - b.seat);
  return h(
    "tbody",
    { class: "record-set" },
    h(
      "tr",
      { class: "record-set-head" },
      h(
        "th",
        { scope: "colgroup", colspan: COLUMNS + fields.length, class: "record-set-title" },
        rulesText(rows[0].options, rows[0].players, info),
        people > 1 ? `${t("replay.sep")}${t("records.people.count", { n: people })}` : null,
        accuracyLine(accuracy.get(rows[0].rule_key)),
      ),
    ),
    rows.map((row) =>
      h(
        "tr",
        {},
        people > 1
          ? cell("records.people.col.opponents", peopleOpponents(row.level, info.levels), { head: true })
          : cell("records.col.level", levelName(row.level, info.levels), { head: true }),
        cell("records.col.seat", seatName(row.seat, row.players)),
        cell("records.col.games", row.games, { numeric: true }),
        cell("records.col.wins", row.wins, { numeric: true }),
        cell("records.col.draws", row.draws, { numeric: true }),
        cell("records.col.losses", row.losses, { numeric: true }),
        cell(
          "records.col.win_rate",
          h(
            "span",
            { class: "win-rate" },
            percent(row.win_rate),
            h(
              "span",
              { class: "win-rate-bar", "aria-hidden": "true" },
              h("span", { style: `width:${Math.round((row.win_rate ?? 0) * 100)}%` }),
            ),
          ),
          { numeric: true },
        ),
        cell("records.col.best_margin", row.best_margin, { numeric: true }),
        cell("records.col.streak", streak(row.streak)),
        fields.map((field) =>
          h(
            "td",
            { class: "num", "data-label": field.label[LANG] ?? field.label.en },
            figure(row.stats?.[field.key], field),
          ),
        ),
      ),
    ),
  );
}

const TABLE_IDS = { sets: "record-sets", hinted: "record-hinted", people: "record-people" };

/**
 * Every rule set (and number of players) in one table: the same columns at the same places.
 * `accuracies`: the reviewed games' average accuracy per rule set. `kind` names the table: "sets" (unassisted games) or "hinted" (games with hints, kept apart), "people" (games with other people, one group per rule set × players × number of people).
 */
function ruleSetsTable(rows, info, fields, accuracies = [], kind = "sets") {
  const accuracy = new Map(accuracies.map((entry) => [entry.rule_key, entry]));
  const groups = new Map();
  for (const row of rows) {
    const key = `${row.rule_key}|${row.players}|${row.people ?? 1}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(row);
  }
  const head = header(
    [kind === "people" ? "records.people.col.opponents" : "records.col.level"],
    ["records.col.seat"],
    ["records.col.games", true],
    ["records.col.wins", true],
    ["records.col.draws", true],
    ["records.col.losses", true],
    ["records.col.win_rate", true],
    ["records.col.best_margin", true],
    ["records.col.streak"],
  );
  head.firstChild.append(
    ...fields.map((field) =>
      h("th", { scope: "col", class: "num" }, field.label[LANG] ?? field.label.en),
    ),
  );
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      {
        class: "table table--stack records-table",
        id: `${TABLE_IDS[kind]}-${info.game}`,
      },
      head,
      [...groups.values()].map((group) => ruleSetGroup(group, info, fields, accuracy)),
    ),
  );
}

/**
 * The stored game's figure, yours first. ``scores`` is already [yours, the opponent's] (not by
 * seat). In Basic the stores decide nothing; the stones left in the pits do, and the winner has
 * none left, so the signed margin gives both sides.
 */
function scoreText(game) {
  if (game.options?.variant === "basic" && typeof game.margin === "number") {
    const [mine, theirs] = game.margin > 0 ? [0, game.margin] : [-game.margin, 0];
    return t("records.left", { you: mine, them: theirs });
  }
  const [mine, theirs] = game.scores ?? [];
  // As the figures are written ("1,200"), with a true minus sign: "103 – −23", not a dash.
  const number = (n) => new Intl.NumberFormat(LANG).format(n).replace("-", "−");
  return mine === undefined ? "—" : `${number(mine)} – ${number(theirs)}`;
}

/**
 * Who the stored game was played against. Against bots: their level, as always. With other
 * people: each other seat's one name (seat-names.js; set as text): a person's, "Player n" for
 * one stored without a name, a computer's "CPU n" with the level beside it ("CPU 3 (Beginner)").
 */
function opponents(game, info) {
  if ((game.people ?? 1) <= 1) return levelName(game.level, info.levels);
  const names = game.names ?? [];
  const kinds = game.kinds ?? [];
  const players = Array.from({ length: game.players }, (_, seat) => {
    const name = names[seat];
    if (typeof name === "string" && name) return { kind: "human", name };
    return { kind: kinds[seat] ?? (game.level ? "bot" : "human"), name: null };
  });
  const level = game.level ? levelName(game.level, info.levels) : "";
  const others = [];
  for (let seat = 0; seat < game.players; seat += 1) {
    if (seat !== game.seat) others.push(seatLabel(seat, players, null, level));
  }
  return h(
    "span",
    { class: "record-names" },
    h("span", { class: "badge badge--primary record-people-badge" }, t("records.people.count", { n: game.people })),
    " ",
    others.join(t("records.people.names_sep")),
  );
}

function gamesTable(games, info) {
  const score = `records.col.score.${info.game}`; // each game names its own score
  // On a phone the names and a stand-in mark take a line of their own in the game's card.
  const rows = games.map((game) =>
    h(
      "tr",
      { class: (game.people ?? 1) > 1 ? "stored-game--people" : null },
      cell("records.col.date", when(game.finished_at), { wide: true }),
      cell("records.col.rules", rulesText(game.options, game.players, info), { wide: true }),
      cell("records.col.level", opponents(game, info), { wide: (game.people ?? 1) > 1 }),
      cell("records.col.seat", seatName(game.seat, game.players)),
      cell(
        "records.col.result",
        h("span", { class: "record-badges" }, [
          resultBadge(game.result),
          game.hints
            ? [" ", h("span", { class: "badge badge--accent" }, t("records.hinted_badge", { n: game.hints }))]
            : null,
          game.standin
            ? [
                " ",
                h(
                  "span",
                  { class: "badge record-standin", title: t("records.people.standin_title") },
                  t("records.people.standin"),
                ),
              ]
            : null,
        ]),
        { wide: Boolean(game.standin) },
      ),
      cell(score, scoreText(game), { numeric: true }),
      cell(
        "records.replay",
        h(
          "a",
          { class: "btn btn--small", href: `/replay/${encodeURIComponent(game.room_id)}` },
          t("records.replay"),
        ),
      ),
    ),
  );
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "table table--stack stored-games", id: `stored-games-${info.game}` },
      header(
        ["records.col.date"],
        ["records.col.rules"],
        ["records.col.level"],
        ["records.col.seat"],
        ["records.col.result"],
        [score, true],
        ["records.replay"],
      ),
      h("tbody", {}, rows),
    ),
  );
}

/** Games not finished yet, each with a link back to its own address. */
function unfinishedTable(rooms, info) {
  const rows = rooms.map((room) =>
    h(
      "tr",
      {},
      cell("records.col.started", when(room.created_at), { wide: true }),
      cell("records.col.rules", rulesText(room.options, room.players, info), { wide: true }),
      cell("records.col.level", levelName(room.level, info.levels)),
      cell("records.col.seat", seatName(room.seat, room.players)),
      cell(
        "records.continue",
        h("a", { class: "btn btn--small btn--primary", href: room.url }, t("records.continue")),
      ),
    ),
  );
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "table table--stack unfinished-games", id: `unfinished-${info.game}` },
      header(
        ["records.col.started"],
        ["records.col.rules"],
        ["records.col.level"],
        ["records.col.seat"],
        ["records.continue"],
      ),
      h("tbody", {}, rows),
    ),
  );
}

/** The course's progress and the trainer's best figures, when the game has them. */
function learningPart(info, learning) {
  const content = [];
  const lessons = learning.lessons;
  if (lessons) {
    const key = lessons.done === 0 ? "learn.offer.go" : lessons.done < lessons.total ? "records.course_continue" : "records.course_again";
    content.push(
      h(
        "p",
        { class: "records-course", "data-done": lessons.done, "data-total": lessons.total },
        t("records.lessons_done", { done: lessons.done, total: lessons.total }),
        " ",
        h("a", { class: "btn btn--small", href: `/learn/${info.game}` }, t(key)),
      ),
    );
  }
  const trainer = learning.trainer;
  if (trainer) {
    const best = trainer.best ?? {};
    const table = h("table", { class: "table table--stack records-trainer", id: `trainer-best-${info.game}` });
    if (Object.keys(best).length) fillBestTable(table, best, trainer.kinds ?? {}, trainer.levels ?? []);
    content.push(
      h(
        "p",
        { class: "records-trainer-line" },
        Object.keys(best).length ? t("trainer.best") : t("records.trainer_none"),
        " ",
        h("a", { class: "btn btn--small", href: `/learn/${info.game}/trainer` }, t("trainer.cta")),
      ),
    );
    if (Object.keys(best).length) content.push(h("div", { class: "table-wrap" }, table));
  }
  return content;
}

/** One game's records: its unfinished games, its rule sets and its stored games. */
function gameRecords(info, records, rooms, depth) {
  const heading = (key, text) => h(`h${depth}`, { id: `${key}-${info.game}` }, text);
  const part = (key, text, ...content) =>
    h("section", { "aria-labelledby": `${key}-${info.game}` }, heading(key, text), content);
  const rows = records.rows ?? [];
  const games = records.games ?? [];
  const parts = [];
  if (rooms.length) parts.push(part("unfinished", t("records.unfinished"), unfinishedTable(rooms, info)));
  const learning = learningPart(info, records.learning ?? {});
  if (learning.length) parts.push(part("learning", t("records.learning"), learning));
  if (!rows.length && !games.length) {
    parts.push(
      h(
        "div",
        { class: "card empty-state" },
        h("p", {}, t("records.empty")),
        h(
          "p",
          { class: "btn-row" },
          h("a", { class: "btn btn--primary", href: `/games/${info.game}` }, t("home.play")),
        ),
      ),
    );
    return parts;
  }
  const fields = records.fields ?? [];
  const againstBots = rows.filter((row) => (row.people ?? 1) <= 1);
  const plain = againstBots.filter((row) => !row.hinted);
  const hinted = againstBots.filter((row) => row.hinted);
  const withPeople = rows.filter((row) => (row.people ?? 1) > 1);
  if (plain.length || (!hinted.length && !withPeople.length)) {
    parts.push(part("sets", t("nav.records"), ruleSetsTable(plain, info, fields, records.accuracy)));
  }
  if (hinted.length) {
    parts.push(
      part(
        "hinted",
        t("records.hinted"),
        h("p", { class: "muted" }, t("records.hinted_note")),
        ruleSetsTable(hinted, info, fields, [], "hinted"),
      ),
    );
  }
  if (withPeople.length) {
    parts.push(
      part(
        "people",
        t("records.people"),
        h("p", { class: "muted" }, t("records.people.note")),
        ruleSetsTable(withPeople, info, fields, [], "people"),
      ),
    );
  }
  parts.push(
    part(
      "games",
      t("records.games"),
      games.length ? gamesTable(games, info) : h("p", { class: "muted" }, t("records.no_games")),
    ),
  );
  return parts;
}

async function load(info) {
  const game = encodeURIComponent(info.game);
  const [records, rooms] = await Promise.all([
    getJSON(`/api/records/${game}`),
    getJSON(`/api/rooms?mine=unfinished&game=${game}`),
  ]);
  return { info, records, rooms: rooms.rooms ?? [] };
}

// The person's own profile, by the public id GET /api/me answers.
getJSON("/api/me")
  .then((me) => {
    const link = document.getElementById("profile-link");
    if (!me?.id || !link) return;
    link.href = `/players/${encodeURIComponent(me.id)}`;
    link.hidden = false;
  })
  .catch(() => {});

Promise.all((data.games ?? []).map(load))
  .then((loaded) => {
    if (data.game) {
      const [{ info, records, rooms }] = loaded;
      box.replaceChildren(...gameRecords(info, records, rooms, 2));
      return;
    }
    box.replaceChildren(
      ...loaded.map(({ info, records, rooms }) =>
        h(
          "section",
          { class: "records-game", "aria-labelledby": `game-${info.game}` },
          h("h2", { id: `game-${info.game}` }, t(`game.${info.game}.name`)),
          gameRecords(info, records, rooms, 3),
        ),
      ),
    );
  })
  .catch(() => {
    box.replaceChildren(
      h("p", { class: "notice notice--error", role: "alert" }, t("records.error")),
    );
  });
