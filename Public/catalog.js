// OpenMarket Admin — the catalog's enhancements: the live new-products notice and, for bulk
// actions, "select all on this page" and a progress bar while the action runs. The pages work
// without this file (the notice then shows on the next load).
"use strict";

(function () {
  // One small JSON request per open tab every 10 s, only while the tab is visible; the panel
  // answers all tabs from one upstream check at most every 5 s.
  const POLL_MS = 10000;

  // The page's language: texts from the catalog handed over in <body data-strings>.
  function T(key) {
    let strings = {};
    try { strings = JSON.parse(document.body.dataset.strings || "{}"); } catch (error) { strings = {}; }
    return Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
  }

  function init() {
    const head = document.querySelector("[data-newest-id]");
    if (head) watchForNewProducts(head);
  }

  function watchForNewProducts(head) {
    const known = Number(head.getAttribute("data-newest-id")) || 0;
    const url = head.getAttribute("data-newest-url");
    const link = head.getAttribute("data-newest-link") || "/products";
    if (!url || document.querySelector("[data-new-products]")) return;
    let timer = null;

    async function check() {
      timer = null;
      if (document.hidden) return;
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
        if (response.ok) {
          const answer = await response.json();
          if (typeof answer.newest_id === "number" && answer.newest_id > known) {
            showNotice(head, link);
            return; // shown once; no more polling on this page
          }
        }
      } catch (error) {
        // The panel is unreachable for a moment: try again on the next tick.
      }
      schedule();
    }

    function schedule() {
      if (timer === null && !document.hidden) timer = setTimeout(check, POLL_MS);
    }

    document.addEventListener("visibilitychange", () => {
      if (document.hidden) { clearTimeout(timer); timer = null; } else { schedule(); }
    });
    schedule();
  }

  function showNotice(head, link) {
    if (document.querySelector("[data-new-products]")) return;
    const notice = document.createElement("p");
    notice.className = "flash flash--info";
    notice.setAttribute("data-new-products", "");
    notice.setAttribute("role", "status");
    notice.append(T("catalog_new_products") + " ");
    const anchor = document.createElement("a");
    anchor.href = link;
    anchor.textContent = T("catalog_new_products_link");
    notice.append(anchor);
    head.insertAdjacentElement("afterend", notice);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();

// ---- Bulk actions: "select all on this page" ticks every checkbox; a progress bar while the
// action runs (the form still posts normally and the result page replaces this one).
(function () {
  function init() {
    const form = document.querySelector("form[data-bulk]");
    if (!form) return;
    const all = form.querySelector("[data-bulk-select-all]");
    const boxes = () => Array.from(document.querySelectorAll('input[name="ids"][form="' + form.id + '"]'));
    if (all) {
      all.addEventListener("change", () => boxes().forEach((box) => { box.checked = all.checked; }));
      document.addEventListener("change", (event) => {
        if (event.target.matches && event.target.matches('input[name="ids"]')) {
          all.checked = boxes().length > 0 && boxes().every((box) => box.checked);
        }
      });
    }
    form.addEventListener("submit", () => {
      const progress = form.querySelector("[data-bulk-progress]");
      if (progress) progress.hidden = false;
      form.setAttribute("aria-busy", "true");
      // Ticked boxes already travel with the form; "select all" is resolved by the server too.
      const button = form.querySelector("button[type=submit]");
      if (button) setTimeout(() => { button.disabled = true; }, 0);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
