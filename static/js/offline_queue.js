// The record form's kept submissions, in IndexedDB: shared by the page (record_offline.js) and the
// service worker (/record-sw.js imports it). One entry per submission, keyed by its client key (the
// idempotency key the server checks), so a submission is kept once however often it is saved.
// An entry: {key, user, path, series, game, fields: [[name, value], ...], summary, at,
//            state: "waiting" | "problem", problem: {...} (what the server answered)}.
(function (scope) {
  "use strict";
  const DB_NAME = "snapleague-offline";
  const STORE = "submissions";
  const META = "meta";

  function open() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, {keyPath: "key"});
        if (!db.objectStoreNames.contains(META)) db.createObjectStore(META);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  async function run(storeName, mode, work) {
    const db = await open();
    try {
      return await new Promise((resolve, reject) => {
        const tx = db.transaction(storeName, mode);
        let result;
        Promise.resolve(work(tx.objectStore(storeName))).then((value) => { result = value; });
        tx.oncomplete = () => resolve(result);
        tx.onerror = () => reject(tx.error);
        tx.onabort = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  }

  function requested(request) {
    return new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  const OfflineQueue = {
    // Who signed in on the page that last ran here: the service worker keeps a submission for them.
    setUser(user) { return run(META, "readwrite", (store) => { store.put(String(user), "user"); }); },
    currentUser() { return run(META, "readonly", (store) => requested(store.get("user"))); },

    entryFromFields(path, fields, extra) {
      const value = (name) => (fields.find((field) => field[0] === name) || [])[1];
      return Object.assign({
        key: value("client_key"),
        user: null,
        path: path,
        series: "",
        game: parseInt(value("game"), 10) || 0,
        fields: fields,
        summary: "",
        at: Date.now(),
        state: "waiting",
        problem: null,
      }, extra);
    },

    async add(entry) {
      if (entry.user === null) entry.user = (await OfflineQueue.currentUser()) || null;
      // Kept once per client key: a second save of the same submission changes nothing.
      return run(STORE, "readwrite", async (store) => {
        const existing = await requested(store.get(entry.key));
        if (!existing) store.put(entry);
      });
    },
    put(entry) { return run(STORE, "readwrite", (store) => { store.put(entry); }); },
    remove(key) { return run(STORE, "readwrite", (store) => { store.delete(key); }); },
    async all() {
      const entries = await run(STORE, "readonly", (store) => requested(store.getAll()));
      return (entries || []).sort((a, b) => a.at - b.at);
    },
  };
  scope.OfflineQueue = OfflineQueue;
})(typeof self !== "undefined" ? self : window);
