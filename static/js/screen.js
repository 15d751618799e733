// The room's big screen (docs/web.md, "The big screen"). Shows one panel ([data-panel]) at a
// time and moves on every data-seconds; ← / → move by hand, space pauses (and the buttons do the
// same). The panels live in #screen-body, which htmx reloads when a result comes in (live.js):
// the screen then keeps showing the panel it showed, by its key (or the one at its place when that
// panel is gone, e.g. a round that now fits one panel). Animations are CSS, and only without
// prefers-reduced-motion.
(function () {
  "use strict";
  const root = document.querySelector("[data-screen]");
  if (!root) return;
  const seconds = Math.max(5, Number(root.dataset.seconds) || 15);
  const pauseButton = root.querySelector("[data-screen-pause]");
  const counter = root.querySelector("[data-screen-counter]");
  const pausedBadge = root.querySelector("[data-screen-paused]");
  let key = null;
  let index = 0;
  let paused = false;
  let timer = null;

  const panels = () => Array.from(document.querySelectorAll("[data-panel]"));

  // A bracket as large as the panel allows: as wide as the screen, unless that makes it too tall.
  function fitBrackets() {
    document.querySelectorAll(".screen-bracket[data-ratio]").forEach((box) => {
      const [w, h] = box.dataset.ratio.split("/").map(Number);
      if (w > 0 && h > 0) box.style.setProperty("--bracket-ratio", String(w / h));
    });
  }

  function show(wanted) {
    const list = panels();
    if (!list.length) return;
    index = ((wanted % list.length) + list.length) % list.length;
    list.forEach((panel, i) => {
      panel.hidden = i !== index;
    });
    key = list[index].dataset.panel;
    root.dataset.current = key;
    counter.textContent = index + 1 + " / " + list.length;
  }

  function restart() {
    clearTimeout(timer);
    if (!paused) timer = setTimeout(() => step(1), seconds * 1000);
  }

  function step(by) {
    show(index + by);
    restart();
  }

  function setPaused(value) {
    paused = value;
    pauseButton.setAttribute("aria-pressed", String(value));
    pauseButton.textContent = value ? root.dataset.resumeLabel : root.dataset.pauseLabel;
    pausedBadge.hidden = !value;
    root.classList.toggle("paused", value);
    restart();
  }

  root.querySelector("[data-screen-prev]").addEventListener("click", () => step(-1));
  root.querySelector("[data-screen-next]").addEventListener("click", () => step(1));
  pauseButton.addEventListener("click", () => setPaused(!paused));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "ArrowRight") step(1);
    else if (event.key === "ArrowLeft") step(-1);
    else if (event.key === " " && !event.target.closest("button, a, input, select, textarea")) {
      // (space on a focused button presses that button instead)
      event.preventDefault();
      setPaused(!paused);
    } else return;
  });

  // After a reload, the same panel again (its key), else the one at the same place.
  function again() {
    const found = panels().findIndex((panel) => panel.dataset.panel === key);
    fitBrackets();
    show(found >= 0 ? found : Math.min(index, panels().length - 1));
  }
  document.body.addEventListener("htmx:afterSwap", again); // before it is painted, where htmx fires it there
  document.body.addEventListener("htmx:afterSettle", again);

  fitBrackets();
  show(0);
  restart();
})();
