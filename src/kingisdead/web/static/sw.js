// The service worker, served at /sw.js so that its scope is the whole site (docs/web.md, "Installing the site
// and notifications on a device"). It does three things and nothing more:
// - push: shows the server's "your turn" or "an hour left" message (JSON: kind, title, body, url, game, tag);
// - notificationclick: opens the game, in a window already showing it if there is one;
// - offline: a page that cannot be loaded gets the site's own offline page, kept since install.
// Nothing else is cached: games are live, and a stale table would mislead.

const OFFLINE_CACHE = "kid-offline-v1";
const OFFLINE = "/offline";
// The offline page's own files, marked "?offline" so that the worker never stands between a live page and its files.
const OFFLINE_ASSETS = [OFFLINE, "/static/style.css?offline", "/static/favicon.svg?offline", "/static/offline.js?offline"];
const ICON = "/static/icons/icon-192.png";

// The offline page as the server renders it now: in the language of the browser's cookie or account.
async function keepOfflinePage() {
  const cache = await caches.open(OFFLINE_CACHE);
  await cache.addAll(OFFLINE_ASSETS.map((url) => new Request(url, { cache: "no-cache" })));
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepOfflinePage().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== OFFLINE_CACHE) await caches.delete(name);
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();  // the page that registered it is served offline too, without a reload
  })());
});

// A page tells the worker its language changed (static/pwa.js): the offline page is fetched again.
self.addEventListener("message", (event) => {
  if (event.data === "keep-offline-page") event.waitUntil(keepOfflinePage());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode === "navigate" && request.method === "GET") {  // a form's POST goes to the network untouched
    event.respondWith((async () => {
      try {
        return (await event.preloadResponse) || await fetch(request);
      } catch {
        return (await caches.match(OFFLINE, { cacheName: OFFLINE_CACHE })) || Response.error();
      }
    })());
    return;
  }
  const url = new URL(request.url);
  const kept = url.pathname + url.search;
  if (request.method === "GET" && url.origin === self.location.origin && OFFLINE_ASSETS.includes(kept)) {
    // What the offline page needs: the network's copy while there is one.
    event.respondWith(fetch(request).catch(async () =>
      (await caches.match(kept, { cacheName: OFFLINE_CACHE })) || Response.error()));
  }
});

// Chrome subscribes with userVisibleOnly: every push shows a notification, even while a window shows the game
// (a silent one spends the site's small allowance, after which Chrome shows its own generic notice instead).
self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch { /* not JSON: the site's name alone */ }
  const url = typeof message.url === "string" && message.url.startsWith("/") ? message.url : "/";
  event.waitUntil(self.registration.showNotification(message.title || "The King Is Dead", {
    body: message.body || "",
    tag: message.tag || undefined,
    icon: ICON,
    data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const showing = windows.find((client) => client.url.split("#")[0] === url);
    if (showing) return showing.focus();
    return self.clients.openWindow(url);
  })());
});
