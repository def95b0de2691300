// Small DOM helpers shared by the page modules.

/** Create an element: h("a", {href: "/", class: "btn"}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    // Through the CSSOM: the Content-Security-Policy refuses style attributes.
    else if (name === "style") node.style.cssText = value;
    else if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Create an SVG element with attributes. */
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (name === "class") node.setAttribute("class", value);
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** True when the visitor asked the system for less motion. */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Resolve after `ms` milliseconds. */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Scroll just enough that `node` lies below the site's sticky header and above `dock` (what a
 * game keeps stuck at the foot of the screen: its turn line and prompts; null when nothing is);
 * its top wins when it is taller than the room between them, and nothing moves when it is
 * already in sight. At once, not smoothly: a finger may be about to touch what comes into view.
 */
export function keepInSight(node, dock = null, gap = 8) {
  const box = node.getBoundingClientRect();
  const top = (document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0) + gap;
  let bottom = window.innerHeight;
  if (dock) {
    const stuck = dock.getBoundingClientRect();
    // Stuck at the foot of the screen, the dock's top is as high as it will sit over the node.
    bottom = Math.min(bottom, stuck.top, window.innerHeight - stuck.height);
  }
  bottom -= gap;
  let by = box.bottom > bottom ? box.bottom - bottom : 0;
  if (box.top - by < top) by = box.top - top;
  if (Math.abs(by) >= 1) window.scrollBy({ top: by, behavior: "instant" });
}
