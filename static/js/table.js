// The Snapszer table: renders the server's view frames (engine.observe of this seat) and sends
// the actions the view lists as legal. No build step. docs/online.md ("Frames").
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  const T = JSON.parse(document.getElementById("table-text").textContent);
  const gameId = root.dataset.game;
  const names = root.dataset.names.split("|");
  const $ = (id) => document.getElementById(id);
  const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };
  let ws = null, version = null, view = null, retry = 500;
  let standIns = {}; // seat -> bot level: a bot plays an absent player's seat (docs/online.md)
  // The invitation link selects itself when tapped (here, not in an inline onclick: the CSP).
  const invite = $("invite-link");
  if (invite) invite.addEventListener("click", () => invite.select());

  // The cards' names in the page's language (games/card_names.py): a short label on the card,
  // the full name ("piros ász") in its title.
  const CARDS = JSON.parse(document.getElementById("card-names").textContent);
  function cardLabel(name) {
    const rank = name.slice(0, -1), suit = name.slice(-1);
    return (CARDS.short[rank] || rank) + SUITS[suit];
  }
  function cardTitle(name) {
    const rank = name.slice(0, -1), suit = name.slice(-1);
    return CARDS.pattern.replace("%(rank)s", CARDS.long[rank] || rank).replace("%(suit)s", CARDS.suits[suit] || suit);
  }
  function cardEl(name, tag) {
    const el = document.createElement(tag || "span");
    el.className = "pcard suit-" + name.slice(-1);
    el.textContent = cardLabel(name);
    el.title = cardTitle(name);
    el.setAttribute("aria-label", el.title);
    el.dataset.card = name;
    return el;
  }
  function send(frame) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(frame));
  }
  function act(action) {
    const sent = version;
    send({ type: "act", version: version, action: action });
    // No answer within 3 s (the game's owner process died and its lease has not expired yet):
    // ask again; the next request after the lease expires starts a new owner from snapshot + log.
    setTimeout(() => { if (version === sent) send({ type: "resync", version: version }); }, 3000);
    for (const b of root.querySelectorAll("button.pcard, #actions button")) b.disabled = true;
  }

  function render(frame) {
    version = frame.version;
    view = frame.view;
    const h = view.hand, me = view.seat, m = view.match;
    const other = me === null ? null : 1 - me;
    standIns = frame.stand_ins || {};
    const who = (s) => (names[s] || "seat " + s) + (standIns[s] ? " (" + T.botPlaying + ")" : "");
    $("scoreboard").innerHTML = "";
    const sb = document.createElement("div");
    sb.textContent = T.match + ": " + who(0) + " " + m.scores[0] + " – " + m.scores[1] + " " + who(1) +
      " · " + T.hand + " " + view.hand_number + " · " + T.points + " " + h.points.join(" – ");
    $("scoreboard").appendChild(sb);
    $("opponent").textContent = me === null ? who(0) + " / " + who(1) :
      who(other) + ": " + h.opponent_hand_size;
    if (me !== null) {
      const backs = document.createElement("span"); backs.className = "backs";
      for (let i = 0; i < h.opponent_hand_size; i++) backs.appendChild(document.createElement("i"));
      $("opponent").appendChild(backs);
    }
    $("stock").innerHTML = "";
    if (h.trump_card) {
      const t = cardEl(h.trump_card); t.classList.add("trump-card"); $("stock").appendChild(t);
    }
    const info = document.createElement("span");
    info.textContent = T.trump + " " + SUITS[h.trump_suit] + " · " + T.stock + " " + h.talon_size +
      (h.closed_by !== null ? " (" + T.closed + ")" : "");
    $("stock").appendChild(info);
    $("trick").innerHTML = "";
    if (h.lead_card) $("trick").appendChild(cardEl(h.lead_card));
    else if (h.tricks.length) {
      const last = h.tricks[h.tricks.length - 1];
      const box = document.createElement("span"); box.className = "muted small"; box.textContent = T.lastHand + ": ";
      $("trick").append(box, cardEl(last.lead), cardEl(last.follow));
    }
    const legal = h.legal_actions || [];
    const plays = {}; legal.filter((a) => a.type === "play").forEach((a) => { plays[a.card] = a; });
    const marriages = {}; legal.filter((a) => a.type === "marriage").forEach((a) => { marriages[a.card] = a; });
    $("hand").innerHTML = "";
    (h.hand || []).forEach((c) => {
      const b = cardEl(c, "button");
      b.type = "button";
      b.disabled = !plays[c];
      if (plays[c]) { b.classList.add("legal"); b.addEventListener("click", () => act(plays[c])); }
      $("hand").appendChild(b);
    });
    $("actions").innerHTML = "";
    legal.filter((a) => a.type !== "play").forEach((a) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = a.type === "declare" ? "primary" : "";
      b.textContent = a.type === "marriage" ? T.marriage + " " + cardLabel(a.card) : (T[a.type] || a.type);
      b.dataset.action = a.type;
      b.addEventListener("click", () => act(a));
      $("actions").appendChild(b);
    });
    const mustMove = legal.some((a) => a.type !== "declare");
    $("status").textContent = me === null ? T.watching : (mustMove ? T.yourTurn : T.theirTurn);
    if (frame.abandoned) abandoned();
    else if (frame.finished) ended(m, me);
  }

  function abandoned() {
    const box = $("ended");
    box.hidden = false;
    box.innerHTML = "<h2></h2><p><a></a></p>";
    box.querySelector("h2").textContent = T.abandoned;
    const link = box.querySelector("a");
    link.href = "../"; link.textContent = T.lobby;
    $("status").textContent = T.abandoned;
    for (const b of root.querySelectorAll("button.pcard, #actions button")) b.disabled = true;
  }

  function ended(m, me) {
    const box = $("ended");
    box.hidden = false;
    const text = me === null ? (names[m.winner] + " " + T.winner) : (m.winner === me ? T.won : T.lost);
    box.innerHTML = "<h2></h2><p></p><p><a class=\"replay-link\"></a> · <a></a> · <a></a></p>";
    box.querySelector("h2").textContent = text;
    box.querySelector("p").textContent = T.match + ": " + m.scores[0] + " – " + m.scores[1];
    const links = box.querySelectorAll("a");
    links[0].href = "replay/" + (me === null ? "" : "?seat=" + me); links[0].textContent = T.replay;
    links[1].href = "verify/"; links[1].textContent = T.verify;
    links[2].href = "../"; links[2].textContent = T.lobby;
    $("status").textContent = text;
  }

  function connect() {
    if (ws && ws.readyState <= 1) return; // connecting or open already
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + "/ws/games/" + gameId + "/");
    ws = socket;
    socket.onopen = () => { retry = 500; if (version !== null) send({ type: "resync", version: version }); };
    socket.onmessage = (e) => {
      const frame = JSON.parse(e.data);
      if (frame.type === "view") {
        // Frames may arrive out of order across a multi-process layer: an older view is dropped.
        if (version !== null && frame.version < version) return;
        root.dataset.version = frame.version;
        render(frame);
      }
      else if (frame.type === "error") {
        $("status").textContent = frame.message;
        // A refused move: ask for the current view again (the buttons come back with it).
        if (frame.version !== null && frame.version !== undefined) send({ type: "resync", version: version });
      }
    };
    socket.onclose = () => {
      if (ws !== socket) return;
      $("status").textContent = T.reconnecting;
      if (!navigator.onLine) return; // the "online" event reconnects
      setTimeout(connect, retry); retry = Math.min(retry * 2, 8000);
    };
  }
  // A device that loses its network may keep a half-open socket for a long time: drop it when the
  // browser says it is offline, and reconnect (then resync to the current version) when it is back.
  window.addEventListener("offline", () => { if (ws) ws.close(); });
  window.addEventListener("online", () => { if (ws) { retry = 500; connect(); } });
  // Waiting for the opponent: waiting.js follows the table and opens the game when it starts.
  if (root.dataset.status === "open") return;
  connect();
  document.addEventListener("keydown", (e) => {
    // Keyboard: 1–6 play the n-th card of the hand when it is legal.
    const n = parseInt(e.key, 10);
    const cards = $("hand").querySelectorAll("button.pcard");
    if (n >= 1 && n <= cards.length && !cards[n - 1].disabled) cards[n - 1].click();
  });
})();
