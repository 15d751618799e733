// Live pages by push (docs/web.md, "Live updates"). A fragment that follows a version carries
// data-live-topic ("stage:12"), data-live-event (the htmx event that reloads it) and data-version.
// This script opens one websocket to /ws/live/, subscribes to every such topic and, when the server
// says a topic moved past the version shown, fires the event: the fragment reloads itself exactly as
// when its poller sees a new version. While a topic is subscribed its poller ([data-live-poll])
// rests: its requests are cancelled in htmx:beforeRequest (an hx-trigger filter would need eval,
// which the Content-Security-Policy forbids); without a socket (none in this browser, refused,
// dropped) the pollers run as before, and the script reconnects with a growing, jittered delay.
// A section that names its fragment (data-live-fragment="standings") asks the socket for it: the
// "changed" frame then brings the new fragment itself (rendered once for every watcher), and it is
// swapped in as its reload would, without a request.
(function () {
  "use strict";
  const PING_MS = 25000; // the server must answer within PONG_MS, or the socket is taken as dead
  const PONG_MS = 10000;
  const RETRY_FIRST_MS = 500;
  const RETRY_MAX_MS = 30000;

  const subscribed = new Set(); // topics the socket follows: their pollers rest
  const latest = {}; // topic -> the newest version heard
  let socket = null;
  let retry = RETRY_FIRST_MS;
  let pingTimer = null;
  let pongTimer = null;

  const sections = () => Array.from(document.querySelectorAll("[data-live-topic]"));
  const sectionOf = (topic) => sections().find((s) => s.dataset.liveTopic === topic);

  // Versions are dotted counters that only grow ("3.2" < "3.10" < "4.0"; a series: "7").
  function newer(a, b) {
    const x = String(a).split(".").map(Number);
    const y = String(b).split(".").map(Number);
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      const d = (x[i] || 0) - (y[i] || 0);
      if (d) return d > 0;
    }
    return false;
  }

  // Reload the fragment of `topic` when it shows less than the newest version heard. A reload in
  // flight is left alone: when it settles the check runs again (htmx drops a second request).
  function catchUp(topic) {
    const section = sectionOf(topic);
    if (!section || !latest[topic] || !newer(latest[topic], section.dataset.version)) return;
    if (section.classList.contains("htmx-request")) return;
    htmx.trigger(document.body, section.dataset.liveEvent);
  }

  function heard(topic, version) {
    if (!latest[topic] || newer(version, latest[topic])) latest[topic] = version;
    catchUp(topic);
  }

  // The fragments a "changed" frame brought: each section of the topic that shows less than that
  // version takes its own, as its reload would have swapped it (htmx processes the new one).
  function swapIn(topic, version, html) {
    sections()
      .filter((s) => s.dataset.liveTopic === topic && html[s.dataset.liveFragment] !== undefined)
      .filter((s) => newer(version, s.dataset.version) && !s.classList.contains("htmx-request"))
      .forEach((s) => htmx.swap(s, html[s.dataset.liveFragment], { swapStyle: "outerHTML" }));
  }

  function send(frame) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }

  function onFrame(frame) {
    clearTimeout(pongTimer); // anything heard proves the socket alive
    switch (frame.type) {
      case "subscribed":
        subscribed.add(frame.topic);
        retry = RETRY_FIRST_MS; // a socket that works: the next drop starts the delays afresh
        heard(frame.topic, frame.version);
        break;
      case "changed":
        if (frame.html) swapIn(frame.topic, frame.version, frame.html);
        heard(frame.topic, frame.version);
        break;
      case "unsubscribed":
        subscribed.delete(frame.topic);
        break;
      case "error":
        if (frame.topic) subscribed.delete(frame.topic); // that one keeps polling
        console.warn("live updates:", frame.code, frame.message);
        break;
    }
  }

  function stopTimers() {
    clearInterval(pingTimer);
    clearTimeout(pongTimer);
  }

  function reconnectLater() {
    const wait = retry * (0.5 + Math.random());
    retry = Math.min(retry * 2, RETRY_MAX_MS);
    setTimeout(connect, wait);
  }

  function connect() {
    if (socket || !sections().length) return;
    try {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/live/");
    } catch (e) {
      socket = null;
      reconnectLater();
      return;
    }
    socket.onopen = function () {
      const wanted = {}; // topic -> the fragments its sections show
      sections().forEach(function (s) {
        wanted[s.dataset.liveTopic] = wanted[s.dataset.liveTopic] || [];
        if (s.dataset.liveFragment) wanted[s.dataset.liveTopic].push(s.dataset.liveFragment);
      });
      Object.keys(wanted).forEach((topic) => send({ type: "subscribe", topic: topic, fragments: wanted[topic] }));
      pingTimer = setInterval(function () {
        send({ type: "ping" });
        clearTimeout(pongTimer);
        pongTimer = setTimeout(() => socket && socket.close(), PONG_MS);
      }, PING_MS);
    };
    socket.onmessage = function (event) {
      try {
        onFrame(JSON.parse(event.data));
      } catch (e) {
        console.warn("live updates: unreadable frame", e);
      }
    };
    socket.onclose = function () {
      subscribed.clear(); // the pollers take over at once
      stopTimers();
      socket = null;
      reconnectLater();
    };
  }

  window.snapLive = {
    // The pollers' filter: poll unless the socket follows this fragment's topic.
    polls(element) {
      const section = element.closest("[data-live-topic]");
      return !section || !subscribed.has(section.dataset.liveTopic);
    },
    subscribed: () => Array.from(subscribed),
  };

  document.body.addEventListener("htmx:beforeRequest", (event) => {
    const poller = event.detail.elt;
    if (poller && poller.hasAttribute("data-live-poll") && !window.snapLive.polls(poller)) event.preventDefault();
  });
  document.body.addEventListener("htmx:afterSettle", () => Object.keys(latest).forEach(catchUp));
  // A reload that failed (server gone for a moment): try again shortly.
  document.body.addEventListener("htmx:afterRequest", (event) => {
    if (!event.detail.successful) setTimeout(() => Object.keys(latest).forEach(catchUp), 1000);
  });
  window.addEventListener("online", connect); // back on the network: no need to wait for the delay

  if (typeof WebSocket === "function") connect();
})();
