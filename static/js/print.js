// The table sheets' Print button (no inline handler: the CSP).
(function () {
  "use strict";
  const button = document.getElementById("print");
  if (button) button.addEventListener("click", () => window.print());
})();
