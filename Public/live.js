// OpenMarket Admin — live changes (progressive enhancement; every page works without it).
// Listens to /events and updates what colleagues changed: list and grid rows, sheet rows (a cell
// being edited is never overwritten), the product page's fields; the edit page says when
// someone else saved the product; product pages show who else has them open.
"use strict";

(function () {
  if (!window.EventSource || !window.JSON) return;
  const T = window.OpenMarketText || ((key) => key);
  const lang = document.documentElement.lang === "ko" ? "ko" : "en";
  const route = location.pathname.match(/^\/products\/(\d+)(\/edit)?\/?$/);
  const productID = route ? Number(route[1]) : null;
  const editing = Boolean(route && route[2]);
  const list = document.querySelector("main[data-view]");
  const sheet = document.querySelector("table[data-sheet]");
  if (!list && !sheet && !productID) return;
  const reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  // ---- The stream: reconnects by itself (the browser sends Last-Event-ID); after the panel
  // stopped (`bye`) a new one starts with the last id seen, so nothing in between is lost.
  let lastID = null;
  let source = null;
  function connect() {
    let url = "/events";
    const query = [];
    if (productID) query.push("product=" + productID);
    if (lastID) query.push("last_event_id=" + encodeURIComponent(lastID));
    if (query.length) url += "?" + query.join("&");
    source = new EventSource(url);
    // `data-live` on <html> says whether changes arrive (open) or the page waits to reconnect.
    source.addEventListener("open", () => document.documentElement.setAttribute("data-live", "open"));
    source.addEventListener("error", () => document.documentElement.setAttribute("data-live", "reconnecting"));
    source.addEventListener("product", (event) => {
      if (event.lastEventId) lastID = event.lastEventId;
      let change;
      try { change = JSON.parse(event.data); } catch (error) { return; }
      applyChange(change);
    });
    source.addEventListener("presence", (event) => {
      try { showPresence(JSON.parse(event.data)); } catch (error) { /* a broken event changes nothing */ }
    });
    source.addEventListener("reset", () => resetPage());
    source.addEventListener("bye", () => {
      source.close();
      setTimeout(connect, 3000 + Math.random() * 2000);
    });
  }

  function applyChange(change) {
    if (list) updateListItem(change);
    if (sheet) updateSheetRow(change);
    if (productID === change.id) {
      if (editing) showConflict(change);
      else updateDetail(change);
    }
  }

  // ---- Marks: data-live-updated stays; the highlight fades (none with reduced motion).
  function markUpdated(element) {
    element.setAttribute("data-live-updated", "");
    element.classList.remove("live-flash");
    if (reducedMotion) return;
    void element.offsetWidth;   // restarts the animation when a second change comes quickly
    element.classList.add("live-flash");
    setTimeout(() => element.classList.remove("live-flash"), 2100);
  }

  function markRemoved(element) {
    element.setAttribute("data-live-removed", "");
    element.removeAttribute("data-live-updated");
    if (!element.querySelector("[data-live-removed-badge]")) {
      const badge = document.createElement("span");
      badge.className = "badge badge--removed";
      badge.setAttribute("data-live-removed-badge", "");
      badge.textContent = T("live_removed");
      element.appendChild(badge);
    }
  }

  function text(element, value) { if (element && element.textContent !== value) element.textContent = value; }

  // ---- The price as the list writes it: original struck through when discounted.
  function priceMarkup(target, display) {
    target.textContent = "";
    if (display.discounted) {
      const original = document.createElement("del");
      original.className = "price price--original";
      original.textContent = display.original_price;
      const now = document.createElement("ins");
      now.className = "price price--bargain";
      now.textContent = display.price;
      target.append(original, " ", now);
    } else {
      const price = document.createElement("span");
      price.className = "price";
      price.textContent = display.price;
      target.appendChild(price);
    }
  }

  function stockMarkup(target, product, display) {
    target.textContent = "";
    const mark = document.createElement("span");
    mark.className = product.sold_out ? "badge badge--soldout" : "stock";
    mark.textContent = product.sold_out ? T("live_sold_out") : display.stock;
    target.appendChild(mark);
  }

  function saleBadge(item, change, after) {
    if (!after) return;
    const badge = item.querySelector("[data-sale-badge]");
    if (change.action === "sale-start") {
      if (badge) { badge.setAttribute("data-sale-badge", "running"); badge.textContent = T("live_sale_running"); return; }
      const mark = document.createElement("span");
      mark.className = "badge badge--sale";
      mark.setAttribute("data-sale-badge", "running");
      mark.textContent = T("live_sale_running");
      after.after(mark);
    } else if ((change.action === "sale-end" || change.action === "sale-cancelled") && badge) {
      badge.remove();
    }
  }

  function updateListItem(change) {
    const item = list.querySelector(`[data-product-id="${change.id}"]`);
    if (!item) return;
    if (!change.product) return markRemoved(item);
    const product = change.product, display = product.display[lang] || product.display.en;
    const name = item.querySelector(".product__name");
    text(name, product.name);
    const price = item.querySelector(".product__price");
    if (price) priceMarkup(price, display);
    const stock = item.querySelector(".product__stock");
    if (stock) stockMarkup(stock, product, display);
    saleBadge(item, change, name);
    markUpdated(item);
  }

  // ---- Sheet rows: a cell being edited or changed keeps what the seller typed; the newer value
  // shows beside it (and the loaded value stays, so the save reports the conflict).
  const SHEET_FIELDS = ["name", "price", "discounted_price", "stock"];
  function updateSheetRow(change) {
    const row = sheet.querySelector(`tr[data-sheet-row="${change.id}"]`);
    if (!row) return;
    if (!change.product) return markRemoved(row);
    for (const field of SHEET_FIELDS) {
      const value = String(change.product[field] ?? "");
      const shown = field === "name" ? value : value.replace(/\.0+$/, "");
      const input = row.querySelector(`[data-sheet-cell="${change.id}:${field}"]`);
      if (!input) continue;
      const busy = document.activeElement === input || input.hasAttribute("data-changed") || input.value !== input.defaultValue;
      let newer = input.parentElement.querySelector("[data-live-newer]");
      if (busy) {
        if (input.value === shown) { if (newer) newer.remove(); continue; }
        if (!newer) {
          newer = document.createElement("span");
          newer.className = "live-newer";
          newer.setAttribute("data-live-newer", "");
          input.after(newer);
        }
        newer.textContent = T("live_newer", { value: shown });
      } else {
        if (newer) newer.remove();
        input.value = shown;
        input.defaultValue = shown;
        const loaded = row.querySelector(`input[name="${change.id}.was.${field}"]`);
        if (loaded) loaded.value = shown;
      }
    }
    markUpdated(row);
  }

  // ---- The product page.
  function updateDetail(change) {
    const info = document.querySelector(".detail__info") || document.querySelector("main");
    if (!info) return;
    if (!change.product) return markRemoved(info);
    const product = change.product, display = product.display[lang] || product.display.en;
    text(document.getElementById("product-title"), product.name);
    const price = info.querySelector(".detail__price");
    if (price) priceMarkup(price, display);
    const stock = info.querySelector(".detail__stock");
    if (stock) stockMarkup(stock, product, display);
    for (const field of info.querySelectorAll("[data-live-field]")) {
      const key = field.getAttribute("data-live-field");
      if (key === "stock") text(field, String(product.stock));
      else if (display[key] !== undefined) text(field, display[key]);
    }
    markUpdated(info);
  }

  // ---- The edit page: someone else saved the product; said at once, the time kept current.
  let conflict = null, conflictAt = 0, conflictChange = null;
  function ago(since) {
    const seconds = Math.max(0, Math.round((Date.now() - since) / 1000));
    if (seconds < 5) return T("live_just_now");
    if (seconds < 60) return T("live_seconds_ago", { count: seconds });
    return T("live_minutes_ago", { count: Math.round(seconds / 60) });
  }
  function conflictText() {
    const when = ago(conflictAt);
    const by = conflictChange.by;
    if (!conflictChange.product) return by ? T("live_conflict_deleted", { name: by, ago: when }) : T("live_conflict_deleted_elsewhere", { ago: when });
    if (!by) return T("live_conflict_elsewhere", { ago: when });
    return T("live_conflict", { name: by, ago: when });
  }
  function showConflict(change) {
    conflictChange = change;
    conflictAt = Date.parse(change.at) || Date.now();
    if (conflictAt > Date.now()) conflictAt = Date.now();
    if (!conflict) {
      conflict = document.createElement("div");
      conflict.className = "live-notice live-notice--conflict";
      conflict.setAttribute("data-live-conflict", "");
      conflict.setAttribute("role", "alert");
      const message = document.createElement("span");
      message.setAttribute("data-live-conflict-text", "");
      const reload = document.createElement("a");
      reload.href = location.pathname + location.search;
      reload.textContent = T("live_conflict_reload");
      conflict.append(message, " ", reload);
      const heading = document.querySelector("main h1");
      (heading || document.body.firstElementChild).after(conflict);
      setInterval(() => { conflict.firstChild.textContent = conflictText(); }, 5000);
    }
    conflict.firstChild.textContent = conflictText();
  }

  // ---- Presence: who else has this product open (names only).
  let presence = null;
  function showPresence(data) {
    if (data.product !== productID) return;
    if (!presence) {
      presence = document.createElement("p");
      presence.className = "live-presence";
      presence.setAttribute("data-presence", "");
      presence.setAttribute("aria-live", "polite");
      const heading = document.querySelector("main h1");
      (heading || document.body.firstElementChild).after(presence);
    }
    const people = Array.isArray(data.people) ? data.people.map(String) : [];
    presence.hidden = people.length === 0;
    presence.textContent = people.length ? T("live_presence", { names: people.join(", ") }) : "";
  }

  // ---- Too much was missed: a page with nothing typed reloads; others say so.
  function resetPage() {
    const typing = editing || (sheet && sheet.querySelector("[data-changed]"));
    if (!typing) { location.reload(); return; }
    if (document.querySelector("[data-live-reset]")) return;
    const notice = document.createElement("p");
    notice.className = "live-notice";
    notice.setAttribute("data-live-reset", "");
    notice.setAttribute("role", "status");
    notice.textContent = T("live_reset");
    const heading = document.querySelector("main h1");
    (heading || document.body.firstElementChild).after(notice);
  }

  connect();
})();
