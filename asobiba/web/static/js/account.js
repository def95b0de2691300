// The account page (/account; docs/ARCHITECTURE.md, "Accounts"). A guest keeps their games
// (POST /api/account) or signs in (POST /api/session: the games played here as a guest join the
// account); a signed-in browser signs out (DELETE /api/session) and lists its account's sessions
// (GET /api/sessions), each with a button that signs it out (DELETE /api/sessions/{id}). After a
// change of who this browser is, the page reloads, so the header and every page say it.
// Session labels come from browsers' User-Agents: they are set as text, never as markup.
import { ApiError, deleteJSON, getJSON, postJSON } from "./api.js";
import { h } from "./dom.js";
import { LANG, pageData, t } from "./i18n.js";
import { toast } from "./toast.js";

const ACCOUNT = pageData().account ?? null;
const ERRORS = new Set([
  "invalid_username",
  "password_too_short",
  "password_too_long",
  "username_taken",
  "already_account",
  "wrong_credentials",
  "too_many_attempts",
  "unavailable",
  "network",
]);

/** A refusal in the page's words (the server's own sentence for anything unexpected). */
function said(error) {
  if (error instanceof ApiError && ERRORS.has(error.code)) return t(`account.error.${error.code}`);
  return error instanceof ApiError ? error.message : String(error);
}

/** Send `form`'s username and password to `url`; on success reload as the account. */
function wire(form, url, errorBox) {
  if (!form) return;
  const button = form.querySelector("button[type=submit]");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.hidden = true;
    const username = form.elements.username.value.trim();
    const password = form.elements.password.value;
    if (!username || !password) {
      errorBox.textContent = t("account.error.empty");
      errorBox.hidden = false;
      (username ? form.elements.password : form.elements.username).focus();
      return;
    }
    button.disabled = true;
    try {
      await postJSON(url, { username, password });
      location.reload();
    } catch (error) {
      errorBox.textContent = said(error);
      errorBox.hidden = false;
      button.disabled = false;
      form.elements.password.focus();
      form.elements.password.select();
    }
  });
}

const when = new Intl.DateTimeFormat(LANG, { dateStyle: "medium", timeStyle: "short" });

function sessionRow(session) {
  const label = session.label || t("account.sessions.unknown");
  const revoke = h(
    "button",
    {
      class: "btn btn--small",
      type: "button",
      "aria-label": t("account.sessions.revoke_named", { name: label }),
    },
    session.current ? t("account.sign_out") : t("account.sessions.revoke"),
  );
  revoke.addEventListener("click", async () => {
    revoke.disabled = true;
    try {
      const answer = await deleteJSON(`/api/sessions/${encodeURIComponent(session.id)}`);
      if (answer.signed_out) {
        location.reload();
        return;
      }
      toast(t("account.sessions.revoked", { name: label }));
      await listSessions();
      document.getElementById("sessions-heading")?.focus?.();
    } catch (error) {
      toast(said(error), { kind: "error" });
      revoke.disabled = false;
    }
  });
  return h(
    "li",
    { class: "session", dataset: { current: String(session.current), id: session.id } },
    h(
      "div",
      { class: "session-words" },
      h(
        "p",
        { class: "session-label" },
        label,
        session.current ? h("span", { class: "badge badge--accent" }, t("account.sessions.this")) : null,
      ),
      h(
        "p",
        { class: "session-times" },
        t("account.sessions.times", {
          since: when.format(new Date(session.created_at)),
          seen: when.format(new Date(session.seen_at)),
        }),
      ),
    ),
    revoke,
  );
}

async function listSessions() {
  const list = document.getElementById("sessions");
  try {
    const { sessions } = await getJSON("/api/sessions");
    list.replaceChildren(...sessions.map(sessionRow));
  } catch (error) {
    list.replaceChildren(h("li", { class: "notice notice--error" }, said(error)));
  }
  list.removeAttribute("aria-busy");
}

if (ACCOUNT) {
  const out = document.getElementById("sign-out");
  out.addEventListener("click", async () => {
    out.disabled = true;
    try {
      await deleteJSON("/api/session");
      location.reload();
    } catch (error) {
      toast(said(error), { kind: "error" });
      out.disabled = false;
    }
  });
  listSessions();
} else {
  wire(document.getElementById("keep-form"), "/api/account", document.getElementById("keep-error"));
  wire(
    document.getElementById("sign-in-form"),
    "/api/session",
    document.getElementById("sign-in-error"),
  );
}
