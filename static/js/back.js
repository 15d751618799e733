// "Back" links: the previous page when there is one (an inline javascript: URL would break the CSP).
document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-back]");
  if (link && window.history.length > 1) {
    event.preventDefault();
    window.history.back();
  }
});
