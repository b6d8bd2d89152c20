// OpenMarket Admin — the sheet (/products/sheet): a spreadsheet's habits on a plain form.
// Without this file the form posts every input and the server saves what differs from "was".
// With it: Enter/Shift+Enter, Tab/Shift+Tab and the arrow keys move between cells (never while an
// IME composes), Escape puts the loaded value back, a block pasted from Excel or Google Sheets
// fills rightwards and downwards, each changed cell is checked at once with the form's rules
// (OpenMarketCore's ProductRules, amounts read like AmountText), and only changed cells are sent.
"use strict";

(function () {
  const form = document.querySelector("[data-sheet-form]");
  const table = form && form.querySelector("[data-sheet]");
  if (!table) return;

  const FIELDS = ["name", "price", "discounted_price", "stock"];
  const NAME_MIN = 3;
  const NAME_MAX = 100;
  const counter = form.querySelector("[data-sheet-changes]");
  const liveProblems = form.querySelector("[data-sheet-live-problems]");
  const saveButton = form.querySelector("[data-sheet-save]");

  // ---- Texts: the page's language, on the form's data-text-* attributes.
  function sheetText(name, values) {
    const key = "text" + name.replace(/(^|-)([a-z])/g, (_, __, c) => c.toUpperCase());
    const text = form.dataset[key] || "";
    return text.replace(/\{([a-z_]+)\}/g, (match, slot) =>
      values && Object.prototype.hasOwnProperty.call(values, slot) ? String(values[slot]) : match);
  }
  function counted(name, count) {
    return sheetText(count === 1 ? name + "-one" : name, { count: count.toLocaleString("en-US") });
  }

  // ---- The grid: one entry per table row, its inputs by column (none for a read-only row).
  const rows = [];
  const cellsByInput = new Map();
  for (const tr of table.tBodies[0].rows) {
    const row = { tr, id: tr.dataset.sheetRow, inputs: [], currency: "KRW", name: "" };
    for (let column = 0; column < FIELDS.length; column += 1) {
      const input = tr.querySelector(`input[data-sheet-cell="${row.id}:${FIELDS[column]}"]`);
      row.inputs.push(input);
      if (!input) continue;
      const was = tr.querySelector(`input[type=hidden][name="${row.id}.was.${FIELDS[column]}"]`);
      // `loaded` is the value the sheet was loaded with; `changed` and `saved` mirror the marks.
      cellsByInput.set(input, { row, column, field: FIELDS[column], was, loaded: was ? was.value : "", error: null,
        changed: input.hasAttribute("data-changed"), saved: input.hasAttribute("data-sheet-saved") });
    }
    const unit = tr.querySelector(".sheet__unit");
    if (unit && unit.textContent.trim() === "$") row.currency = "USD";
    const nameCell = tr.cells[0];
    row.name = row.inputs[0] ? row.inputs[0].value : (nameCell ? nameCell.textContent.trim() : "");
    if (row.inputs.some(Boolean)) rows.push(row);
  }
  if (rows.length === 0) return;
  rows.forEach((row, index) => { row.index = index; });

  // ---- Reading values as sellers type them (the same reading as OpenMarketCore's AmountText).
  const { parse: parseAmount, fractionBeyond, format: formatMoney } = window.OpenMarketAmounts;
  // Characters as a reader counts them (the core counts Swift Characters). Most names (Hangul
  // syllables, Latin) have one code unit per character; only combining marks, joiners, variation
  // selectors and surrogate pairs need the (slow to start) segmenter.
  const NEEDS_SEGMENTER = /[\u0300-\u036f\u1100-\u11ff\u200c\u200d\u20d0-\u20ff\ud800-\udfff\ufe00-\ufe0f\ufe20-\ufe2f]/;
  let segmenter = null;
  function characters(text) {
    if (!NEEDS_SEGMENTER.test(text)) return text.length;
    if (!segmenter && window.Intl && Intl.Segmenter) segmenter = new Intl.Segmenter();
    if (segmenter) { let n = 0; for (const _ of segmenter.segment(text)) n += 1; return n; }
    return Array.from(text).length;
  }

  // Whether two texts of a column mean one value (EditMerge.same): 12000 and 12,000 do; an
  // empty discount or stock is 0; names compare without surrounding spaces.
  function same(field, a, b) {
    if (field === "name") return a.trim() === b.trim();
    const empty = field === "price" ? null : 0;
    const x = a.trim() === "" ? empty : parseAmount(a);
    const y = b.trim() === "" ? empty : parseAmount(b);
    if (x === null || y === null) return a.trim() === b.trim();
    return x === y;
  }
  function loadedValue(cell) { return cell.loaded; }
  function isChanged(input) {
    const cell = cellsByInput.get(input);
    return !same(cell.field, input.value, cell.loaded);
  }

  // ---- Checks, by the form's rules. Only a changed cell is judged (a loaded value is the API's).
  function cellProblem(input) {
    const cell = cellsByInput.get(input);
    if (!cell.changed) return null;
    const row = cell.row;
    const text = input.value.trim();
    switch (cell.field) {
      case "name": {
        if (text === "") return sheetText("name-empty");
        // eslint-disable-next-line no-control-regex
        if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/.test(input.value)) return sheetText("name-control");
        const count = characters(text);
        if (count < NAME_MIN || count > NAME_MAX) return sheetText("name-length", { min: NAME_MIN, max: NAME_MAX, count });
        return null;
      }
      case "price": {
        const price = text === "" ? null : parseAmount(text);
        if (price === null || !(price > 0)) return sheetText("price", { example: row.currency === "USD" ? "12.50" : "12,000" });
        if (fractionBeyond(row.currency, price)) return sheetText(row.currency === "USD" ? "cents" : "whole-won");
        const discount = amountOf(row, 2);
        if (discount !== null && discount > price && !(row.inputs[2] && cellsByInput.get(row.inputs[2]).changed)) {
          return sheetText("price-under", { discount: formatMoney(discount, row.currency) });
        }
        return null;
      }
      case "discounted_price": {
        const discount = text === "" ? 0 : parseAmount(text);
        if (discount === null || discount < 0) return sheetText("discount");
        if (fractionBeyond(row.currency, discount)) return sheetText(row.currency === "USD" ? "cents" : "whole-won");
        const price = amountOf(row, 1);
        if (price !== null && price > 0 && discount > price) return sheetText("discount-over", { price: formatMoney(price, row.currency) });
        return null;
      }
      case "stock": {
        const stock = text === "" ? 0 : parseAmount(text);
        if (stock === null || stock < 0 || !Number.isInteger(stock)) return sheetText("stock");
        return null;
      }
    }
    return null;
  }
  function amountOf(row, column) {
    const input = row.inputs[column];
    if (!input) return null;
    const text = input.value.trim();
    if (text === "") return column === 2 ? 0 : null;
    return parseAmount(text);
  }

  // ---- Marks: data-changed, aria-invalid with the reason in the title, the counter, the summary.
  const invalid = new Set();
  // Marks change only when their state flips: a paste of 800 cells writes no attribute twice.
  function markChanged(input) {
    const cell = cellsByInput.get(input);
    const changed = isChanged(input);
    if (changed === cell.changed) return;
    cell.changed = changed;
    if (changed) input.setAttribute("data-changed", ""); else input.removeAttribute("data-changed");
    if (changed && cell.saved) {
      cell.saved = false;
      input.removeAttribute("data-sheet-saved");
    }
  }
  function refreshCell(input) {
    const cell = cellsByInput.get(input);
    const problem = cellProblem(input);
    if (problem === cell.error) return;
    cell.error = problem;
    // A message the server wrote is replaced by the live one (or goes once the cell is fixed).
    const note = input.parentNode.querySelector("[data-sheet-error]");
    if (note) note.remove();
    if (problem) {
      invalid.add(input);
      input.setAttribute("aria-invalid", "true");
      input.title = problem;
    } else {
      invalid.delete(input);
      input.removeAttribute("aria-invalid");
      input.removeAttribute("title");
    }
  }
  // A change to a price or discount can make its neighbour right or wrong.
  function refreshRow(row) {
    for (const input of row.inputs) if (input) markChanged(input);
    for (const input of row.inputs) if (input) refreshCell(input);
  }

  function refreshSummary() {
    let cells = 0;
    const products = new Set();
    for (const row of rows) {
      for (const input of row.inputs) {
        if (input && cellsByInput.get(input).changed) { cells += 1; products.add(row); }
      }
    }
    if (counter) {
      counter.textContent = cells === 0 ? sheetText("none")
        : sheetText("counter", { changes: counted("changes", cells), products: counted("products", products.size) });
    }
    if (!liveProblems) return;
    if (invalid.size === 0) {
      liveProblems.hidden = true;
      liveProblems.textContent = "";
      return;
    }
    const fragment = document.createDocumentFragment();
    const heading = document.createElement("p");
    const strong = document.createElement("strong");
    strong.textContent = counted("problems", invalid.size);
    heading.appendChild(strong);
    fragment.appendChild(heading);
    const list = document.createElement("ul");
    const ordered = Array.from(invalid).sort((a, b) => {
      const x = cellsByInput.get(a), y = cellsByInput.get(b);
      return x.row.index - y.row.index || x.column - y.column;
    });
    for (const input of ordered) {
      const cell = cellsByInput.get(input);
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "#" + input.id;
      link.textContent = sheetText("problem-item", { name: cell.row.name, field: input.getAttribute("aria-label") || cell.field, message: cell.error });
      item.appendChild(link);
      list.appendChild(item);
    }
    fragment.appendChild(list);
    liveProblems.replaceChildren(fragment);
    liveProblems.hidden = false;
  }

  // ---- Moving: the next editable cell in a direction, or null at the table's edge.
  function cellAt(rowIndex, column) {
    const row = rows[rowIndex];
    return row ? row.inputs[column] : null;
  }
  function vertical(cell, step) {
    for (let index = cell.row.index + step; index >= 0 && index < rows.length; index += step) {
      const input = cellAt(index, cell.column);
      if (input) return input;
    }
    return null;
  }
  function horizontal(cell, step) {
    let rowIndex = cell.row.index;
    let column = cell.column + step;
    while (rowIndex >= 0 && rowIndex < rows.length) {
      while (column >= 0 && column < FIELDS.length) {
        const input = cellAt(rowIndex, column);
        if (input) return input;
        column += step;
      }
      rowIndex += step;
      column = step > 0 ? 0 : FIELDS.length - 1;
    }
    return null;
  }
  function go(input) {
    if (!input) return false;
    input.focus();
    input.select();
    return true;
  }

  let composing = false;
  table.addEventListener("compositionstart", () => { composing = true; });
  table.addEventListener("compositionend", () => { composing = false; });

  table.addEventListener("keydown", (event) => {
    const input = event.target;
    const cell = cellsByInput.get(input);
    if (!cell) return;
    // While a Korean (or any) IME composes, its keys belong to the IME: Enter commits the
    // syllable, it does not move.
    if (event.isComposing || composing || event.keyCode === 229) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    switch (event.key) {
      case "Enter":
        // Never submits the form from a cell; at the table's edge it stays.
        event.preventDefault();
        go(vertical(cell, event.shiftKey ? -1 : 1));
        break;
      case "ArrowDown":
      case "ArrowUp":
        event.preventDefault();
        go(vertical(cell, event.key === "ArrowDown" ? 1 : -1));
        break;
      case "Tab": {
        // Past the last cell, Tab leaves the table as usual (to the save button).
        const target = horizontal(cell, event.shiftKey ? -1 : 1);
        if (target) { event.preventDefault(); go(target); }
        break;
      }
      case "Escape":
        event.preventDefault();
        input.value = loadedValue(cell);
        refreshRow(cell.row);
        refreshSummary();
        input.select();
        break;
    }
  });

  table.addEventListener("input", (event) => {
    const cell = cellsByInput.get(event.target);
    if (!cell) return;
    if (cell.field === "name") cell.row.name = event.target.value;
    refreshRow(cell.row);
    refreshSummary();
  });

  // ---- Paste of a block (rows by newline, cells by tab), from the focused cell rightwards and
  // downwards. Rows without inputs (other vendors' products) are skipped, the block's columns
  // beyond the table's last are dropped, and so are rows past its end.
  function pastedBlock(text) {
    let normalized = text.replace(/\r\n?/g, "\n");
    if (normalized.endsWith("\n")) normalized = normalized.slice(0, -1);
    return normalized.split("\n").map((line) => line.split("\t"));
  }
  table.addEventListener("paste", (event) => {
    const cell = cellsByInput.get(event.target);
    if (!cell || !event.clipboardData) return;
    const text = event.clipboardData.getData("text/plain");
    if (!/[\t\n\r]/.test(text)) return; // one value: the browser pastes it into the cell
    event.preventDefault();
    fillBlock(cell, pastedBlock(text));
  });

  function fillBlock(start, block) {
    const touched = new Set();
    let rowIndex = start.row.index;
    for (const values of block) {
      if (rowIndex >= rows.length) break;
      const row = rows[rowIndex];
      for (let offset = 0; offset < values.length; offset += 1) {
        const column = start.column + offset;
        if (column >= FIELDS.length) break;
        const input = row.inputs[column];
        if (!input) continue;
        input.value = values[offset].trim();
        if (column === 0) row.name = input.value;
        touched.add(row);
      }
      rowIndex += 1;
    }
    for (const row of touched) refreshRow(row);
    refreshSummary();
  }

  // ---- Saving: nothing while a cell is invalid; otherwise only changed cells (and their loaded
  // values) are sent.
  form.addEventListener("submit", (event) => {
    for (const row of rows) refreshRow(row);
    refreshSummary();
    if (invalid.size > 0) {
      event.preventDefault();
      const first = liveProblems && liveProblems.querySelector("a");
      const target = first ? document.getElementById(first.getAttribute("href").slice(1)) : null;
      if (target) target.focus();
      return;
    }
    for (const [input, cell] of cellsByInput) {
      const keep = cell.changed;
      input.disabled = !keep;
      if (cell.was) cell.was.disabled = !keep;
    }
    if (saveButton) {
      saveButton.setAttribute("aria-busy", "true");
      saveButton.textContent = sheetText("saving");
    }
    form.setAttribute("aria-busy", "true");
  });
  // Back from the answer (bfcache): the inputs must be enabled again.
  window.addEventListener("pageshow", () => {
    for (const [input, cell] of cellsByInput) {
      input.disabled = false;
      if (cell.was) cell.was.disabled = false;
    }
  });

  // Marks for what the server sent back (typed values kept after a refusal).
  for (const row of rows) {
    for (const input of row.inputs) {
      if (!input) continue;
      const cell = cellsByInput.get(input);
      const serverError = input.parentNode.querySelector("[data-sheet-error]");
      if (serverError) {
        cell.error = serverError.textContent;
        invalid.add(input);
      }
      markChanged(input);
    }
  }
  refreshSummary();
  if (liveProblems && invalid.size > 0) liveProblems.hidden = true; // the server's summary is already shown

  // The sheet's own hook for measurements and other scripts (live updates): fill a block as a paste would.
  window.openMarketSheet = { fillBlock: (input, text) => fillBlock(cellsByInput.get(input), pastedBlock(text)) };
})();
