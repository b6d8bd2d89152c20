// OpenMarket Admin — the catalog's enhancements: the live new-products notice and, for bulk
// actions, "select all on this page" and a progress bar while the action runs. The pages work
// without this file (the notice then shows on the next load).
"use strict";

// Styles that only make sense with this script (the apply button hidden, the bulk bar sticky)
// hang on <html class="js">.
document.documentElement.classList.add("js");

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

// ---- Bulk actions: the bar shows once a product is ticked (sticky at the bottom of the screen),
// with only the chosen action's field; "select all on this page" ticks every box; a progress bar
// while the action runs (the form still posts normally and the result page replaces this one).
// Handlers are delegated, so they keep working after the filters swap the list in place.
(function () {
  function T(key, values) {
    let strings = {};
    try { strings = JSON.parse(document.body.dataset.strings || "{}"); } catch (error) { strings = {}; }
    const text = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
  }
  const form = () => document.querySelector("form[data-bulk]");
  const boxes = () => Array.from(document.querySelectorAll('input[name="ids"][form="bulk-form"]'));
  const selectAll = () => document.querySelector("[data-bulk-select-all]");

  function showChosenField(bulk) {
    const action = bulk.querySelector("select[name=action]");
    if (!action) return;
    bulk.querySelectorAll("[data-bulk-for]").forEach((field) => {
      field.hidden = field.getAttribute("data-bulk-for") !== action.value;
    });
  }

  // The form follows the list (for pages without JS); with JS it belongs in the results line.
  function place(bulk) {
    const line = document.querySelector(".results-bar");
    if (!line || bulk.parentElement === line) return;
    const views = line.querySelector(".view-switch");
    line.insertBefore(bulk, views);
  }

  function update() {
    const bulk = form();
    if (!bulk) return;
    place(bulk);
    const all = selectAll();
    const ticked = boxes().filter((box) => box.checked).length;
    if (all) all.checked = boxes().length > 0 && ticked === boxes().length;
    bulk.hidden = ticked === 0;
    const count = bulk.querySelector("[data-bulk-count]");
    if (count) count.textContent = ticked > 0 ? T("look_bulk_selected", { count: ticked.toLocaleString(document.documentElement.lang) }) : "";
    showChosenField(bulk);
  }

  function init() {
    document.addEventListener("change", (event) => {
      const target = event.target;
      if (!target.matches) return;
      if (target.matches("[data-bulk-select-all]")) boxes().forEach((box) => { box.checked = target.checked; });
      if (target.matches('input[name="ids"], [data-bulk-select-all], form[data-bulk] select[name=action]')) update();
    });
    document.addEventListener("submit", (event) => {
      const bulk = event.target;
      if (!bulk.matches || !bulk.matches("form[data-bulk]")) return;
      // Fields of other actions are hidden, not removed: the server reads only the chosen one's.
      const progress = bulk.querySelector("[data-bulk-progress]");
      if (progress) progress.hidden = false;
      bulk.setAttribute("aria-busy", "true");
      const button = bulk.querySelector("button[type=submit]");
      if (button) setTimeout(() => { button.disabled = true; }, 0);
    }, true);   // capture: the bar is busy before any other submit handler looks at it
    // A refused request came back with its boxes ticked: the bar shows at once (the reason is a
    // role="alert" above it, announced without moving focus).
    update();
  }
  window.OpenMarketBulk = { update };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();

// ---- Filters apply as soon as they change: the list is fetched and swapped in place (the
// search form, and the control in hand, stay as they are); the address follows at once so a
// reload or a bookmark gives the same view. The count line is a polite live region. Without JS
// the apply button does the same with a page load.
(function () {
  function init() {
    const search = document.querySelector("form[data-search-form]");
    const main = document.querySelector("main[data-view]");
    if (!search || !main) return;
    let running = null;
    // On a phone the filters start folded under their summary ("Filters (2)"): products first.
    const filters = search.querySelector("details[data-filters]");
    if (filters && window.matchMedia("(max-width: 47.99rem)").matches) filters.open = false;

    function urlOf() {
      const params = new URLSearchParams();
      for (const [name, value] of new FormData(search)) {
        if (name === "q" && String(value).trim() === "") continue;
        params.append(name, value);
      }
      return search.getAttribute("action") + "?" + params.toString();
    }

    async function apply() {
      const url = urlOf();
      history.replaceState(null, "", url);
      if (running) running.abort();
      const controller = new AbortController();
      running = controller;
      main.setAttribute("aria-busy", "true");
      try {
        const response = await fetch(url, { signal: controller.signal, headers: { Accept: "text/html" } });
        if (!response.ok) { location.href = url; return; }
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
        if (controller !== running) return;
        swap(fresh);
        document.title = fresh.title || document.title;
      } catch (error) {
        if (error.name !== "AbortError") location.href = url;
      } finally {
        if (controller === running) { running = null; main.removeAttribute("aria-busy"); }
      }
    }

    function swap(fresh) {
      const replace = (selector, how) => {
        const old = document.querySelector(selector);
        const next = fresh.querySelector(selector);
        if (old && next) how(old, next);
      };
      replace("[data-chips]", (old, next) => { old.innerHTML = next.innerHTML; });
      replace("[data-results]", (old, next) => { old.innerHTML = next.innerHTML; });
      replace(".catalog-status", (old, next) => { old.replaceWith(document.adoptNode(next)); });
      replace(".filters__summary", (old, next) => { old.textContent = next.textContent; });
      // The header's language links lead back to this view, filters included.
      replace("[data-language-switch]", (old, next) => { old.replaceWith(document.adoptNode(next)); });
      // The results line: everything but the count is replaced (select all, the bulk form with
      // this page's ids, the view links). The count stays the same element, a live region whose
      // words change, so it is announced.
      replace(".results-bar", (old, next) => {
        const count = old.querySelector("[data-count]");
        const nextCount = next.querySelector("[data-count]");
        if (!count || !nextCount) { old.replaceWith(document.adoptNode(next)); return; }
        if (count.textContent !== nextCount.textContent) count.textContent = nextCount.textContent;
        Array.from(old.children).forEach((child) => { if (child !== count) child.remove(); });
        let beforeCount = true;
        Array.from(next.children).forEach((child) => {
          if (child === nextCount) { beforeCount = false; return; }
          const adopted = document.adoptNode(child);
          if (beforeCount) count.before(adopted); else old.append(adopted);
        });
      });
      const refusal = document.querySelector("[data-bulk-refusal]");
      if (refusal) refusal.remove();
      if (window.OpenMarketBulk) window.OpenMarketBulk.update();
    }

    search.addEventListener("change", (event) => {
      if (event.target.name === "q") return;   // words apply on Enter or the search button
      apply();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
