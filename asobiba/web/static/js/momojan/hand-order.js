// The player's own order of their hand. The observation's hand is sorted (M, L, O, S by number,
// then the pictures); a player may drag a card to another place (mouse or touch, through
// pointer events) or move the focused card with Shift+←/→. The order belongs to the page, not
// the game: it is kept in sessionStorage per room, so a reload of the same room keeps it, and
// the server never hears of it.
//
// Cards that join the hand (a draw kept, a new deal) go to their sorted place: before the first
// arranged card that sorts after them. A hand nobody rearranged therefore stays sorted, and a
// rearranged one keeps every card where the player put it.

/**
 * `cards` (the observation's sorted order) in the `saved` order: cards still held keep their
 * places (a picture held twice is matched copy by copy), the others go to their sorted place.
 */
export function arrange(saved, cards) {
  const left = new Map();
  for (const card of cards) left.set(card, (left.get(card) ?? 0) + 1);
  const kept = [];
  for (const card of saved ?? []) {
    if ((left.get(card) ?? 0) > 0) {
      kept.push(card);
      left.set(card, left.get(card) - 1);
    }
  }
  const rank = (card) => cards.indexOf(card);
  for (const card of cards) {
    if (!left.get(card)) continue;
    left.set(card, left.get(card) - 1);
    const at = kept.findIndex((other) => rank(other) > rank(card));
    kept.splice(at < 0 ? kept.length : at, 0, card);
  }
  return kept;
}

export function loadOrder(key) {
  if (!key) return null;
  try {
    const saved = JSON.parse(sessionStorage.getItem(key) ?? "null");
    return Array.isArray(saved) && saved.every((c) => typeof c === "string") ? saved : null;
  } catch {
    return null;
  }
}

export function saveOrder(key, order) {
  if (!key) return;
  try {
    sessionStorage.setItem(key, JSON.stringify(order));
  } catch {
    /* not remembered: the hand shows sorted after a reload */
  }
}

/** Pixels a pointer must travel before a press becomes a drag (a shorter one is a tap). */
const DRAG_START = 8;

/**
 * Drag and keyboard moves over the cards in `row` (its children, each with `data-card`).
 * `onMove(order, focus)` receives the row's new order once a move is made (`focus`: the index of
 * the card moved by keyboard, to keep it focused after the redraw); `onDragEnd()` runs after
 * every drag, moved or not (the table draws what it held back meanwhile). ←/→ alone move the
 * focus along the row.
 */
export function enableReorder(row, { onMove, onDragEnd }) {
  let drag = null;
  const cards = () => [...row.children];
  const order = () => cards().map((node) => node.dataset.card);
  const cardOf = (target) => cards().find((node) => node.contains(target)) ?? null;

  // Moves and the release are followed on the document: the card may be let go anywhere.
  const move = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.moving) {
      if (Math.abs(event.clientX - drag.x) < DRAG_START) return;
      drag.moving = true;
      drag.before = order().join(" ");
      drag.node.classList.add("is-dragging");
      row.classList.add("is-reordering");
    }
    event.preventDefault();
    // The card goes before the first other card whose middle lies right of the pointer.
    const next = cards()
      .filter((node) => node !== drag.node)
      .find((node) => {
        const box = node.getBoundingClientRect();
        return event.clientX < box.left + box.width / 2;
      });
    if (next) {
      if (drag.node.nextElementSibling !== next) row.insertBefore(drag.node, next);
    } else if (row.lastElementChild !== drag.node) row.append(drag.node);
  };

  const finish = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const { node, moving, before } = drag;
    drag = null;
    document.removeEventListener("pointermove", move);
    document.removeEventListener("pointerup", finish);
    document.removeEventListener("pointercancel", finish);
    if (!moving) return;
    node.classList.remove("is-dragging");
    row.classList.remove("is-reordering");
    // The click that ends a drag is not a discard.
    const swallow = (click) => {
      click.stopPropagation();
      click.preventDefault();
    };
    document.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => document.removeEventListener("click", swallow, { capture: true }), 0);
    if (order().join(" ") !== before) onMove(order(), null);
    onDragEnd();
  };

  row.addEventListener("pointerdown", (event) => {
    const node = cardOf(event.target);
    if (drag || !node || event.button !== 0) return;
    drag = { node, id: event.pointerId, x: event.clientX, moving: false };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", finish);
    document.addEventListener("pointercancel", finish);
  });

  row.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const node = cardOf(event.target);
    if (!node) return;
    event.preventDefault();
    const list = cards();
    const from = list.indexOf(node);
    const to = from + (event.key === "ArrowLeft" ? -1 : 1);
    if (to < 0 || to >= list.length) return;
    if (!event.shiftKey) {
      list[to].focus();
      return;
    }
    const moved = order();
    moved.splice(to, 0, moved.splice(from, 1)[0]);
    onMove(moved, to);
  });

  return { dragging: () => Boolean(drag?.moving) };
}
