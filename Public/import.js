// Spreadsheet import: while an apply runs (a plain form post the server answers when every row
// is done), a progress bar shows the rows finished so far. Without this file the post works the same.
(function () {
  "use strict";
  function init() {
    document.querySelectorAll("form[data-import-apply]").forEach((form) => {
      form.addEventListener("submit", () => {
        const progress = form.querySelector("[data-import-progress]");
        const button = form.querySelector("button[type=submit]");
        form.setAttribute("aria-busy", "true");
        if (button) setTimeout(() => { button.disabled = true; }, 0);
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
