// The lobby's account panel: log in or create an account (optional: anyone plays without),
// and once in, log out, change the password, download everything kept, delete the account,
// and say whether the account's name may be given in the site's public dataset of games.
import { refusal, t } from "./i18n.js";
import { $, toast } from "./dom.js";
import { loadSession, postHeaders, session, setSession } from "./session.js";

let changed = () => {};

async function post(path, body) {
  let response;
  let data;
  try {
    response = await fetch(path, { method: "POST", headers: postHeaders(), body: JSON.stringify(body) });
    data = await response.json();
  } catch {
    toast(t("web_server_unreachable"));
    return null;
  }
  if (!response.ok) {
    toast(refusal(data));
    if (data.code === "password_logged_out") { setSession({}); showAccount(); changed(); }
    return null;
  }
  return data;
}

export function showAccount() {
  const { account } = session();
  $("account-out").hidden = Boolean(account);
  $("account-in").hidden = !account;
  if (account) {
    $("account-who").textContent = t("web_account_who", { name: account.name });
    $("profile-link").href = `/player#${encodeURIComponent(account.name)}`;
    $("share-name").checked = Boolean(account.share_name);
  }
}

// The form the focus was in is gone: the focus goes to what took its place, and a live
// region says what happened (a screen reader heard nothing of the form's going).
function arrived(id, words) {
  const el = $(id);
  el.tabIndex = -1;
  el.focus();
  $("account-said").textContent = words;
}

async function enter(path) {
  const form = $("login-form");
  const data = await post(path, { name: form.name.value, password: form.password.value });
  if (!data) return;
  setSession(data);
  form.password.value = "";
  showAccount();
  changed();
  const name = data.account.name;
  arrived("account-who", path.endsWith("register") ? t("web_account_created", { name }) : t("web_account_who", { name }));
  if (data.failed_logins > 0) toast(t("web_account_failed_logins", { count: data.failed_logins }));
}

export async function initAccount(onChange) {
  changed = onChange;
  await loadSession();
  $("login-form").addEventListener("submit", (event) => { event.preventDefault(); enter("/api/account/login"); });
  $("register").addEventListener("click", () => enter("/api/account/register"));
  $("logout").addEventListener("click", async () => {
    if (await post("/api/account/logout", {})) {
      setSession({});
      showAccount();
      changed();
      arrived("h-account", t("web_account_logged_out"));
    }
  });
  $("share-name").addEventListener("change", async () => {
    const box = $("share-name");
    const data = await post("/api/account/share-name", { share: box.checked });
    if (data) setSession({ ...session(), account: { ...session().account, share_name: data.share_name } });
    else box.checked = !box.checked;
  });
  $("password-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = $("password-form");
    const data = await post("/api/account/password", { old: form.old.value, new: form.new.value });
    if (data) { setSession(data); form.reset(); toast(t("web_account_password_changed")); }
  });
  $("delete-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = $("delete-form");
    if (await post("/api/account/delete", { password: form.password.value })) {
      setSession({});
      form.reset();
      showAccount();
      changed();
      toast(t("web_account_deleted"));
    }
  });
  showAccount();
}
