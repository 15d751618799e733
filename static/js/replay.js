// The replay page: steps through a finished game's frames (embedded by the server as JSON: the
// frame each step's viewer saw, built by the live table's own frame function). The step shown is
// in the address (?step=), so a step can be linked to. docs/online.md ("Replays").
(function () {
  "use strict";
  const root = document.getElementById("replay");
  if (!root) return;
  const T = JSON.parse(document.getElementById("replay-text").textContent);
  const steps = JSON.parse(document.getElementById("replay-steps").textContent);
  const names = root.dataset.names.split("|");
  const $ = (id) => document.getElementById(id);
  const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };
  const who = (s) => names[s] || "#" + s;
  let at = 0;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function card(name, extra) {
    if (!name) return el("span", "pcard big-card empty", "·");
    const base = name.split(".")[0];
    const suit = base.slice(-1);
    const face = SUITS[suit] ? base.slice(0, -1) + SUITS[suit] : base;
    const c = el("span", "pcard suit-" + suit + (SUITS[suit] ? "" : " picture") + (extra ? " " + extra : ""), face);
    c.dataset.card = name;
    return c;
  }
  function row(label, cards, cls) {
    const r = el("div", "replay-row " + (cls || ""));
    r.appendChild(el("span", "replay-label", label));
    const box = el("span", "replay-cards");
    cards.forEach((c) => box.appendChild(card(c)));
    r.appendChild(box);
    return r;
  }

  function snapszer(frame, board) {
    const v = frame.view, h = v.hand, m = v.match;
    board.appendChild(el("div", "scoreboard",
      T.match + " " + who(0) + " " + m.scores[0] + " – " + m.scores[1] + " " + who(1) +
      " · " + T.hand + " " + v.hand_number + " · " + T.points + " " + h.points.join(" – ")));
    const hands = frame.hands || [0, 1].map((s) => (s === v.seat ? h.hand : null));
    const sizes = h.hand_sizes || [0, 1].map((s) => (s === v.seat ? h.hand.length : h.opponent_hand_size));
    [0, 1].forEach((s) => {
      if (hands[s]) { board.appendChild(row(who(s), hands[s], "seat-" + s)); return; }
      const r = row(who(s) + " · " + sizes[s] + " " + T.cards, [], "seat-" + s);
      const backs = el("span", "backs");
      for (let i = 0; i < sizes[s]; i++) backs.appendChild(el("i"));
      r.appendChild(backs);
      board.appendChild(r);
    });
    const middle = el("div", "middle");
    if (h.trump_card) middle.appendChild(card(h.trump_card, "trump-card"));
    middle.appendChild(el("span", "", T.trump + " " + (SUITS[h.trump_suit] || h.trump_suit) + " · " + T.stock + " " +
      h.talon_size + (h.closed_by !== null ? " (" + T.closed + ")" : "")));
    const trick = el("span", "trick");
    if (h.lead_card) { trick.append(el("span", "muted small", T.trick + ":"), card(h.lead_card)); }
    else if (h.tricks.length) {
      const last = h.tricks[h.tricks.length - 1];
      trick.append(el("span", "muted small", T.lastTrick + ":"), card(last.lead), card(last.follow));
    }
    middle.appendChild(trick);
    board.appendChild(middle);
    if (frame.stock) board.appendChild(row(T.stockCards, frame.stock, "stock-cards"));
  }

  function snap(frame, board) {
    const v = frame.view;
    const seats = el("div", "seats");
    v.piles.forEach((p) => {
      const s = el("div", "seat" + (v.turn === p.seat ? " on-turn" : "") + (p.active ? "" : " out"));
      s.dataset.seat = p.seat;
      s.appendChild(el("span", "seat-name", who(p.seat)));
      s.appendChild(card(p.top, "big-card"));
      s.appendChild(el("span", "small", p.active ? p.facedown + " " + T.down + " · " + p.faceup + " " + T.up : T.out));
      if (frame.facedown) {
        const down = el("span", "replay-cards facedown");
        frame.facedown[p.seat].forEach((c) => down.appendChild(card(c)));
        s.appendChild(down);
      }
      seats.appendChild(s);
    });
    board.appendChild(seats);
    if (v.pools.length) {
      const pools = el("div", "pools");
      v.pools.forEach((p) => {
        const box = el("div", "pool");
        box.append(el("span", "small", T.pool + " " + p.number + " · " + p.size), card(p.top, "big-card"));
        pools.appendChild(box);
      });
      board.appendChild(pools);
    }
    if (v.central_size) {
      board.appendChild(row(T.centre + " · " + v.central_size, [v.central_top].concat(frame.central_hidden || []), "central"));
    }
    if (v.result) {
      board.appendChild(el("div", "scoreboard", T.place + ": " +
        v.result.placings.map((p, s) => who(s) + " " + p).join(" · ")));
    }
  }

  function show(index, push) {
    at = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[at];
    const board = $("board");
    board.innerHTML = "";
    (root.dataset.kind === "snap" ? snap : snapszer)(step.frame, board);
    $("slider").value = at;
    $("count").textContent = T.step + " " + at + " " + T.of + " " + (steps.length - 1);
    $("now").textContent = step.text;
    // The expert's note on this step, when the analysis panel (htmx, docs/analysis.md) has one.
    const note = document.querySelector('#analysis li[data-step="' + at + '"]');
    $("step-analysis").textContent = note ? note.dataset.note : "";
    $("step-analysis").hidden = !note;
    $("step-analysis").classList.toggle("mistake", !!(note && note.classList.contains("mistake")));
    root.dataset.step = at;
    for (const li of $("steps").querySelectorAll("li.current")) { li.classList.remove("current"); li.removeAttribute("aria-current"); }
    const li = $("step-" + at);
    if (li) {
      li.classList.add("current"); li.setAttribute("aria-current", "step");
      const list = $("steps");
      list.scrollTop = li.offsetTop - list.clientHeight / 2; // the list is the line's offset parent
    }
    $("first").disabled = $("prev").disabled = at === 0;
    $("next").disabled = $("last").disabled = at === steps.length - 1;
    // The address names the step, and the seat links keep it when the viewer changes.
    const url = new URL(location.href);
    url.searchParams.set("step", at);
    url.searchParams.set("seat", root.dataset.viewer);
    if (push) history.replaceState(null, "", url);
    for (const a of root.querySelectorAll(".replay-seats a")) a.href = "?seat=" + a.dataset.viewer + "&step=" + at;
  }

  $("first").addEventListener("click", () => show(0, true));
  $("prev").addEventListener("click", () => show(at - 1, true));
  $("next").addEventListener("click", () => show(at + 1, true));
  $("last").addEventListener("click", () => show(steps.length - 1, true));
  $("slider").addEventListener("input", () => show(parseInt($("slider").value, 10), true));
  $("steps").addEventListener("click", (e) => {
    const li = e.target.closest("li[data-step]");
    if (!li) return;
    e.preventDefault();
    show(parseInt(li.dataset.step, 10), true);
  });
  document.addEventListener("keydown", (e) => {
    // The slider steps by itself on its keys (its input event shows the step).
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1 };
    if (!(e.key in moves)) return;
    e.preventDefault();
    show(moves[e.key], true);
  });
  // The analysis panel is swapped in by htmx when it is ready: show the current step's note.
  document.body.addEventListener("htmx:afterSettle", () => show(at, false));
  document.addEventListener("click", (e) => {
    const a = e.target.closest && e.target.closest("#analysis li[data-step] a");
    if (!a) return;
    e.preventDefault();
    show(parseInt(a.parentElement.dataset.step, 10), true);
    root.scrollIntoView({ block: "start" });
  });
  const asked = parseInt(new URL(location.href).searchParams.get("step"), 10);
  show(Number.isNaN(asked) ? 0 : asked, false);
})();
