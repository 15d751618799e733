// A table waiting for its players (templates/games/_waiting.html): the page follows the table over
// its game socket and moves on to the game once, when the last seat is taken. It never reloads
// while waiting, so the invitation link stays selected under the player copying it.
// docs/online.md ("Waiting for the other players").
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root || root.dataset.status !== "open") return;
  const POLL_MS = 20000; // only while the socket is down: is the table still open?
  let socket = null, retry = 1000, poll = null, leaving = false;

  function go() { // the table has started: the same page now shows the game
    if (leaving) return;
    leaving = true;
    location.reload();
  }
  // The socket is down (no websockets through this network, or the server restarting): ask the
  // page itself now and then, and move on if it no longer says the table is open.
  function pollWhileDown() {
    if (poll !== null || leaving) return;
    poll = setInterval(() => {
      fetch(location.href, { credentials: "same-origin", cache: "no-store" })
        .then((r) => r.ok ? r.text() : "")
        .then((html) => {
          if (html && html.indexOf('data-status="open"') === -1) go();
        })
        .catch(() => {});
    }, POLL_MS);
  }
  function socketUp() {
    if (poll !== null) { clearInterval(poll); poll = null; }
  }
  function connect() {
    if (leaving) return;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/games/" + root.dataset.game + "/");
    socket.onopen = () => { retry = 1000; socketUp(); };
    socket.onmessage = (e) => {
      let frame = null;
      try { frame = JSON.parse(e.data); } catch (err) { return; }
      // "started" when the last seat is taken; a view when this socket connected after the start.
      if (frame.type === "started" || frame.type === "view") go();
    };
    socket.onclose = () => {
      if (leaving) return;
      pollWhileDown();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }
  root.dataset.waiting = "socket"; // tests: this page follows the table, it does not reload
  if (typeof WebSocket === "function") connect();
  else pollWhileDown();
})();
