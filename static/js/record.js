// The record-result form: tap players in the order they went out; one submission per tap.
// Without this script the form still works: the order numbers are typed into the inputs.
(function () {
  "use strict";
  const form = document.getElementById("record-form");
  if (!form) return;
  form.classList.add("js");

  const taps = Array.from(form.querySelectorAll("button.tap"));
  const inputOf = (button) => document.getElementById(button.dataset.target);
  const numberOf = (button) => parseInt(inputOf(button).value, 10) || 0;
  const preview = document.getElementById("preview");
  const togetherButton = form.querySelector('[data-action="together"]');
  let together = false;
  // The taps in order, so that Undo takes back the last one.
  const stack = taps.filter(numberOf).sort((a, b) => numberOf(a) - numberOf(b));

  function refresh() {
    taps.forEach((button) => {
      const n = numberOf(button);
      button.querySelector(".order-no").textContent = n ? String(n) : "";
      button.classList.toggle("out", n > 0);
      button.setAttribute("aria-pressed", n > 0 ? "true" : "false");
    });
    togetherButton && togetherButton.setAttribute("aria-pressed", together ? "true" : "false");
    if (!preview) return;
    const left = taps.filter((b) => !numberOf(b));
    const ending = form.dataset.ending;
    if (ending === "last_player_standing" && left.length === 1) {
      preview.textContent = "🏆 " + left[0].dataset.name;
    } else if (ending === "last_player_standing" && left.length === 0 && taps.length) {
      preview.textContent = "🏆 " + stack[stack.length - 1].dataset.name;
    } else if (ending === "draw" && left.length) {
      preview.textContent = "= " + left.map((b) => b.dataset.name).join(", ");
    } else {
      preview.textContent = "";
    }
  }

  function tap(button) {
    const input = inputOf(button);
    const current = numberOf(button);
    if (current) {  // tapping again takes that player back out of the order
      input.value = "";
      stack.splice(stack.indexOf(button), 1);
      if (!taps.some((b) => numberOf(b) === current)) {
        taps.forEach((b) => { if (numberOf(b) > current) inputOf(b).value = String(numberOf(b) - 1); });
      }
    } else {
      const highest = Math.max(0, ...taps.map(numberOf));
      input.value = String(together && highest ? highest : highest + 1);
      stack.push(button);
      together = false;
    }
    refresh();
  }

  taps.forEach((button) => button.addEventListener("click", () => tap(button)));
  form.querySelectorAll("[data-action]").forEach((tool) => tool.addEventListener("click", () => {
    const action = tool.dataset.action;
    if (action === "undo" && stack.length) tap(stack[stack.length - 1]);
    if (action === "together") together = !together;
    if (action === "clear") { taps.forEach((b) => { inputOf(b).value = ""; }); stack.length = 0; together = false; }
    refresh();
  }));
  form.querySelectorAll('input[name="ending"]').forEach((radio) => radio.addEventListener("change", () => {
    form.dataset.ending = radio.value;
    refresh();
  }));
  form.querySelectorAll('input[name="mode"]').forEach((radio) => radio.addEventListener("change", () => {
    form.dataset.mode = radio.value;
  }));
  // A double tap sends once (the hidden client key makes a repeat harmless on the server too).
  form.addEventListener("submit", (event) => {
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
    const submit = form.querySelector("button.submit");
    if (submit) setTimeout(() => { submit.disabled = true; }, 0);
  });
  // Coming back with the browser's Back button must not leave the form locked.
  window.addEventListener("pageshow", () => {
    delete form.dataset.sent;
    const submit = form.querySelector("button.submit");
    if (submit) submit.disabled = false;
  });
  refresh();
})();
