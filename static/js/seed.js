// The client seed of a form that seats a player (docs/online.md, "Fair dealing"): 32 random bytes
// drawn here with crypto.getRandomValues, in hexadecimal, replacing the server's fallback value
// (which only a browser without JavaScript keeps). The player may still type their own.
(function () {
  "use strict";
  if (!window.crypto || !window.crypto.getRandomValues) return;
  for (const input of document.querySelectorAll("input[data-client-seed]:not([data-drawn])")) {
    const bytes = window.crypto.getRandomValues(new Uint8Array(32));
    input.value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    input.dataset.drawn = "browser";
    const box = input.closest("fieldset");
    if (!box) continue;
    for (const note of box.querySelectorAll("[data-seed-made-by]")) {
      note.hidden = note.dataset.seedMadeBy !== "browser";
    }
  }
})();
