// The bracket page follows new results by reloading its fragment (htmx, like the standings page).
// A swap replaces the scrolling box (templates/tournaments/_bracket.html) and would send a phone
// that had scrolled to the later rounds back to round 1: keep each box's scroll position (by id)
// across htmx swaps.
(function () {
  "use strict";
  let kept = {};
  document.addEventListener("htmx:beforeSwap", () => {
    kept = {};
    document.querySelectorAll(".bracket-scroll[id]").forEach((box) => {
      kept[box.id] = [box.scrollLeft, box.scrollTop];
    });
  });
  document.addEventListener("htmx:afterSwap", () => {
    for (const [id, [left, top]] of Object.entries(kept)) {
      const box = document.getElementById(id);
      if (box) {
        box.scrollLeft = left;
        box.scrollTop = top;
      }
    }
  });
})();
