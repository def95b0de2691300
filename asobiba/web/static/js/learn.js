// /learn/<game>: the game's lessons. Each is a position on the game's own table, drawn by the
// game's lesson module (/static/js/<game>/lesson.js, `mountLesson`: the play page's board, cards
// and prompts); every move goes to POST /api/learn/<game>/<lesson> with the moves made so far,
// and the server's engine answers right (done, remembered for this guest), continue (your turn
// again) or wrong (what happened and a hint). The page judges nothing.
//
// A lesson names the rulebook's parts it teaches (`covers`), and may carry a worked example
// played out by the engine (`demo`: its frames are observations): a small player shows it on the
// same table (the module's `mountDemo`), frame by frame, autoplaying at the game's own rhythm.
import { ApiError, getJSON, postJSON } from "./api.js";
import { h, reducedMotion } from "./dom.js";
import { LANG, pageData, pick, t } from "./i18n.js";
import { initialSpeed } from "./speed.js";
import { toast } from "./toast.js";

const data = pageData();
const box = document.getElementById("lessons");
const list = document.getElementById("lesson-list");
const progress = document.getElementById("learn-progress");
const panel = document.getElementById("lesson");
const number = document.getElementById("lesson-number");
const title = document.getElementById("lesson-title");
const text = document.getElementById("lesson-text");
const task = document.getElementById("lesson-task");
const feedback = document.getElementById("lesson-feedback");
const verdictLine = document.getElementById("lesson-verdict");
const said = document.getElementById("lesson-said");
const retry = document.getElementById("lesson-retry");
const next = document.getElementById("lesson-next");
const play = document.getElementById("lesson-play");
const covers = document.getElementById("lesson-covers");
const demoBox = document.getElementById("lesson-demo");
const demoTitle = document.getElementById("demo-title");
const demoNote = document.getElementById("demo-note");
const demoLines = document.getElementById("demo-lines");
const demoBack = document.getElementById("demo-back");
const demoPlay = document.getElementById("demo-play");
const demoPlayText = document.getElementById("demo-play-text");
const demoNext = document.getElementById("demo-next");
const demoCount = document.getElementById("demo-count");

let lessons = [];
let current = -1;
/** The moves accepted so far in this lesson, and before each the position it was made in. */
let moves = [];
let steps = [];
let busy = false;
let board = null;
let module = null;
/** The worked example's player: its table, frames, the frame shown and the autoplay timer. */
const demo = { table: null, frames: [], index: 0, timer: 0 };

function showProgress() {
  const done = lessons.filter((lesson) => lesson.done).length;
  progress.textContent = t("learn.progress", { done, total: lessons.length });
  list.replaceChildren(
    ...lessons.map((lesson, index) =>
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: "learn-chip",
            "data-lesson": lesson.id,
            "data-done": String(lesson.done),
            "aria-current": index === current ? "step" : "false",
            onclick: () => select(index),
          },
          h("span", { class: "learn-chip-n", "aria-hidden": "true" }, lesson.done ? "✓" : String(index + 1)),
          h("span", { class: "learn-chip-title" }, pick(lesson.title)),
          lesson.done ? h("span", { class: "visually-hidden" }, ` (${t("learn.done")})`) : null,
        ),
      ),
    ),
  );
}

function say(kind, words) {
  feedback.hidden = !kind;
  feedback.dataset.kind = kind ?? "";
  verdictLine.textContent = kind ? t(`learn.${kind}`) : "";
  said.textContent = words ?? "";
}

function select(index, { focus = true } = {}) {
  current = index;
  const lesson = lessons[index];
  moves = [];
  steps = [{ view: lesson.view, legal: lesson.legal }];
  panel.dataset.lesson = lesson.id;
  panel.dataset.status = "ready";
  number.textContent = t("learn.lesson_n", { n: index + 1 });
  title.textContent = pick(lesson.title);
  text.textContent = pick(lesson.text);
  task.textContent = pick(lesson.task);
  const parts = lesson.covers ?? [];
  covers.hidden = !parts.length;
  covers.textContent = parts.length ? t("learn.covers", { parts: parts.map((part) => pick(part.title)).join(t("learn.covers_sep")) }) : "";
  showDemo(lesson.demo);
  say(null);
  retry.hidden = next.hidden = play.hidden = true;
  board.show(lesson.view, lesson.legal);
  showProgress();
  const url = new URL(window.location.href);
  url.searchParams.set("lesson", lesson.id);
  history.replaceState(null, "", url);
  if (focus) title.focus({ preventScroll: true });
}

async function onMove(action) {
  if (busy || current < 0) return;
  busy = true;
  const lesson = lessons[current];
  board.setLegal([]);
  panel.dataset.status = "checking";
  say(null);
  try {
    const verdict = await postJSON(`/api/learn/${encodeURIComponent(data.game)}/${encodeURIComponent(lesson.id)}`, {
      moves: [...moves, action],
    });
    await board.play(verdict.view, verdict.status === "continue" ? verdict.legal : []);
    panel.dataset.status = verdict.status;
    // The verdict under the table: on a phone it may be below the screen's edge.
    queueMicrotask(() => feedback.scrollIntoView({ block: "nearest", behavior: reducedMotion() ? "instant" : "smooth" }));
    if (verdict.status === "wrong") {
      say("wrong", pick(verdict.feedback));
      retry.hidden = false;
      retry.focus({ preventScroll: true });
      return;
    }
    moves.push(action);
    steps.push({ view: verdict.view, legal: verdict.legal });
    if (verdict.status === "continue") {
      say("more", pick(verdict.feedback));
      return;
    }
    say("right", pick(verdict.feedback));
    lesson.done = true;
    showProgress();
    const later = lessons.findIndex((other, index) => index > current && !other.done);
    const waiting = later >= 0 ? later : lessons.findIndex((other) => !other.done);
    if (waiting >= 0) {
      next.hidden = false;
      next.dataset.to = String(waiting);
      next.focus({ preventScroll: true });
    } else {
      said.textContent = `${said.textContent}${LANG === "ja" ? "" : " "}${t("learn.all_done")}`;
      play.hidden = false;
    }
  } catch (error) {
    panel.dataset.status = "ready";
    const { view, legal } = steps[steps.length - 1];
    board.show(view, legal);
    toast(error instanceof ApiError && error.code !== "network" ? error.message : t("error.network"), {
      kind: "error",
    });
  } finally {
    busy = false;
  }
}

retry.addEventListener("click", () => {
  const { view, legal } = steps[steps.length - 1];
  retry.hidden = true;
  panel.dataset.status = "ready";
  say(moves.length ? "more" : null, moves.length ? pick(lessons[current].task) : "");
  board.show(view, legal);
});

next.addEventListener("click", () => select(Number(next.dataset.to)));

// --- the worked example's player ---------------------------------------------------------------

function showDemo(worked) {
  stopDemo();
  demo.frames = worked?.frames ?? [];
  demoBox.hidden = !demo.frames.length || !module?.mountDemo;
  if (demoBox.hidden) return;
  demoTitle.textContent = pick(worked.title);
  demo.table = module.mountDemo(document.getElementById("demo-stage"), { seat: worked.seat });
  demo.table.setSpeed(initialSpeed());
  demoFrame(0);
}

function demoFrame(index, { animate = false } = {}) {
  demo.index = Math.max(0, Math.min(index, demo.frames.length - 1));
  const frame = demo.frames[demo.index];
  const previous = demo.index > 0 ? demo.frames[demo.index - 1].view : null;
  const lines = demo.table.show(frame.view, previous, { animate });
  demoNote.textContent = pick(frame.note);
  demoNote.hidden = !frame.note;
  demoLines.replaceChildren(...lines.map((line) => h("li", {}, line)));
  demoCount.textContent = t("learn.demo.count", { n: demo.index + 1, total: demo.frames.length });
  demoBox.dataset.frame = String(demo.index);
  demoBack.disabled = demo.index === 0;
  demoNext.disabled = demo.index === demo.frames.length - 1;
}

function stopDemo() {
  clearTimeout(demo.timer);
  demo.timer = 0;
  demoPlay.dataset.playing = "false";
  demoPlayText.textContent = t("learn.demo.play");
}

function playDemo() {
  if (demo.index >= demo.frames.length - 1) demoFrame(0);
  demoPlay.dataset.playing = "true";
  demoPlayText.textContent = t("learn.demo.pause");
  const step = () => {
    if (demo.index >= demo.frames.length - 1) {
      stopDemo();
      return;
    }
    const wait = demo.table.pause(demo.frames[demo.index].view, demo.frames[demo.index + 1].view);
    demo.timer = setTimeout(() => {
      demoFrame(demo.index + 1, { animate: true });
      step();
    }, wait);
  };
  step();
}

demoPlay.addEventListener("click", () => (demoPlay.dataset.playing === "true" ? stopDemo() : playDemo()));
demoBack.addEventListener("click", () => {
  stopDemo();
  demoFrame(demo.index - 1);
});
demoNext.addEventListener("click", () => {
  stopDemo();
  demoFrame(demo.index + 1, { animate: true });
});

async function boot() {
  const [loaded, body] = await Promise.all([
    import(data.module),
    getJSON(`/api/learn/${encodeURIComponent(data.game)}`),
  ]);
  module = loaded;
  lessons = body.lessons;
  board = module.mountLesson(document.getElementById("lesson-board"), { onMove });
  board.setSpeed(initialSpeed());
  const asked = new URLSearchParams(window.location.search).get("lesson");
  const byId = lessons.findIndex((lesson) => lesson.id === asked);
  const firstOpen = lessons.findIndex((lesson) => !lesson.done);
  box.dataset.state = "ready";
  select(byId >= 0 ? byId : Math.max(0, firstOpen), { focus: false });
}

boot().catch(() => {
  box.dataset.state = "error";
  box.replaceChildren(h("p", { class: "notice notice--error", role: "alert" }, t("learn.error")));
});
