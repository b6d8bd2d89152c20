// Spreadsheet import: while an apply runs (a plain form post the server answers when every row
// is done), a progress bar shows the rows finished so far; "show errors only" hides the other
// rows in place. Without this file the post works the same, and the link loads `?show=errors`.
(function () {
  "use strict";
  function errorsOnlyToggle() {
    const link = document.querySelector("a[data-import-errors-only]");
    if (!link) return;
    const labels = [link.textContent, link.dataset.labelAll];
    const urls = [link.dataset.showAllUrl, link.getAttribute("href")];
    let only = false;
    link.addEventListener("click", (event) => {
      event.preventDefault();
      only = !only;
      document.querySelectorAll("[data-import-row]").forEach((row) => {
        row.hidden = only && row.dataset.outcome !== "error";
      });
      if (only) link.setAttribute("data-active", ""); else link.removeAttribute("data-active");
      link.textContent = only ? labels[1] : labels[0];
      if (history.replaceState) history.replaceState(null, "", only ? urls[1] : urls[0]);
    });
  }
  function init() {
    errorsOnlyToggle();
    document.querySelectorAll("form[data-import-apply]").forEach((form) => {
      form.addEventListener("submit", () => {
        const progress = form.querySelector("[data-import-progress]");
        const buttons = form.querySelectorAll("button[type=submit]");
        form.setAttribute("aria-busy", "true");
        // After the browser has read the pressed button's name and value.
        setTimeout(() => { buttons.forEach((button) => { button.disabled = true; }); }, 0);
        if (!progress) return;
        progress.hidden = false;
        const url = form.dataset.statusUrl;
        if (!url) return;
        const poll = () => {
          fetch(url, { credentials: "same-origin", cache: "no-store" })
            .then((answer) => (answer.ok ? answer.json() : null))
            .then((status) => {
              if (status && status.total) {
                progress.max = status.total;
                progress.value = status.finished;
              }
            })
            .catch(() => {})
            .finally(() => setTimeout(poll, 500));
        };
        setTimeout(poll, 300);
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
