// The Snap table in real time: renders the server's view frames (engine.observe of this seat plus
// the timing layer's clock and what just happened), and sends presses: a call (with the seq of the
// table it answers and the reaction time measured here, S32) and a flip. Answers the server's
// pings so that it can measure the round trip (S33) and shows it. No build step. docs/online.md.
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  const T = JSON.parse(document.getElementById("table-text").textContent);
  const gameId = root.dataset.game;
  const names = root.dataset.names.split("|");
  const slapjack = root.dataset.slapjack === "1";
  const speed = root.dataset.speed === "1";
  // Animal Snap: every seat's sound (seat order); a call carries this seat's own (rules/snap.md).
  const animals = root.dataset.animals ? root.dataset.animals.split("|") : null;
  const $ = (id) => document.getElementById(id);
  const invite = $("invite-link"); // the waiting panel's link: one click selects it (no inline handler: CSP)
  if (invite) invite.addEventListener("click", () => invite.select());
  const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };
  let ws = null, version = null, view = null, live = null, retry = 500, eventsShown = -1;
  const shownAt = {}; // seq -> performance.now() when this page first showed that table (S32)
  const captures = {}; // seat -> cards won, from the frames' events (the end screen)
  let choosing = null; // {seq, at}: a call pressed while several claims match, until one is picked

  let standIns = {}; // seat -> bot level: a bot plays an absent player's seat (docs/online.md)
  const who = (s) => (names[s] || "seat " + s) + (view && s === view.seat ? " (" + T.you + ")" : "") +
    (standIns[s] ? " (" + T.botPlaying + ")" : "");

  // The cards' names in the page's language (games/card_names.py): a short label on the card,
  // the full name in its title.
  const CARDS = JSON.parse(document.getElementById("card-names").textContent);
  const playingCard = (base) => SUITS[base.slice(-1)] && base.length <= 3;
  function cardLabel(name) {
    const base = name.split(".")[0];
    if (!playingCard(base)) return base; // a picture deck: the picture's name
    const rank = base.slice(0, -1);
    return (CARDS.short[rank] || rank) + SUITS[base.slice(-1)];
  }
  function cardTitle(name) {
    const base = name.split(".")[0];
    if (!playingCard(base)) return base;
    const rank = base.slice(0, -1), suit = base.slice(-1);
    return CARDS.pattern.replace("%(rank)s", CARDS.long[rank] || rank).replace("%(suit)s", CARDS.suits[suit] || suit);
  }
  function cardEl(name) {
    const el = document.createElement("span");
    el.className = "pcard big-card";
    if (!name) { el.classList.add("empty"); el.textContent = "·"; return el; }
    const base = name.split(".")[0];
    if (playingCard(base)) el.classList.add("suit-" + base.slice(-1));
    else el.classList.add("picture", "pic-" + base);
    el.textContent = cardLabel(name);
    el.title = cardTitle(name);
    el.dataset.card = name;
    return el;
  }
  function send(frame) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(frame));
  }

  // --- what can be claimed on the table shown (the same reading as the bots', from the view) ---
  function claims(v) {
    const found = [];
    if (v.central_matches && v.central_matches.length === 2) {
      if (v.central_matches[0] === v.central_matches[1]) found.push({ kind: "snap", claim: { type: "central" }, label: T.centre });
      return found;
    }
    const tops = v.piles.filter((p) => p.active && p.match !== null);
    for (let i = 0; i < tops.length; i++) {
      for (let j = i + 1; j < tops.length; j++) {
        if (tops[i].match === tops[j].match) {
          found.push({ kind: "snap", claim: { type: "pair", a: tops[i].seat, b: tops[j].seat },
            label: names[tops[i].seat] + " + " + names[tops[j].seat] });
        }
      }
    }
    for (const pool of v.pools) {
      for (const p of tops) {
        if (p.match === pool.match) {
          found.push({ kind: "snap_pool", claim: { type: "pool", pool: pool.id, seat: p.seat },
            label: T.pool + " " + pool.number + " + " + names[p.seat] });
        }
      }
    }
    if (slapjack) {
      for (const p of tops) {
        if (p.top && p.top.split(".")[0].charAt(0) === "J" && p.seat !== v.seat) {
          found.push({ kind: "slap", claim: { type: "slap", seat: p.seat }, label: T.slap + " " + names[p.seat] });
        }
      }
    }
    return found;
  }

  function call(choice, seq, pressedAt) {
    const reaction = Math.max(0, Math.round(pressedAt - (shownAt[seq] || pressedAt)));
    const action = {
      type: "call", kind: choice ? choice.kind : "snap", claim: choice ? choice.claim : null, seq: seq, reaction_ms: reaction };
    if (animals && view && view.seat !== null && view.seat !== undefined) action.sound = view.seat;
    send({ type: "act", version: version, action: action });
    root.dataset.called = String((parseInt(root.dataset.called || "0", 10)) + 1);
    line(T.reaction + " " + reaction + " " + T.ms);
    $("call").classList.add("pressed");
    setTimeout(() => $("call").classList.remove("pressed"), 250);
  }

  function pressCall() {
    if (!view || view.seat === null || view.result) return;
    const pressedAt = performance.now(), seq = view.seq;
    const found = claims(view);
    if (found.length <= 1) { call(found[0] || null, seq, pressedAt); return; }
    // Several claims match: the player picks one; the reaction time is the first press's.
    choosing = { seq: seq, at: pressedAt };
    const box = $("claims");
    box.innerHTML = "";
    for (const c of found) {
      const b = document.createElement("button");
      b.type = "button"; b.className = "claim"; b.textContent = c.label;
      b.addEventListener("click", () => { box.hidden = true; call(c, choosing.seq, choosing.at); choosing = null; });
      box.appendChild(b);
    }
    box.hidden = false;
  }

  function pressFlip() {
    if (!view || view.seat === null || view.turn !== view.seat || view.result) return;
    send({ type: "act", version: version, action: { type: "flip" } });
    $("flip").disabled = true;
  }

  // --- rendering ---
  function render(frame) {
    version = frame.version;
    view = frame.view;
    live = frame.live || { now: 0, frozen: false, paused_ms: 0, cap_at: 0 };
    standIns = frame.stand_ins || {};
    root.dataset.version = frame.version;
    root.dataset.seq = view.seq;
    if (shownAt[view.seq] === undefined) shownAt[view.seq] = performance.now();
    const me = view.seat;
    const seats = $("seats");
    seats.innerHTML = "";
    for (const p of view.piles) {
      const box = document.createElement("div");
      box.className = "seat" + (p.active ? "" : " out") + (view.turn === p.seat ? " on-turn" : "") + (p.seat === me ? " mine" : "");
      box.dataset.seat = p.seat;
      const name = document.createElement("div"); name.className = "seat-name"; name.textContent = who(p.seat);
      const sizes = document.createElement("div"); sizes.className = "sizes small";
      sizes.textContent = p.active ? p.facedown + " " + T.down + " · " + p.faceup + " " + T.up : T.out;
      box.append(name, cardEl(p.top), sizes);
      seats.appendChild(box);
    }
    const pools = $("pools");
    pools.innerHTML = "";
    for (const pool of view.pools) {
      const box = document.createElement("div"); box.className = "pool";
      const label = document.createElement("div"); label.className = "small"; label.textContent = T.pool + " " + pool.number + " · " + pool.size;
      box.append(label, cardEl(pool.top));
      pools.appendChild(box);
    }
    if (view.central_size || view.central_top) {
      const c = $("central"); c.hidden = false; c.innerHTML = "";
      const label = document.createElement("div"); label.className = "small"; label.textContent = T.centre + " · " + view.central_size;
      c.append(label, cardEl(view.central_below), cardEl(view.central_top));
    }
    const playing = me !== null && !view.result && view.piles[me] && view.piles[me].active;
    $("call").disabled = !playing;
    $("flip").hidden = speed || me === null;
    $("flip").disabled = !(playing && view.turn === me && !live.frozen);
    if (choosing && choosing.seq !== view.seq && claims(view).length === 0) { $("claims").hidden = true; choosing = null; }
    let status;
    if (me === null) status = T.watching;
    else if (live.frozen) status = T.frozen;
    else if (view.turn === me && !speed) status = T.yourTurn;
    else status = view.turn !== null ? T.turnOf + " " + who(view.turn) : "";
    if (live.paused_ms > 0 && !live.frozen) status += " · " + T.paused;
    $("status").textContent = status;
    const left = Math.max(0, Math.round((live.cap_at - live.now) / 1000));
    $("clock").textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") + " " + T.left;
    if (frame.version > eventsShown) { eventsShown = frame.version; (frame.events || []).forEach(happened); }
    if (frame.abandoned) abandoned();
    else if (frame.finished || view.result) ended(view.result, frame.finished);
  }

  function abandoned() {
    const box = $("ended");
    box.hidden = false;
    root.dataset.finished = "1";
    $("call").disabled = true; $("flip").disabled = true;
    box.innerHTML = "";
    const h = document.createElement("h2"); h.textContent = T.abandoned; box.appendChild(h);
    $("status").textContent = T.abandoned;
  }

  function line(text, cls) {
    const li = document.createElement("li");
    li.textContent = text;
    if (cls) li.className = cls;
    const log = $("log");
    log.prepend(li);
    while (log.children.length > 8) log.removeChild(log.lastChild);
  }
  function flash(seat, text, cls) {
    const box = $("seats").querySelector('[data-seat="' + seat + '"]');
    if (!box) return;
    const b = document.createElement("span");
    b.className = "bubble " + (cls || "");
    b.textContent = text;
    box.appendChild(b);
    setTimeout(() => b.remove(), 1400);
  }
  function happened(e) {
    switch (e.type) {
      case "call": flash(e.seat, animals ? animals[e.seat] : T.snap, "call"); line(who(e.seat) + " " + T.call); break;
      case "capture":
        captures[e.seat] = (captures[e.seat] || 0) + e.cards;
        flash(e.seat, "+" + e.cards, "won"); line(who(e.seat) + " " + T.won + " " + e.cards + " " + T.cards, "good"); break;
      case "tie": e.seats.forEach((s) => flash(s, "=", "tie")); line(T.tie + " (" + e.seats.map(who).join(", ") + ")"); break;
      case "wrong_call": flash(e.seat, "✗", "wrong"); line(who(e.seat) + ": " + T.wrong, "bad"); break;
      case "late": flash(e.seat, "…", "late"); line(who(e.seat) + ": " + T.late); break;
      case "call_refused": if (e.seat === view.seat) line(T.refused + " (" + e.reason + ")", "bad"); break;
      case "flip_refused": if (e.seat === view.seat) line(T.flipRefused + " (" + e.reason + ")"); break;
      case "timeout": line(who(e.seat) + ": " + T.timeout); break;
      case "eliminated": line(e.seats.map(who).join(", ") + " " + T.eliminated); break;
      case "cap": line(T.cap); break;
      default: break;
    }
  }

  function ended(result, finished) {
    if (!result) return;
    const me = view.seat;
    const box = $("ended");
    box.hidden = false;
    root.dataset.finished = finished ? "1" : "0";
    $("call").disabled = true; $("flip").disabled = true;
    const title = result.winner === null ? T.draw : (result.winner === me ? T.youWon : who(result.winner) + " " + T.winner);
    box.innerHTML = "";
    const h = document.createElement("h2"); h.textContent = title; box.appendChild(h);
    const how = document.createElement("p"); how.textContent = T.endedBy + ": " + result.ended_by; box.appendChild(how);
    const table = document.createElement("table");
    const head = document.createElement("tr");
    ["", T.placing, T.cards, T.captures, T.wrongCalls].forEach((t) => { const th = document.createElement("th"); th.textContent = t; head.appendChild(th); });
    table.appendChild(head);
    const order = result.placings.map((place, seat) => [place, seat]).sort((a, b) => a[0] - b[0]);
    for (const [place, seat] of order) {
      const tr = document.createElement("tr");
      [who(seat), place, result.cards[seat], captures[seat] || 0, result.wrong_calls[seat]].forEach((t) => {
        const td = document.createElement("td"); td.textContent = t; tr.appendChild(td);
      });
      table.appendChild(tr);
    }
    box.appendChild(table);
    const back = document.createElement("p");
    if (finished) { // the replay opens once the end is stored
      const replay = document.createElement("a"); replay.className = "replay-link"; replay.href = "replay/" + (me === null ? "" : "?seat=" + me);
      replay.textContent = T.replay; back.append(replay, " · ");
      const stats = document.createElement("a"); stats.className = "stats-link"; stats.href = "stats/";
      stats.textContent = T.stats; back.append(stats, " · ");
    }
    const a = document.createElement("a"); a.href = "../"; a.textContent = T.lobby; back.appendChild(a);
    box.appendChild(back);
    $("status").textContent = title;
  }

  function lag(ms) {
    const el = $("lag");
    el.querySelector("span").textContent = ms + " " + T.ms;
    el.className = "lag " + (ms < 120 ? "good" : ms < 300 ? "fair" : "poor");
    root.dataset.rtt = ms;
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
        render(frame);
      } else if (frame.type === "ping") {
        send({ type: "pong", t: frame.t }); // S33: the server measures the round trip itself
      } else if (frame.type === "rtt") {
        lag(frame.rtt_ms);
      } else if (frame.type === "error") {
        line(frame.message, "bad");
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
  // Waiting for the other players: waiting.js follows the table and opens the game when it starts.
  if (root.dataset.status === "open") return;
  $("call").addEventListener("pointerdown", (e) => { e.preventDefault(); pressCall(); });
  $("call").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); pressCall(); } });
  $("flip").addEventListener("click", pressFlip);
  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
    if (e.code === "Space" || e.key === " ") { e.preventDefault(); if (!e.repeat) pressCall(); }
    else if (e.key === "f" || e.key === "F" || (e.key === "Enter" && e.target === document.body)) { e.preventDefault(); pressFlip(); }
  });
  connect();
})();
