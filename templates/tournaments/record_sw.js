// The record form's service worker (docs/results.md, "Offline entry"), served by Django at
// /record-sw.js so that its scope is the whole site; it answers only what is listed below and
// leaves every other request to the network, untouched.
// - The record-form pages (/series/<id>/record/) a referee opens (and the page script fetches again
//   once a kept result of that series is sent): from the network, kept for when it
//   fails (a form page only: a redirect to the log-in page, an error page or anything else is not
//   kept). Nothing of the API, no other page.
// - The form's static files (the shell), kept when the worker installs, in a cache named after the
//   version; a new version deletes the old caches when it activates.
// - A record form posted while the network fails: kept in IndexedDB like the page script does when
//   the phone knows it is offline, answered with the kept form page.
// - Signing in or out drops the kept pages (the next person on this phone sees none of them).
// - Web Push (docs/notifications.md): shows a pushed notification ({title, body, url, tag}, from
//   tournaments/notifications/push.py) and opens its page when tapped. One worker serves the whole
//   site: a scope has one registration, so the pushes live here beside the record form's queue.
/* global OfflineQueue */
"use strict";
const CONFIG = {{ config|safe }};
const SHELL_CACHE = "snapleague-shell-" + CONFIG.version;
const PAGES_CACHE = "snapleague-pages-" + CONFIG.version;
const RECORD_PATH = new RegExp(CONFIG.record_path);
const NETWORK_WAIT_MS = 8000;  // venue Wi-Fi that hangs: give up on the network, answer from the cache

importScripts(CONFIG.shell.find((url) => url.includes("offline_queue")));

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(CONFIG.shell)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names
      .filter((name) => name.startsWith("snapleague-") && name !== SHELL_CACHE && name !== PAGES_CACHE)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

function timeout(ms) {
  return new Promise((resolve, reject) => setTimeout(() => reject(new Error("timeout")), ms));
}

function isFormPage(response) {
  return response.ok && !response.redirected && response.type === "basic" &&
    (response.headers.get("Content-Type") || "").startsWith("text/html");
}

// How many times someone has signed in or out on this phone since the worker started. A form page whose
// fetch began before that is not kept after it: answered late, it would put the signed-out
// referee's page back into the cache the sign-out has just emptied, for the next person to find.
let sessionChanges = 0;

async function keepPage(path, response, since) {
  if (!isFormPage(response) || since !== sessionChanges) return;
  const cache = await caches.open(PAGES_CACHE);
  if (since !== sessionChanges) return;  // signed in or out while the cache opened
  await cache.put(path, response);
}

async function keptPage(path) {
  const cache = await caches.open(PAGES_CACHE);
  return cache.match(path);
}

async function formPage(request, path) {
  const since = sessionChanges;
  try {
    const response = await Promise.race([fetch(request), timeout(NETWORK_WAIT_MS)]);
    await keepPage(path, response.clone(), since);
    return response;
  } catch (error) {
    const kept = await keptPage(path);
    if (kept) return kept;
    throw error;
  }
}

// A form posted the ordinary way whose request fails (the phone thinks it is online; the venue's
// network does not answer): kept like the page script keeps it, then the kept form page, told so.
async function postedForm(request, path) {
  const body = await request.clone().formData();
  try {
    const response = await Promise.race([fetch(request), timeout(NETWORK_WAIT_MS * 2)]);
    // Recorded (a redirect to the series) or refused (the form with its errors): the kept page
    // should be the form for the next game now.
    if (response.redirected || response.ok) {
      const since = sessionChanges;
      fetch(path, {credentials: "same-origin"}).then((fresh) => keepPage(path, fresh, since)).catch(() => {});
    }
    return response;
  } catch (error) {
    // The request may have reached the server all the same: the client key makes sending it again harmless.
    const fields = [];
    body.forEach((value, name) => { if (typeof value === "string") fields.push([name, value]); });
    await OfflineQueue.add(OfflineQueue.entryFromFields(path, fields, {}));
    return Response.redirect(path + "?kept=1", 303);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "GET") {
    if (CONFIG.shell.includes(url.pathname + url.search) || CONFIG.shell.includes(url.pathname)) {
      event.respondWith(caches.match(request, {ignoreSearch: false}).then((hit) => hit || fetch(request)));
    } else if (RECORD_PATH.test(url.pathname)) {
      event.respondWith(formPage(request, url.pathname));
    }
    return;
  }
  if (request.method === "POST" && request.mode === "navigate") {
    if (RECORD_PATH.test(url.pathname)) {
      event.respondWith(postedForm(request, url.pathname));
    } else if (CONFIG.session_paths.includes(url.pathname)) {
      sessionChanges += 1;
      event.waitUntil(caches.delete(PAGES_CACHE));
    }
  }
});

// --- Web Push -------------------------------------------------------------------------------
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { title: "snapleague", body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "snapleague", {
      body: data.body || "",
      tag: data.tag || undefined,
      data: { url: data.url || "/notifications/" },
    })
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === url && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(url);
    })
  );
});
