// One name per seat, the same on every page, for every viewer and in both languages, so the
// people at a table can refer to a seat in the chat: the viewer's own seat is "You"; a person
// is called by the name their seat was taken with (the server numbers a second "Aki" at the
// table "Aki 2", `social/names.py`), "Player n" where none is known, "Deleted player" where the
// person deleted their data (`kind: "deleted"`, `store/seats.py`); a computer's seat is
// "CPU n", n the seat's number from 1 (server-side `names.cpu_name`), whatever the viewer's
// seat. A computer's level is shown beside its name where levels are shown ("CPU 2
// (Beginner)", `seatLabel`), never instead of it.
import { t } from "./i18n.js";

/** "CPU 2" for seat 1. */
export function cpuName(seat) {
  return t("seat.cpu", { n: seat + 1 });
}

/**
 * A seat's name. `players` are the room's entries by seat (`{kind: "human" | "bot" | "open" | "deleted",
 * name?}`; may be empty before the first sync: a seat not known is a computer's); `viewer` is
 * the seat called "You" (null: nobody, a spectator or the list of players).
 */
export function seatName(seat, players, viewer = null) {
  if (seat === null || seat === undefined) return "";
  if (viewer !== null && viewer !== undefined && seat === viewer) return t("play.you");
  const player = players?.[seat];
  if (player?.kind === "deleted") return t("seat.deleted");
  if (player && player.kind !== "bot") return player.name || t("seat.player", { n: seat + 1 });
  return cpuName(seat);
}

/** A seat's name with a computer's level beside it ("CPU 2 (Beginner)"); `level` in words. */
export function seatLabel(seat, players, viewer = null, level = "") {
  const name = seatName(seat, players, viewer);
  const player = players?.[seat];
  const bot = !(player && player.kind !== "bot") && !(viewer !== null && viewer !== undefined && seat === viewer);
  return bot && level ? t("seat.with_level", { name, level }) : name;
}

/** Everyone at a table, by name ("Aki vs ベン"): what a spectator's label says. */
export function versus(names) {
  return names.join(t("seat.vs"));
}
