// The new-stage form: show only the options of the chosen format. Every option input carries
// data-formats (the formats that take it); its field is hidden, and disabled so it is not sent,
// when the chosen format does not take it. Without this script every option shows, and the
// server still sends only the chosen format's options to the service.
(function () {
  "use strict";
  function update(form) {
    const chosen = form.querySelector("input[name=format]:checked");
    const format = chosen ? chosen.value : "";
    form.querySelectorAll("[data-formats]").forEach(function (input) {
      const takes = input.dataset.formats.split(" ").indexOf(format) >= 0;
      const field = input.closest(".field") || input;
      field.hidden = !takes;
      input.disabled = !takes;
    });
  }
  document.querySelectorAll("form[data-stage-form]").forEach(function (form) {
    form.addEventListener("change", function (event) {
      if (event.target.name === "format") update(form);
    });
    update(form);
  });
})();
