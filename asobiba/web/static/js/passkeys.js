// Passkeys on the account page (docs/ARCHITECTURE.md, "Passkeys"): a guest keeps their games
// with a passkey under the username typed in the Keep form, a browser signs in with the passkey
// its device offers (no username), and a signed-in account lists its passkeys, adds one,
// renames and deletes them. Each ceremony is the server's options (POST .../options, JSON with
// binary fields in base64url), the browser's own navigator.credentials.create or .get, and the
// answer sent back as JSON (POST .../verify). The marks and buttons are in
// templates/_passkeys.html; this module shows them where the browser can use passkeys and
// says it cannot elsewhere. After a change of who this browser is, the page reloads.
import { ApiError, deleteJSON, getJSON, postJSON, putJSON } from "./api.js";
import { confirmDialog, promptDialog } from "./dialog.js";
import { h } from "./dom.js";
import { LANG, t } from "./i18n.js";
import { toast } from "./toast.js";

const MAX_NAME = 64;

/** base64url text (no padding) as bytes. */
export function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** An ArrayBuffer (or a view of one) as base64url text, no padding. */
export function toBase64url(buffer) {
  const bytes =
    buffer instanceof ArrayBuffer
      ? new Uint8Array(buffer)
      : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * Whether this browser can make and use passkeys here: a secure context (https, or localhost)
 * at a site's name (browsers make no passkey for an IP address).
 */
export function supported() {
  const address = /^[\d.]+$|^\[/.test(location.hostname);
  return (
    !address &&
    window.isSecureContext &&
    typeof window.PublicKeyCredential === "function" &&
    typeof navigator.credentials?.create === "function" &&
    typeof navigator.credentials?.get === "function"
  );
}

const descriptor = (item) => ({ ...item, id: fromBase64url(item.id) });

/** The server's options for navigator.credentials.create, with its binary fields as bytes. */
function creationOptions(options) {
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: (options.excludeCredentials ?? []).map(descriptor),
  };
}

/** The server's options for navigator.credentials.get, with its binary fields as bytes. */
function requestOptions(options) {
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: (options.allowCredentials ?? []).map(descriptor),
  };
}

/** What the server reads of a credential either call gave (PublicKeyCredential as JSON). */
function credentialJSON(credential) {
  const r = credential.response;
  const response = { clientDataJSON: toBase64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toBase64url(r.attestationObject);
    response.transports = typeof r.getTransports === "function" ? r.getTransports() : [];
  } else {
    response.authenticatorData = toBase64url(r.authenticatorData);
    response.signature = toBase64url(r.signature);
    response.userHandle = r.userHandle ? toBase64url(r.userHandle) : null;
  }
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response,
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
  };
}

/**
 * Make a passkey: the options for `body` (a guest's `{username}`; `{}` signed in), the
 * device's new credential, the server's answer (POST /api/passkeys/register/verify).
 */
export async function makePasskey(body, name = null) {
  const options = await postJSON("/api/passkeys/register/options", body);
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  const answer = { credential: credentialJSON(credential) };
  if (name) answer.name = name;
  return postJSON("/api/passkeys/register/verify", answer);
}

/** Sign in with whichever passkey of this site the device offers; the server's answer. */
export async function usePasskey() {
  const options = await postJSON("/api/passkeys/sign-in/options", {});
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return postJSON("/api/passkeys/sign-in/verify", { credential: credentialJSON(credential) });
}

const PASSKEY_ERRORS = new Set([
  "passkey_expired",
  "passkey_taken",
  "too_many_passkeys",
  "passkeys_unavailable",
  "last_sign_in",
  "invalid_name",
  "unknown_passkey",
]);
const ACCOUNT_ERRORS = new Set([
  "invalid_username",
  "username_taken",
  "already_account",
  "too_many_attempts",
  "unavailable",
  "network",
]);
const BROWSER_ERRORS = {
  NotAllowedError: "passkeys.error.cancelled",
  AbortError: "passkeys.error.cancelled",
  InvalidStateError: "passkeys.error.exists",
  SecurityError: "passkeys.error.security",
  NotSupportedError: "passkeys.error.unsupported",
};

/** A failure in the page's words: the browser's (cancelled, already there...) or the server's. */
function said(error, refused) {
  if (error instanceof ApiError) {
    if (error.code === "passkey_refused") return t(refused);
    if (PASSKEY_ERRORS.has(error.code)) return t(`passkeys.error.${error.code}`);
    if (ACCOUNT_ERRORS.has(error.code)) return t(`account.error.${error.code}`);
    return error.message;
  }
  if (error?.name in BROWSER_ERRORS) return t(BROWSER_ERRORS[error.name]);
  return String(error?.message ?? error);
}

/** Show a slot's button where passkeys work, else its sentence saying they do not. */
function reveal(slot) {
  if (!slot) return null;
  const can = supported();
  for (const part of slot.querySelectorAll("[data-passkey-supported]")) part.hidden = !can;
  for (const part of slot.querySelectorAll("[data-passkey-unsupported]")) part.hidden = can;
  slot.hidden = false;
  return can ? slot : null;
}

/** Run `work` from `button` (kept pressed meanwhile); show a failure in `box`. */
function wire(button, box, refused, work) {
  button.addEventListener("click", async () => {
    box.hidden = true;
    button.disabled = true;
    button.setAttribute("aria-busy", "true");
    try {
      await work();
    } catch (error) {
      box.textContent = said(error, refused);
      box.hidden = false;
    } finally {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  });
}

function mountGuest() {
  const keep = reveal(document.getElementById("passkey-keep-slot"));
  if (keep) {
    const form = document.getElementById("keep-form");
    const box = document.getElementById("keep-error");
    wire(keep.querySelector("#passkey-keep"), box, "passkeys.error.make_refused", async () => {
      const username = form.elements.username.value.trim();
      if (!username) {
        const error = new Error(t("passkeys.error.username_needed"));
        form.elements.username.focus();
        throw error;
      }
      await makePasskey({ username });
      location.reload();
    });
  }
  const signIn = reveal(document.getElementById("passkey-sign-in-slot"));
  if (signIn) {
    const box = document.getElementById("sign-in-error");
    wire(signIn.querySelector("#passkey-sign-in"), box, "passkeys.error.sign_in_refused", async () => {
      await usePasskey();
      location.reload();
    });
  }
}

const when = new Intl.DateTimeFormat(LANG, { dateStyle: "medium", timeStyle: "short" });

function passkeyRow(passkey) {
  const name = passkey.name || t("passkeys.unnamed");
  const rename = h(
    "button",
    { class: "btn btn--small", type: "button", "aria-label": t("passkeys.rename_named", { name }) },
    t("passkeys.rename"),
  );
  rename.addEventListener("click", async () => {
    const chosen = await promptDialog(t("passkeys.rename_prompt"), {
      label: t("passkeys.name"),
      yes: t("passkeys.save"),
      no: t("passkeys.cancel"),
      value: passkey.name,
      maxlength: MAX_NAME,
    });
    if (chosen === null || chosen === passkey.name) return;
    try {
      await putJSON(`/api/passkeys/${passkey.id}/name`, { name: chosen });
      await listPasskeys();
    } catch (error) {
      toast(said(error, "passkeys.error.make_refused"), { kind: "error" });
    }
  });
  const forget = h(
    "button",
    { class: "btn btn--small", type: "button", "aria-label": t("passkeys.delete_named", { name }) },
    t("passkeys.delete"),
  );
  forget.addEventListener("click", async () => {
    if (!passkey.deletable) {
      toast(t("passkeys.error.last_sign_in"), { kind: "error" });
      return;
    }
    const sure = await confirmDialog(t("passkeys.delete_confirm", { name }), {
      yes: t("passkeys.delete"),
      no: t("passkeys.cancel"),
    });
    if (!sure) return;
    forget.disabled = true;
    try {
      await deleteJSON(`/api/passkeys/${passkey.id}`);
      toast(t("passkeys.deleted", { name }));
      await listPasskeys();
      document.getElementById("passkeys-heading")?.focus();
    } catch (error) {
      toast(said(error, "passkeys.error.make_refused"), { kind: "error" });
      forget.disabled = false;
    }
  });
  const times = passkey.last_used_at
    ? t("passkeys.times", {
        since: when.format(new Date(passkey.created_at)),
        used: when.format(new Date(passkey.last_used_at)),
      })
    : t("passkeys.times_unused", { since: when.format(new Date(passkey.created_at)) });
  return h(
    "li",
    { class: "session passkey", dataset: { id: String(passkey.id) } },
    h(
      "div",
      { class: "session-words" },
      h("p", { class: "session-label passkey-name" }, name),
      h("p", { class: "session-times" }, times),
    ),
    h("div", { class: "passkey-actions" }, rename, forget),
  );
}

async function listPasskeys() {
  const list = document.getElementById("passkeys");
  try {
    const { passkeys } = await getJSON("/api/passkeys");
    list.replaceChildren(
      ...(passkeys.length
        ? passkeys.map(passkeyRow)
        : [h("li", { class: "muted passkey-none" }, t("passkeys.none"))]),
    );
  } catch (error) {
    list.replaceChildren(h("li", { class: "notice notice--error" }, said(error, "")));
  }
  list.removeAttribute("aria-busy");
}

function mountAccount() {
  const section = document.getElementById("passkey-add-slot");
  if (!section) return;
  const can = reveal(section);
  listPasskeys();
  if (!can) return;
  const box = document.getElementById("passkey-error");
  const add = section.querySelector("#passkey-add");
  wire(add, box, "passkeys.error.make_refused", async () => {
    await makePasskey({});
    toast(t("passkeys.added"));
    await listPasskeys();
  });
}

if (document.getElementById("keep-form")) mountGuest();
else mountAccount();
