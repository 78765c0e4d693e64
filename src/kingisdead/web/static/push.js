// The "Notifications on this device" switch of a signed-in player's account panel (Web Push): on, the browser
// asks the player's permission, subscribes with the site's key and the server records the subscription
// (POST /api/push/subscriptions); off, the browser unsubscribes and the server forgets it. The messages
// themselves are shown by the service worker (static/sw.js). What fails is said in words, never silently.
import { api, el } from "/static/common.js";
import { t } from "/static/i18n.js";

// The VAPID public key as the bytes PushManager.subscribe wants (the server sends it base64url-encoded).
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "=")), (c) => c.charCodeAt(0));
}

function sameKey(subscription, key) {
  const held = subscription.options.applicationServerKey;
  if (!held) return false;
  const bytes = new Uint8Array(held);
  return bytes.length === key.length && bytes.every((byte, i) => byte === key[i]);
}

// This browser's subscription made with the site's current key, or null (one made with an older key is dropped).
async function current(registration, key) {
  const subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    return null;
  }
  return subscription;
}

// view: GET /api/account/notifications's answer. Shows nothing where the site has no push (no push_key) or the
// browser cannot receive it.
export async function mountPush(container, view) {
  if (!view || !view.push_key || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  const key = keyBytes(view.push_key);
  const registration = await navigator.serviceWorker.ready;
  const toggle = el("input", { type: "checkbox", "data-testid": "push-switch" });
  const message = el("p", { class: "push-message hidden", "data-testid": "push-message", role: "status" });
  container.replaceChildren(
    el("h3", {}, t("Notifications")),
    el("label", { class: "push-switch" }, toggle, " ", t("Notifications on this device")),
    el("p", { class: "muted", style: "font-size:0.85rem" },
      t("Your turn and the last hour of your time to move in slow games, even with the site closed.")),
    message);
  const say = (text, fine = false) => {  // what went wrong stands out; what went right is said quietly
    message.textContent = text;
    message.className = `push-message ${text ? (fine ? "muted" : "error-box") : "hidden"}`;
  };

  const subscription = await current(registration, key).catch(() => null);
  toggle.checked = subscription !== null && Notification.permission === "granted";
  if (toggle.checked) {  // the server may have dropped it (or this browser's other account held it): record it again
    api("POST", "/api/push/subscriptions", subscription.toJSON()).catch((err) => say(err.message));
  } else if (Notification.permission === "denied") {
    say(t("This browser blocks notifications from this site: allow them in its site settings to turn them on."));
  }

  toggle.addEventListener("change", async () => {
    toggle.disabled = true;
    say("");
    try {
      if (toggle.checked) toggle.checked = await subscribe(registration, key, say);
      else toggle.checked = !(await unsubscribe(registration, key, say));
    } finally {
      toggle.disabled = false;
    }
  });
}

// Asks the permission, subscribes and records the subscription; true when all three succeeded.
async function subscribe(registration, key, say) {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    say(permission === "denied"
      ? t("This browser blocks notifications from this site: allow them in its site settings to turn them on.")
      : t("Notifications were not allowed: nothing changed."));
    return false;
  }
  let subscription;
  try {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch (err) {
    say(t("This browser could not subscribe to notifications: {error}", { error: err.message || String(err) }));
    return false;
  }
  try {
    await api("POST", "/api/push/subscriptions", subscription.toJSON());
  } catch (err) {
    await subscription.unsubscribe().catch(() => {});
    say(t("The server did not record this device: {error}", { error: err.message }));
    return false;
  }
  say(t("This device will be notified."), true);
  return true;
}

// Unsubscribes this browser and tells the server; true when the browser holds no subscription any more.
async function unsubscribe(registration, key, say) {
  try {
    const subscription = await current(registration, key);
    if (subscription) {
      const { endpoint } = subscription;
      await subscription.unsubscribe();
      await api("DELETE", "/api/push/subscriptions", { endpoint });
    }
  } catch (err) {
    say(t("Notifications could not be turned off: {error}", { error: err.message || String(err) }));
    return (await registration.pushManager.getSubscription()) === null;
  }
  say(t("This device will not be notified any more."), true);
  return true;
}
