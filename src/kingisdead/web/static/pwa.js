// Every page registers the service worker (static/sw.js, served at /sw.js for the whole site's scope):
// it shows pushed "your turn" messages and the offline page. Included by static/pwa-head.html.
const KEPT_IN = "kid:offline-lang";

async function register() {
  if (!("serviceWorker" in navigator)) return;
  try {
    await navigator.serviceWorker.register("/sw.js", { scope: "/", type: "classic", updateViaCache: "none" });
  } catch (err) {
    console.warn("service worker not registered:", err);  // the site works without it, only not offline
    return;
  }
  // The offline page is kept in the language it was fetched in: ask for it again when the page's changes.
  const lang = document.documentElement.lang;
  if (localStorage.getItem(KEPT_IN) === lang) return;
  const registration = await navigator.serviceWorker.ready;
  if (localStorage.getItem(KEPT_IN) !== null) registration.active?.postMessage("keep-offline-page");
  localStorage.setItem(KEPT_IN, lang);
}

register();
