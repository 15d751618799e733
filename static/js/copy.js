// "Copy" buttons: data-copy names the input whose value goes to the clipboard (no inline handler:
// the CSP forbids them). Where the clipboard API is refused, the value is selected for a manual copy.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const field = document.querySelector(button.dataset.copy);
  if (!field) return;
  const told = document.getElementById("copy-told");
  field.focus();
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    button.textContent = button.dataset.copied;
    if (told) told.textContent = button.dataset.copied;
  } catch (error) {
    document.execCommand("copy");
    if (told) told.textContent = button.dataset.copied;
  }
});
