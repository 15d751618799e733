// The record form through bad Wi-Fi (docs/results.md, "Offline entry").
// - Registers the service worker (/record-sw.js) that keeps this page and its files for offline use.
// - A result submitted while the phone is offline is kept in IndexedDB (offline_queue.js) with its
//   client key, the form moves on to the series' next game, and the page says how many wait.
// - Kept results are sent on page load, when the browser comes back online, and again with backoff
//   (1 s doubling to 60 s, jittered) while the server does not answer; oldest first, each with its
//   client key, so one that reached the server already is answered as a replay, not recorded twice.
// - A refusal (another referee recorded the game meanwhile, the series moved on, an entry that
//   does not fit) is kept and shown — which game, what the server holds, what was entered — until
//   the referee dismisses it.
/* global OfflineQueue */
(function () {
  "use strict";
  const root = document.getElementById("offline-entry");
  const textsNode = document.getElementById("offline-text");
  if (!root || !textsNode || !("indexedDB" in window) || !window.OfflineQueue) return;
  const T = JSON.parse(textsNode.textContent);
  const form = document.getElementById("record-form");
  const user = root.dataset.user;
  const path = window.location.pathname;
  const waitingNode = root.querySelector(".offline-waiting");
  const noteNode = root.querySelector(".offline-note");  // offline; saved on this phone
  const statusNode = root.querySelector(".offline-status");  // sending, sent, trying again
  const problemsNode = root.querySelector(".offline-problems");
  let sending = false;
  let backoff = 0;
  let retryTimer = null;

  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, (match, name) => (name in values ? String(values[name]) : match));
  }
  function plural(table, n) {
    const index = table.index[n < table.index.length ? n : (n % 100) + 100];
    return fill(table.forms[index], {n: n});
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function say(text) { statusNode.textContent = text; }
  function note(text) { noteNode.textContent = text; }

  async function mine() {
    return (await OfflineQueue.all()).filter((entry) => entry.user === user);
  }

  // --- what the page shows -------------------------------------------------------------------------
  function problemCard(entry) {
    const p = entry.problem || {};
    const card = document.createElement("div");
    card.className = "error-box offline-problem";
    card.setAttribute("role", "alert");
    card.dataset.key = entry.key;
    card.dataset.code = p.code || "";
    const title = document.createElement("p");
    const strong = document.createElement("strong");
    strong.textContent = fill(T.problem, {game: entry.game, series: entry.series});
    title.appendChild(strong);
    card.appendChild(title);
    const lines = [["offline-message", p.message || fill(T.refused, {status: p.status || "?"})]];
    if (p.held) lines.push(["offline-held", fill(T.held, {result: p.held, who: p.held_by || "?"})]);
    else if (p.code) lines.push(["offline-held", T.held_nothing]);
    const entered = p.entered || entry.summary;
    lines.push(["offline-entered", entered ? fill(T.entered, {result: entered}) : T.entered_fields]);
    lines.forEach(([className, text]) => {
      const para = document.createElement("p");
      para.className = className;
      para.textContent = text;
      card.appendChild(para);
    });
    const dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "secondary offline-dismiss";
    dismiss.textContent = T.dismiss;
    dismiss.addEventListener("click", async () => { await OfflineQueue.remove(entry.key); await show(); });
    card.appendChild(dismiss);
    return card;
  }

  async function show() {
    const entries = await mine();
    const waiting = entries.filter((entry) => entry.state === "waiting");
    waitingNode.textContent = waiting.length ? plural(T.waiting, waiting.length) : "";
    waitingNode.hidden = !waiting.length;
    problemsNode.replaceChildren(...entries.filter((entry) => entry.state === "problem").map(problemCard));
    root.classList.toggle("offline", !navigator.onLine);
    return waiting;
  }

  // --- keeping a submission ----------------------------------------------------------------------
  function summary() {
    if (!form) return "";
    const preview = document.getElementById("preview");
    if (form.classList.contains("snap")) {
      const out = Array.from(form.querySelectorAll("button.tap"))
        .map((button) => [parseInt(document.getElementById(button.dataset.target).value, 10) || 0, button.dataset.name])
        .filter((pair) => pair[0]).sort((a, b) => a[0] - b[0]).map((pair) => pair[0] + ". " + pair[1]);
      return [preview ? preview.textContent : "", out.join(", ")].filter(Boolean).join(" · ");
    }
    return Array.from(form.querySelectorAll(".score-grid label, table.hands tbody tr"))
      .map((node) => {
        const inputs = Array.from(node.querySelectorAll("input, select")).filter((input) => input.value);
        if (!inputs.length) return "";
        return node.tagName === "LABEL" ? node.textContent.trim() + " " + inputs[0].value
          : inputs.map((input) => input.tagName === "SELECT" ? input.options[input.selectedIndex].text : input.value).join(" ");
      })
      .filter(Boolean).join(", ");
  }

  // The form for the game after the last one kept for this series: a fresh client key (a page
  // served from the cache carries the key it was rendered with), the inputs cleared.
  function moveOn(game, clear) {
    if (!form) return;
    if (clear) {
      const clearTool = form.querySelector('[data-action="clear"]');
      form.reset();
      if (clearTool) clearTool.click();
    }
    form.elements.game.value = String(game);
    const heading = document.querySelector("h1 .record-title");
    if (heading) heading.textContent = fill(T.record_game, {n: game});
  }

  async function keep(event) {
    if (navigator.onLine || !form || form.classList.contains("correcting")) return;
    event.preventDefault();
    const fields = Array.from(new FormData(form).entries()).filter((pair) => typeof pair[1] === "string");
    const entry = OfflineQueue.entryFromFields(path, fields, {
      user: user, series: root.dataset.series, summary: summary(),
    });
    await OfflineQueue.add(entry);
    form.elements.client_key.value = newKey();
    moveOn(entry.game + 1, true);
    await show();
    note(fill(T.saved, {game: entry.game}));
    // record.js locked the form against a double tap; this submission is kept, the form is free again.
    delete form.dataset.sent;
    const submit = form.querySelector("button.submit");
    if (submit) setTimeout(() => { submit.disabled = false; }, 0);
    window.scrollTo(0, 0);
  }

  // --- sending -------------------------------------------------------------------------------------
  function csrfToken() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  async function sendOne(entry) {
    // This page's token: the kept one may be from before the session's last sign-in.
    const body = new URLSearchParams(entry.fields.map((pair) =>
      [pair[0], pair[0] === "csrfmiddlewaretoken" ? csrfToken() : pair[1]]));
    const response = await fetch(entry.path, {
      method: "POST", body: body, credentials: "same-origin",
      headers: {"Accept": "application/json", "X-CSRFToken": csrfToken()},
    });
    const json = (response.headers.get("Content-Type") || "").startsWith("application/json");
    if (json) return {status: response.status, body: await response.json()};
    if (response.redirected && /\/accounts\/login\//.test(response.url)) return {status: 401, body: null};
    return {status: response.status, body: null};
  }

  function retryLater() {
    backoff = Math.min(backoff ? backoff * 2 : 1, 60);
    const seconds = Math.round(backoff * (0.75 + Math.random() * 0.5) * 10) / 10;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(send, seconds * 1000);
    return seconds;
  }

  async function sendAll() {
    let waiting = (await mine()).filter((entry) => entry.state === "waiting");
    let sentHere = false;
    for (const entry of waiting) {
      say(T.sending);
      let answer;
      try {
        answer = await sendOne(entry);
      } catch (error) {  // the network failed: keep it, try again
        say(fill(T.retry, {s: retryLater()}));
        return false;
      }
      const status = answer.status;
      if (status === 401) { say(T.sign_in); retryLater(); return false; }
      if (status >= 500 || status === 429 || status === 408) {
        say(fill(T.retry, {s: retryLater()}));
        return false;
      }
      const series = (answer.body && answer.body.series_label) || entry.series;
      if (status === 200 || status === 201) {
        await OfflineQueue.remove(entry.key);
        sentHere = sentHere || entry.path === path;
        say(fill(answer.body.status === "replayed" ? T.replayed : T.sent, {game: entry.game, series: series}));
      } else {
        entry.state = "problem";
        entry.series = series;
        entry.problem = Object.assign({status: status}, answer.body || {});
        await OfflineQueue.put(entry);
      }
      await show();
    }
    backoff = 0;
    return sentHere;
  }

  async function send() {
    if (sending || !navigator.onLine) return;
    sending = true;
    try {
      const run = () => sendAll();
      const sentHere = navigator.locks ? await navigator.locks.request("snapleague-record-send", run) : await run();
      if (sentHere) {
        // The series moved on: let the service worker keep the form for its next game.
        await fetch(path, {credentials: "same-origin"}).catch(() => null);
      }
    } finally {
      sending = false;
      await show();
    }
  }

  // --- wiring ----------------------------------------------------------------------------------------
  if (form) {
    form.addEventListener("submit", keep);
    // A page served from the cache carries the key it was rendered with: never reuse it.
    form.elements.client_key.value = newKey();
  }
  window.addEventListener("online", () => { backoff = 0; root.classList.remove("offline"); note(""); send(); });
  window.addEventListener("offline", () => { root.classList.add("offline"); note(T.offline); });

  (async () => {
    await OfflineQueue.setUser(user);
    const waiting = await show();
    const here = waiting.filter((entry) => entry.path === path).map((entry) => entry.game);
    if (form && here.length && Math.max(...here) >= parseInt(form.elements.game.value, 10)) {
      moveOn(Math.max(...here) + 1, false);
    }
    if (new URLSearchParams(window.location.search).has("kept") && here.length) {
      note(fill(T.saved, {game: Math.max(...here)}));
    } else if (!navigator.onLine) {
      note(T.offline);
    }
    if (window.location.search) history.replaceState(null, "", path);
    send();
  })();
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(root.dataset.worker, {scope: "/"}).catch(() => {});
  }
})();
