// The visitor's own data (/me/data): "Delete my data" asks in the site's dialog first, then
// sends `DELETE /api/account` with `{"confirm": true}` and opens the page again as the new
// guest the answer made (`?deleted=1` says it is done). "Download my data" is a plain link.
import { deleteJSON } from "./api.js";
import { confirmDialog } from "./dialog.js";
import { t } from "./i18n.js";
import { toast } from "./toast.js";

const button = document.getElementById("data-delete");

async function deleteMyData() {
  const sure = await confirmDialog(t("data.delete.confirm"), {
    yes: t("data.delete.yes"),
    no: t("data.delete.no"),
    danger: true,
  });
  if (!sure) return;
  button.disabled = true;
  try {
    await deleteJSON("/api/account", { confirm: true });
    window.location.assign("/me/data?deleted=1");
  } catch (error) {
    button.disabled = false;
    toast(t("data.delete.failed", { message: error.message }), { kind: "error", timeout: 8000 });
  }
}

button?.addEventListener("click", deleteMyData);
