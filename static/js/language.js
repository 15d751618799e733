// The footer's language switcher: choosing a language sends the form (its button stays for
// keyboards and for pages without this script). docs/web.md, "Languages".
(function () {
  "use strict";
  const select = document.getElementById("language");
  if (select) select.addEventListener("change", () => select.form.requestSubmit());
})();
