// OpenMarket Admin — progressive enhancement only. Every page works without this file;
// it adds the delete dialog, gallery arrows and swipe, and a richer image picker that
// shrinks photos in the browser and uploads them with a progress bar.
"use strict";

(function () {
  const MAX_BYTES_DEFAULT = 307200;

  // ---- Texts: every string comes from the page's language catalog (the `js_` keys of
  // Templates/strings/<lang>.json, handed over in <body data-strings>). `{name}` placeholders.
  let strings = {};
  function readStrings() {
    try { strings = JSON.parse(document.body.dataset.strings || "{}"); } catch (error) { strings = {}; }
  }
  function T(key, values) {
    const text = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
    // One pass, like the panel's Localizer: a value is never filled again, and a particle token
    // ({을/를}…) is chosen by everything written before it, the value just filled in included.
    let out = "";
    let last = 0;
    for (const match of text.matchAll(/\{([^{}]+)\}/g)) {
      out += text.slice(last, match.index);
      const name = match[1];
      if (/^[a-z_]+$/.test(name) && values && Object.prototype.hasOwnProperty.call(values, name)) out += String(values[name]);
      else if (PARTICLES[name]) out += particleAfter(out, PARTICLES[name]);
      else out += match[0];
      last = match.index + match[0].length;
    }
    return out + text.slice(last);
  }

  // live.js writes its notices with the same texts and particles.
  window.OpenMarketText = T;
  // sheet.js reads and shows amounts exactly as the product form does.
  window.OpenMarketAmounts = { parse: parseAmount, fractionBeyond: fractionBeyond, format: formatMoney };

  // ---- Korean particles, by the same rules as Sources/AdminPanel/Languages/KoreanParticles.swift:
  // [after a consonant, after a vowel, does ㄹ take the vowel form].
  const PARTICLES = {};
  for (const [c, v, rieul] of [["을", "를", false], ["이", "가", false], ["은", "는", false], ["과", "와", false], ["으로", "로", true]]) {
    PARTICLES[`${c}/${v}`] = PARTICLES[`${v}/${c}`] = { c, v, rieul };
  }
  function particleAfter(text, pair) {
    const ending = koreanEnding(text);
    return ending === "vowel" || (ending === "rieul" && pair.rieul) ? pair.v : pair.c;
  }
  function koreanEnding(text) {
    const chars = Array.from(text.replace(/[‘’“”"'「」『』()[\]<>《》〈〉\s.…*]+$/u, ""));
    if (chars.length === 0) return "consonant";
    const last = chars[chars.length - 1];
    const code = last.codePointAt(0);
    if (code >= 0xAC00 && code <= 0xD7A3) {
      const final = (code - 0xAC00) % 28;
      return final === 0 ? "vowel" : final === 8 ? "rieul" : "consonant";
    }
    if (/[0-9]/.test(last)) {
      let start = chars.length;
      while (start > 0 && /[0-9,.]/.test(chars[start - 1])) start -= 1;
      const sign = start > 0 ? chars[start - 1] : "";
      if (sign === "₩" || sign === "￦") return "consonant";
      if (sign === "$") return "vowel";
      if ("178".includes(last)) return "rieul";
      return "036".includes(last) ? "consonant" : "vowel";
    }
    if (last === "%") return "vowel";
    if (/[A-Za-z]/.test(last)) {
      let start = chars.length;
      while (start > 0 && /[A-Za-z]/.test(chars[start - 1])) start -= 1;
      const word = chars.slice(start).join("");
      const l = last.toLowerCase();
      if (word.length === 1 || word === word.toUpperCase()) return "lr".includes(l) ? "rieul" : "mn".includes(l) ? "consonant" : "vowel";
      if (/(ne|me)$/i.test(word)) return "consonant";
      if (l === "l" || /le$/i.test(word)) return "rieul";
      if ("mnkpbcg".includes(l)) return "consonant";
      if (l === "t") return /(et|ut|at)$/i.test(word) ? "consonant" : "vowel";
      return "vowel";
    }
    return "consonant";
  }

  function init(root) {
    readStrings();
    root.querySelectorAll("[data-delete-open]").forEach(setUpDeleteDialog);
    root.querySelectorAll("[data-gallery]").forEach(setUpGallery);
    root.querySelectorAll("form[data-upload-form]").forEach(setUpUploadForm);
    root.querySelectorAll("form[data-product-form]:not([data-upload-form])").forEach((form) => {
      form.addEventListener("submit", (event) => {
        const errors = checkFields(form);
        if (errors.length > 0) { event.preventDefault(); showErrors(form, errors); }
      });
    });
    root.querySelectorAll("form[data-product-form]").forEach(setUpUnsavedPrompt);
    root.querySelectorAll("form[data-product-form]").forEach(setUpLiveErrors);
    // The script's checks (same rules, the page's language, errors by their fields) replace the
    // browser's own bubbles; without the script those still apply.
    root.querySelectorAll("form[data-product-form]").forEach((form) => { form.noValidate = true; });
    root.querySelectorAll("[data-staged-images]").forEach(setUpStagedImages);
    root.querySelectorAll("button[data-copy]").forEach(setUpCopyButton);
    // A form that undoes many things at once (a run's "cancel all") asks first, naming how many.
    root.querySelectorAll("form[data-confirm]").forEach((form) => {
      form.addEventListener("submit", (event) => {
        if (!window.confirm(form.dataset.confirm)) event.preventDefault();
      });
    });
    const shortcutsButton = root.querySelector("[data-shortcuts-open]");
    if (shortcutsButton) {
      shortcutsButton.hidden = false;
      shortcutsButton.addEventListener("click", openShortcutsHelp);
    }
    if (location.hash === "#search-q") {
      const search = root.querySelector("#search-q");
      if (search) search.focus();
    }
    // A form that came back with errors or a conflict takes focus to what needs reading first.
    const summary = root.querySelector("[data-error-summary]") || root.querySelector("[data-conflict]");
    if (summary) summary.focus();
  }

  // ---- Delete dialog: focus moves into the dialog and back to the button that opened it.
  function setUpDeleteDialog(opener) {
    const dialog = document.querySelector("dialog[data-delete-dialog]");
    if (!dialog || typeof dialog.showModal !== "function") return; // the link goes to the delete page
    opener.addEventListener("click", (event) => {
      event.preventDefault();
      dialog.showModal();
      const password = dialog.querySelector("input[name=password]");
      if (password) { password.value = ""; password.focus(); }
    });
    dialog.querySelectorAll("[data-dialog-close]").forEach((button) => {
      button.addEventListener("click", () => dialog.close());
    });
    dialog.addEventListener("close", () => {
      const password = dialog.querySelector("input[name=password]");
      if (password) password.value = "";
      opener.focus();
    });
  }

  // ---- Gallery: previous/next buttons, arrow keys, swipe (the track already scrolls natively).
  function setUpGallery(gallery) {
    const track = gallery.querySelector("[data-gallery-track]");
    if (!track) return;
    const slides = Array.from(track.children);
    if (slides.length < 2) return;
    const thumbs = Array.from(gallery.querySelectorAll("[data-gallery-thumb]"));
    let current = 0;

    const prev = makeButton("‹", T("gallery_previous"), "gallery__nav gallery__nav--prev");
    const next = makeButton("›", T("gallery_next"), "gallery__nav gallery__nav--next");
    gallery.append(prev, next);

    // A script's smooth scroll overrides the stylesheet's reduced-motion rule, so ask here too.
    const reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
    function show(index, smooth) {
      current = Math.max(0, Math.min(slides.length - 1, index));
      const behavior = smooth && !(reducedMotion && reducedMotion.matches) ? "smooth" : "auto";
      track.scrollTo({ left: slides[current].offsetLeft - track.offsetLeft, behavior });
      update();
    }
    function update() {
      prev.disabled = current === 0;
      next.disabled = current === slides.length - 1;
      thumbs.forEach((thumb, i) => thumb.setAttribute("aria-current", i === current ? "true" : "false"));
    }
    prev.addEventListener("click", () => show(current - 1, true));
    next.addEventListener("click", () => show(current + 1, true));
    thumbs.forEach((thumb, i) => thumb.addEventListener("click", (event) => { event.preventDefault(); show(i, true); }));
    gallery.tabIndex = 0;
    gallery.addEventListener("keydown", (event) => {
      if (event.key === "ArrowLeft") { event.preventDefault(); show(current - 1, true); }
      if (event.key === "ArrowRight") { event.preventDefault(); show(current + 1, true); }
    });
    // Keep the index right when the seller scrolls or swipes the track directly.
    let scrollTimer = 0;
    track.addEventListener("scroll", () => {
      clearTimeout(scrollTimer);
      scrollTimer = setTimeout(() => {
        const width = track.clientWidth || 1;
        current = Math.round(track.scrollLeft / width);
        update();
      }, 80);
    }, { passive: true });
    // Swipe with a mouse or pen too (touch already scrolls).
    let startX = null;
    track.addEventListener("pointerdown", (event) => { if (event.pointerType !== "touch") startX = event.clientX; });
    track.addEventListener("pointerup", (event) => {
      if (startX === null) return;
      const delta = event.clientX - startX;
      startX = null;
      if (Math.abs(delta) > 40) show(current + (delta < 0 ? 1 : -1), true);
    });
    update();
  }

  function makeButton(text, label, className) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = className;
    button.textContent = text;
    button.setAttribute("aria-label", label);
    return button;
  }

  // ---- Image picker + upload.
  function setUpUploadForm(form) {
    const picker = form.querySelector("[data-image-picker]");
    const input = picker && picker.querySelector("input[type=file][name=images]");
    const list = picker && picker.querySelector("[data-image-list]");
    if (!picker || !input || !list || !window.FormData || !window.XMLHttpRequest) return;

    const maxImages = Number(picker.dataset.maxImages) || 5;
    const maxBytes = Number(picker.dataset.maxBytes) || MAX_BYTES_DEFAULT;
    // v1 edits: choosing no image keeps the product's current ones.
    const imagesOptional = picker.hasAttribute("data-images-optional");
    const dropzone = picker.querySelector("[data-dropzone]");
    const hint = picker.querySelector("[data-dropzone-hint]");
    if (hint) hint.hidden = false;
    const picked = []; // {file, url, status}

    function stagedCount() {
      return Array.from(form.querySelectorAll("[data-staged-image]"))
        .filter((item) => { const box = item.querySelector("input[type=checkbox]"); return !box || !box.checked; })
        .length;
    }

    async function addFiles(files) {
      input.value = "";
      for (const file of files) {
        if (picked.length + stagedCount() >= maxImages) {
          announce(T("picker_too_many", { max: maxImages, file: file.name }));
          break;
        }
        if (!/^image\/(jpeg|png|gif|webp)$/.test(file.type)) {
          announce(T("picker_type", { file: file.name }));
          continue;
        }
        // A pixel bomb is refused by its header before anything decodes it.
        const tooLarge = pixelProblem(file, await readDimensions(file), picker);
        if (tooLarge) { announce(tooLarge); continue; }
        picked.push({ file, url: URL.createObjectURL(file), status: "" });
      }
      input.required = !imagesOptional && picked.length + stagedCount() === 0;
      form.dataset.pickedCount = String(picked.length);
      render();
    }

    function render() {
      list.replaceChildren();
      list.hidden = picked.length === 0;
      picked.forEach((entry, index) => {
        const item = document.createElement("li");
        item.className = "image-item" + (index === 0 && stagedCount() === 0 ? " image-item--first" : "");
        item.draggable = true;
        item.dataset.index = String(index);
        const img = document.createElement("img");
        img.src = entry.url; img.alt = entry.file.name; img.width = 96; img.height = 96;
        const name = document.createElement("span");
        name.className = "image-item__name"; name.textContent = entry.file.name;
        const size = document.createElement("span");
        size.className = "image-item__size";
        size.textContent = formatBytes(entry.file.size) + (entry.file.size > maxBytes ? " — " + T("picker_will_shrink") : "");
        const tools = document.createElement("span");
        tools.className = "image-item__tools";
        const earlier = toolButton("←", T("picker_earlier", { file: entry.file.name }), () => move(index, index - 1));
        earlier.disabled = index === 0;
        const later = toolButton("→", T("picker_later", { file: entry.file.name }), () => move(index, index + 1));
        later.disabled = index === picked.length - 1;
        const remove = toolButton(T("picker_remove"), T("picker_remove_file", { file: entry.file.name }), () => {
          URL.revokeObjectURL(entry.url);
          picked.splice(index, 1);
          form.dataset.pickedCount = String(picked.length);
          input.required = !imagesOptional && picked.length + stagedCount() === 0;
          render();
          input.focus();
        });
        tools.append(earlier, later, remove);
        item.append(img);
        if (index === 0 && stagedCount() === 0) {
          const badge = document.createElement("span");
          badge.className = "image-item__badge";
          badge.textContent = T("thumbnail_badge");
          item.append(badge);
        }
        item.append(name, size, tools);
        item.addEventListener("dragstart", (event) => {
          event.dataTransfer.setData("text/x-image-index", String(index));
          event.dataTransfer.effectAllowed = "move";
          item.classList.add("image-item--dragging");
        });
        item.addEventListener("dragend", () => item.classList.remove("image-item--dragging"));
        item.addEventListener("dragover", (event) => {
          if (event.dataTransfer.types.includes("text/x-image-index")) event.preventDefault();
        });
        item.addEventListener("drop", (event) => {
          const from = event.dataTransfer.getData("text/x-image-index");
          if (from === "") return;
          event.preventDefault();
          event.stopPropagation();
          move(Number(from), index);
        });
        list.append(item);
      });
    }

    // Re-rendering replaces the buttons, so keyboard focus follows the moved image: to the same
    // arrow when it can still be pressed, else to the image's first enabled tool.
    function move(from, to) {
      if (to < 0 || to >= picked.length || from === to) return;
      const [entry] = picked.splice(from, 1);
      picked.splice(to, 0, entry);
      render();
      const tools = Array.from(list.children[to].querySelectorAll(".image-item__tools button"));
      const same = tools[to < from ? 0 : 1];
      const target = same && !same.disabled ? same : tools.find((button) => !button.disabled);
      if (target) target.focus();
    }

    input.addEventListener("change", () => addFiles(Array.from(input.files || [])));
    form.querySelectorAll("[data-staged-image] input[type=checkbox]").forEach((box) =>
      box.addEventListener("change", () => { input.required = !imagesOptional && picked.length + stagedCount() === 0; render(); }));
    if (dropzone) {
      ["dragenter", "dragover"].forEach((type) => dropzone.addEventListener(type, (event) => {
        if (!event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        dropzone.classList.add("dropzone--active");
      }));
      ["dragleave", "drop"].forEach((type) => dropzone.addEventListener(type, () => dropzone.classList.remove("dropzone--active")));
      dropzone.addEventListener("drop", (event) => {
        if (!event.dataTransfer.files || event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        addFiles(Array.from(event.dataTransfer.files));
      });
    }

    // Every rule the browser can check is checked first — fields, count, types, pixels — and
    // nothing is shrunk or sent while one fails. While images are prepared the button is
    // disabled and busy, with a visible status.
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (form.dataset.busy === "true") return;
      const submit = form.querySelector("button[type=submit]:not([name])");
      // "Save as draft" keeps a half-finished form: no field rule applies to it.
      const draft = event.submitter && event.submitter.name === "draft";
      setBusy(form, submit, true, T("preparing"));
      try {
        const errors = draft ? [] : checkFields(form).concat(await checkImages(form, picker, picked, stagedCount()));
        if (errors.length > 0) {
          setBusy(form, submit, false);
          showErrors(form, errors);
          return;
        }
        clearErrors(form);
        const data = new FormData(form);
        if (draft) data.append("draft", "1");
        data.delete("images");
        for (const entry of picked) {
          const blob = await shrinkToFit(entry.file, maxBytes);
          data.append("images", blob, blob.name || entry.file.name);
        }
        setStatus(form, T("uploading"));
        upload(form, data);
      } catch (error) {
        announce(T("picker_prepare_failed", { reason: error.message }));
        setBusy(form, submit, false);
      }
    });

    // Like every field error, the message is tied to its input by aria-describedby.
    function announce(message) {
      let box = picker.querySelector("[data-picker-message]");
      if (!box) {
        box = document.createElement("p");
        box.className = "field-error";
        box.id = "images-picker-error";
        box.setAttribute("role", "alert");
        box.dataset.pickerMessage = "";
        picker.append(box);
        const described = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
        input.setAttribute("aria-describedby", described.concat(box.id).join(" "));
      }
      box.textContent = message;
    }
  }

  function toolButton(text, label, action) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.setAttribute("aria-label", label);
    button.addEventListener("click", action);
    return button;
  }

  // Uploads with XMLHttpRequest (fetch has no upload progress), then shows the answer:
  // a redirect is followed by the browser and its page shown (flash included); a 4xx/5xx page
  // (422 with the kept values, 413, 502…) replaces the current one.
  function upload(form, data) {
    const status = form.querySelector("[data-upload-status]");
    const progress = form.querySelector("[data-upload-progress]");
    if (status) status.hidden = false;
    const xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.responseType = "text";
    xhr.upload.addEventListener("progress", (event) => {
      if (!progress || !event.lengthComputable) return;
      progress.value = Math.round((event.loaded / event.total) * 100);
      progress.textContent = progress.value + "%";
    });
    // The form stays as it is (values and chosen images kept), with one alert above it.
    function fail(message) {
      setBusy(form, form.querySelector("button[type=submit]:not([name])"), false);
      let note = form.querySelector("[data-upload-failure]");
      if (!note) {
        note = document.createElement("p");
        note.className = "alert";
        note.setAttribute("role", "alert");
        note.dataset.uploadFailure = "";
        form.prepend(note);
      }
      note.textContent = message;
    }
    xhr.addEventListener("load", () => {
      const contentType = xhr.getResponseHeader("Content-Type") || "";
      if (contentType.startsWith("text/html")) {
        showDocument(xhr.responseText, xhr.responseURL || form.action, xhr.responseURL && xhr.responseURL !== form.action);
      } else {
        fail(T("upload_failed", { status: xhr.status }));
      }
    });
    xhr.addEventListener("error", () => fail(T("upload_unreachable")));
    xhr.addEventListener("abort", () => fail(T("upload_aborted")));
    xhr.send(data);
  }

  function setStatus(form, text) {
    const status = form.querySelector("[data-upload-status]");
    const label = form.querySelector("[data-upload-label]");
    if (label && text) label.textContent = text;
    if (status) status.hidden = false;
  }

  function setBusy(form, submit, busy, text) {
    form.dataset.busy = busy ? "true" : "false";
    if (busy) form.setAttribute("aria-busy", "true"); else form.removeAttribute("aria-busy");
    if (submit) {
      submit.disabled = busy;
      if (busy) submit.setAttribute("aria-busy", "true"); else submit.removeAttribute("aria-busy");
    }
    const status = form.querySelector("[data-upload-status]");
    if (busy) setStatus(form, text);
    else if (status) status.hidden = true;
  }

  // ---- Client-side checks: the same rules as the server (OpenMarketCore's ProductRules),
  // with the same texts from the catalog, shown by their fields before anything is uploaded.
  function characters(text) {
    if (window.Intl && Intl.Segmenter) return Array.from(new Intl.Segmenter().segment(text)).length;
    return Array.from(text).length;
  }

  function readNumber(input) {
    if (!input) return { empty: true };
    if (input.validity && input.validity.badInput) return { bad: true };
    if (input.value.trim() === "") return { empty: true };
    const value = parseAmount(input.value);
    return value === null ? { bad: true } : { value };
  }

  // Amounts as sellers type them, read like OpenMarketCore's AmountText: 12000, 12,000, ₩12,000,
  // 12,000원, $12.50, +1,000. Grouping is checked (12,00 is refused, not read as 1200).
  function parseAmount(text) {
    const match = /^([+\-−]?)[₩￦$]?\s*((?:\d{1,3}(?:,\d{3})+)|\d{1,30})(?:\.(\d+))?\s*원?$/.exec(text.trim());
    if (!match) return null;
    const value = Number(match[2].replace(/,/g, "") + (match[3] ? "." + match[3] : ""));
    if (!Number.isFinite(value)) return null;
    return match[1] === "-" || match[1] === "−" ? -value : value;
  }

  // A fraction the currency cannot hold: won are whole, dollars have cents.
  function fractionBeyond(currency, amount) {
    return currency === "USD" ? Math.abs(amount * 100 - Math.round(amount * 100)) > 1e-6 : amount !== Math.round(amount);
  }

  function amountExample(currency) { return currency === "USD" ? "12.50" : "12,000"; }

  // The label a seller reads for a field, for messages that name it ("상품명을 입력해 주세요").
  function fieldLabel(form, name) {
    const label = form.querySelector(`label[for="${name}"]`);
    return label ? label.textContent.replace(/\s+/g, " ").trim() : name;
  }

  function formatMoney(amount, currency) {
    const digits = currency === "USD" ? 2 : 0;
    const text = new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
    return (currency === "USD" ? "$" : "₩") + text;
  }

  function checkFields(form) {
    const errors = [];
    const field = (name) => form.querySelector(`[name="${name}"]:not([type=hidden])`);
    for (const name of ["name", "description"]) {
      const input = field(name);
      if (!input) continue;
      const text = name === "name" ? input.value.trim() : input.value;
      const min = Number(input.getAttribute("minlength")) || 0;
      const max = Number(input.getAttribute("maxlength")) || Infinity;
      const count = characters(text);
      if (text.trim() === "") errors.push({ field: name, message: T("check_required", { field: fieldLabel(form, name) }) });
      else if (count < min || count > max) errors.push({ field: name, message: T(`check_${name}_length`, { min, max, count }) });
    }
    const currencyInput = field("currency");
    const currency = currencyInput ? currencyInput.value : "KRW";
    const price = readNumber(field("price"));
    const priceRead = field("price") && !price.bad && !price.empty && price.value > 0;
    const priceOK = priceRead && !fractionBeyond(currency, price.value);
    if (field("price") && !priceRead) errors.push({ field: "price", message: T("check_price", { example: amountExample(currency) }) });
    else if (priceRead && !priceOK) errors.push({ field: "price", message: T(currency === "USD" ? "language_price_cents" : "language_price_whole_won") });
    const discount = readNumber(field("discounted_price"));
    if (discount.bad || (!discount.empty && discount.value < 0)) {
      errors.push({ field: "discounted_price", message: T("check_discount") });
    } else if (!discount.empty && fractionBeyond(currency, discount.value)) {
      errors.push({ field: "discounted_price", message: T(currency === "USD" ? "language_discount_cents" : "language_discount_whole_won") });
    } else if (priceOK && !discount.empty && discount.value > price.value) {
      errors.push({ field: "discounted_price", message: T("check_discount_over_price", { price: formatMoney(price.value, currency) }) });
    }
    const stock = readNumber(field("stock"));
    if (stock.bad || (!stock.empty && (stock.value < 0 || !Number.isInteger(stock.value)))) {
      errors.push({ field: "stock", message: T("check_stock") });
    }
    return errors;
  }

  async function checkImages(form, picker, picked, staged) {
    const errors = [];
    const max = Number(picker.dataset.maxImages) || 5;
    const count = picked.length + staged;
    if (count < 1 && !picker.hasAttribute("data-images-optional")) errors.push({ field: "images", message: T("check_images_none") });
    else if (count > max) errors.push({ field: "images", message: T("check_images_too_many", { max, count }) });
    for (const entry of picked) {
      if (!/^image\/(jpeg|png|gif|webp)$/.test(entry.file.type)) {
        errors.push({ field: "images", message: T("picker_type", { file: entry.file.name }) });
        continue;
      }
      const problem = pixelProblem(entry.file, await readDimensions(entry.file), picker);
      if (problem) errors.push({ field: "images", message: problem });
    }
    return errors;
  }

  function pixelProblem(file, size, picker) {
    if (!size) return null; // an unreadable header is left to the server, like the core does
    const side = Number(picker.dataset.maxSide) || 10000;
    const pixels = Number(picker.dataset.maxPixels) || 40000000;
    if (size.width <= side && size.height <= side && size.width * size.height <= pixels && size.width > 0 && size.height > 0) return null;
    const group = (n) => new Intl.NumberFormat("en-US").format(n);
    return T("check_pixels", { file: file.name, width: group(size.width), height: group(size.height),
      side: group(side), megapixels: Math.floor(pixels / 1e6) });
  }

  // The declared size from the header (PNG IHDR, GIF screen, JPEG SOFn, WebP VP8/VP8L/VP8X),
  // the same reading as OpenMarketCore's ImageDimensions; never decodes a pixel.
  async function readDimensions(file) {
    try {
      let bytes = new Uint8Array(await file.slice(0, 512 * 1024).arrayBuffer());
      let size = dimensionsOf(bytes);
      if (!size && bytes[0] === 0xFF && file.size > bytes.length && file.size <= 64 * 1024 * 1024) {
        bytes = new Uint8Array(await file.arrayBuffer());
        size = dimensionsOf(bytes);
      }
      return size;
    } catch (error) {
      return null;
    }
  }

  function dimensionsOf(b) {
    const at = (i) => (i >= 0 && i < b.length ? b[i] : -1);
    const be16 = (i) => (i + 1 < b.length ? (b[i] << 8) | b[i + 1] : -1);
    const le16 = (i) => (i + 1 < b.length ? b[i] | (b[i + 1] << 8) : -1);
    const be32 = (i) => (i + 3 < b.length ? ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3] : -1);
    const le24 = (i) => (i + 2 < b.length ? b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) : -1);
    const ascii = (i, text) => Array.from(text).every((c, k) => at(i + k) === c.charCodeAt(0));
    const size = (width, height) => (width < 0 || height < 0 ? null : { width, height });
    if (at(0) === 0x89 && ascii(1, "PNG")) return ascii(12, "IHDR") ? size(be32(16), be32(20)) : null;
    if (ascii(0, "GIF8")) return size(le16(6), le16(8));
    if (ascii(0, "RIFF") && ascii(8, "WEBP")) {
      if (ascii(12, "VP8X")) { const w = le24(24), h = le24(27); return w < 0 || h < 0 ? null : size(w + 1, h + 1); }
      if (ascii(12, "VP8L")) {
        if (at(20) !== 0x2F || b.length < 25) return null;
        return size(1 + (b[21] | ((b[22] & 0x3F) << 8)), 1 + ((b[22] >> 6) | (b[23] << 2) | ((b[24] & 0x0F) << 10)));
      }
      if (ascii(12, "VP8 ")) {
        if (at(23) !== 0x9D || at(24) !== 0x01 || at(25) !== 0x2A) return null;
        const w = le16(26), h = le16(28);
        return w < 0 || h < 0 ? null : size(w & 0x3FFF, h & 0x3FFF);
      }
      return null;
    }
    if (at(0) === 0xFF && at(1) === 0xD8) {
      let offset = 2;
      while (offset < b.length) {
        if (at(offset) !== 0xFF) return null;
        while (at(offset + 1) === 0xFF) offset += 1;
        const marker = at(offset + 1);
        if (marker < 0) return null;
        if (marker === 0xD8 || marker === 0x01 || (marker >= 0xD0 && marker <= 0xD7)) { offset += 2; continue; }
        if (marker === 0xD9 || marker === 0xDA) return null;
        const length = be16(offset + 2);
        if (length < 2) return null;
        if (marker >= 0xC0 && marker <= 0xCF && marker !== 0xC4 && marker !== 0xC8 && marker !== 0xCC) {
          return size(be16(offset + 7), be16(offset + 5));
        }
        offset += 2 + length;
      }
    }
    return null;
  }

  // Errors by their fields (like the server's: a .field-error tied by aria-describedby) and a
  // summary whose links select the field's content.
  function clearErrors(form) {
    form.querySelectorAll("[data-client-error]").forEach((node) => node.remove());
    document.querySelectorAll("[data-error-summary]").forEach((node) => node.remove());
    form.querySelectorAll(".field-error:not([data-picker-message])").forEach((node) => node.remove());
    form.querySelectorAll(".field--invalid").forEach((node) => node.classList.remove("field--invalid"));
    form.querySelectorAll("[aria-invalid]").forEach((node) => node.removeAttribute("aria-invalid"));
  }

  function showErrors(form, errors) {
    clearErrors(form);
    const byField = new Map();
    for (const error of errors) byField.set(error.field, (byField.get(error.field) || []).concat(error.message));
    for (const [name, messages] of byField) {
      const input = form.querySelector(`#${name}`);
      if (!input) continue;
      const box = input.closest(".field");
      if (box) box.classList.add("field--invalid");
      const note = document.createElement("p");
      note.className = "field-error";
      note.id = `${name}-error`;
      note.dataset.clientError = "";
      note.textContent = messages.join(" ");
      (box || input.parentElement).append(note);
      input.setAttribute("aria-invalid", "true");
      const described = (input.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== note.id);
      input.setAttribute("aria-describedby", described.concat(note.id).join(" "));
    }
    const summary = document.createElement("div");
    summary.className = "error-summary";
    summary.setAttribute("role", "alert");
    summary.tabIndex = -1;
    summary.dataset.errorSummary = "";
    summary.dataset.clientError = "";
    const heading = document.createElement("h2");
    heading.textContent = errors.length === 1 ? T("check_summary_one") : T("check_summary", { count: errors.length });
    const list = document.createElement("ul");
    for (const error of errors) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `#${error.field}`;
      link.textContent = error.message;
      item.append(link);
      list.append(item);
    }
    summary.append(heading, list);
    form.before(summary);
    summary.focus();
  }

  // An error goes away as soon as its field is fixed: each change re-runs the field checks and
  // drops the message (by the field and in the summary) of every checked field that now passes.
  // Fields the script cannot judge (images, the store's own refusals) keep theirs until sent.
  const CHECKED_FIELDS = ["name", "description", "price", "discounted_price", "stock"];
  function setUpLiveErrors(form) {
    const currency = form.querySelector("[name=currency]");
    const update = (event) => {
      if (currency && event && event.target === currency) {
        const price = form.querySelector("#price");
        if (price && price.hasAttribute("placeholder")) price.placeholder = amountExample(currency.value);
      }
      // Only the field just changed (and the amounts judged against each other): an error the
      // server found on a field the seller has not touched stays.
      const changed = event && event.target ? event.target.name : "";
      const related = ["price", "discounted_price", "currency"].includes(changed) ? ["price", "discounted_price"] : [changed];
      const failing = new Set(checkFields(form).map((error) => error.field));
      for (const name of CHECKED_FIELDS) {
        if (!related.includes(name) || failing.has(name)) continue;
        const input = form.querySelector(`#${name}`);
        if (!input || input.getAttribute("aria-invalid") !== "true") continue;
        dropError(form, name, input);
      }
    };
    form.addEventListener("input", update);
    form.addEventListener("change", update);
  }

  function dropError(form, name, input) {
    const note = document.getElementById(`${name}-error`);
    if (note) note.remove();
    input.removeAttribute("aria-invalid");
    const described = (input.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && id !== `${name}-error`);
    if (described.length) input.setAttribute("aria-describedby", described.join(" "));
    else input.removeAttribute("aria-describedby");
    const box = input.closest(".field");
    if (box) box.classList.remove("field--invalid");
    document.querySelectorAll(`[data-error-summary] a[href="#${name}"]`).forEach((link) => {
      const item = link.closest("li");
      if (item) item.remove();
    });
    document.querySelectorAll("[data-error-summary]").forEach((summary) => {
      const left = summary.querySelectorAll("li").length;
      const heading = summary.querySelector("h2");
      if (left === 0) summary.remove();
      else if (heading) heading.textContent = left === 1 ? T("check_summary_one") : T("check_summary", { count: left });
    });
  }

  // Following an error link puts the cursor in the field with its content selected, so typing
  // replaces the wrong value instead of adding to it.
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("[data-error-summary] a[href^='#']");
    if (!link) return;
    const target = document.getElementById(link.getAttribute("href").slice(1));
    if (!target) return;
    event.preventDefault();
    target.focus();
    if (typeof target.select === "function" && target.type !== "file" && target.type !== "radio") target.select();
  });

  // ---- Unsaved changes: leaving a changed register or edit form (a link, back, close) asks
  // first; submitting does not.
  let leaving = false;
  function formSnapshot(form) {
    return JSON.stringify(Array.from(new FormData(form)).filter(([name, value]) =>
      typeof value === "string" && name !== "csrf_token" && !name.startsWith("loaded_")));
  }
  function setUpUnsavedPrompt(form) {
    const initial = formSnapshot(form);
    form.isUnsaved = () => form.dataset.submitting !== "true" &&
      (form.hasAttribute("data-kept-input") || Number(form.dataset.pickedCount || 0) > 0 || formSnapshot(form) !== initial);
    // Registered after the checks, so a refused submit still counts as unsaved. (The upload form
    // always sends by script and never unloads the page.)
    form.addEventListener("submit", (event) => {
      if (!event.defaultPrevented) form.dataset.submitting = "true";
    });
  }
  function unsavedForm() {
    return Array.from(document.querySelectorAll("form[data-product-form]")).find((form) => form.isUnsaved && form.isUnsaved());
  }
  window.addEventListener("beforeunload", (event) => {
    if (leaving || !unsavedForm()) return;
    event.preventDefault();
    event.returnValue = "";
  });
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target.closest && event.target.closest("a[href]");
    if (!link || link.target === "_blank" || link.hasAttribute("download")) return;
    const url = new URL(link.href, location.href);
    if (url.origin === location.origin && url.pathname === location.pathname && url.search === location.search && url.hash) return;
    if (!unsavedForm()) return;
    if (window.confirm(T("unsaved_confirm"))) leaving = true;
    else event.preventDefault();
  });

  // ---- Kept images (after an error): ←/→ reorder them in place (the hidden staged_order inputs
  // travel with them) instead of the position menus, which follow so the server reads the same
  // order; the first carries the thumbnail badge. Without JS the menus alone set the order.
  function setUpStagedImages(box) {
    const list = box.querySelector(".image-list");
    if (!list) return;
    list.querySelectorAll("[data-staged-move]").forEach((button) => { button.hidden = false; });
    list.querySelectorAll("[data-staged-position]").forEach((label) => { label.hidden = true; });
    function refresh() {
      const items = Array.from(list.children);
      items.forEach((item, index) => {
        const [earlier, later] = item.querySelectorAll("[data-staged-move]");
        if (earlier) earlier.disabled = index === 0;
        if (later) later.disabled = index === items.length - 1;
        const position = item.querySelector("[data-staged-position] select");
        if (position) position.value = String(index + 1);
        item.classList.toggle("image-item--first", index === 0);
        const badge = item.querySelector("[data-thumbnail-badge]");
        if (index === 0 && !badge) {
          const span = document.createElement("span");
          span.className = "image-item__badge";
          span.dataset.thumbnailBadge = "";
          span.textContent = T("thumbnail_badge");
          item.querySelector("img").after(span);
        } else if (index !== 0 && badge) badge.remove();
      });
    }
    list.addEventListener("click", (event) => {
      const button = event.target.closest("[data-staged-move]");
      if (!button) return;
      event.preventDefault();
      const item = button.closest("li");
      const step = Number(button.dataset.stagedMove);
      const sibling = step < 0 ? item.previousElementSibling : item.nextElementSibling;
      if (!sibling) return;
      if (step < 0) sibling.before(item); else sibling.after(item);
      const form = box.closest("form");
      if (form) form.dataset.keptInput = "";
      refresh();
      const same = item.querySelector(`[data-staged-move="${step}"]`);
      (same && !same.disabled ? same : item.querySelector("[data-staged-move]:not(:disabled)") || button).focus();
    });
    refresh();
  }

  // ---- Keyboard shortcuts (off while typing): / search, n new, g grid, l list, j/k next/previous
  // product, ? this help. They go by the physical key (event.code: KeyN…), not the character it
  // types, so they work the same in a Korean input mode (where N types ㅜ) or any layout.
  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }
  function shortcutOf(event) {
    if (event.code === "Slash" || event.key === "/" || event.key === "?") return event.shiftKey || event.key === "?" ? "?" : "/";
    const byCode = { KeyN: "n", KeyG: "g", KeyL: "l", KeyJ: "j", KeyK: "k" };
    return event.shiftKey ? null : byCode[event.code] || null;
  }
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing || typing(event.target)) return;
    if (document.querySelector("dialog[open]")) return;
    const go = (url) => { location.href = url; };
    const key = shortcutOf(event);
    switch (key) {
      case "/": {
        event.preventDefault();
        const search = document.querySelector("#search-q");
        if (search) { search.focus(); search.select(); } else go("/products#search-q");
        break;
      }
      case "n": event.preventDefault(); go("/products/new"); break;
      case "g":
      case "l": {
        event.preventDefault();
        const view = key === "g" ? "grid" : "list";
        const toggle = document.querySelector(`a[data-view-toggle][href*="view=${view}"]`);
        if (toggle) toggle.click(); else go(`/products?view=${view}`);
        break;
      }
      case "j":
      case "k": {
        const links = Array.from(document.querySelectorAll("[data-product-id] a[href^='/products/']"));
        if (links.length === 0) return;
        event.preventDefault();
        const current = links.indexOf(document.activeElement);
        const next = current < 0 ? (key === "j" ? 0 : links.length - 1)
          : Math.max(0, Math.min(links.length - 1, current + (key === "j" ? 1 : -1)));
        links[next].focus();
        links[next].scrollIntoView({ block: "nearest" });
        break;
      }
      case "?": event.preventDefault(); openShortcutsHelp(); break;
      default: break;
    }
  });

  function openShortcutsHelp() {
    let dialog = document.querySelector("dialog[data-shortcuts-dialog]");
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.className = "dialog";
      dialog.dataset.shortcutsDialog = "";
      dialog.setAttribute("aria-labelledby", "shortcuts-title");
      const heading = document.createElement("h2");
      heading.id = "shortcuts-title";
      heading.textContent = T("shortcuts_title");
      const list = document.createElement("dl");
      list.className = "shortcuts";
      for (const [key, text] of [["/", "shortcuts_search"], ["n", "shortcuts_new"], ["g", "shortcuts_grid"], ["l", "shortcuts_list"],
        ["j", "shortcuts_next"], ["k", "shortcuts_previous"], ["?", "shortcuts_help"]]) {
        const term = document.createElement("dt");
        const kbd = document.createElement("kbd");
        kbd.textContent = key;
        term.append(kbd);
        const description = document.createElement("dd");
        description.textContent = T(text);
        list.append(term, description);
      }
      const note = document.createElement("p");
      note.className = "hint";
      note.textContent = T("shortcuts_note");
      const actions = document.createElement("div");
      actions.className = "dialog__actions";
      const close = document.createElement("button");
      close.type = "button";
      close.className = "button";
      close.textContent = T("close");
      close.addEventListener("click", () => dialog.close());
      actions.append(close);
      dialog.append(heading, list, note, actions);
      document.body.append(dialog);
    }
    if (typeof dialog.showModal === "function" && !dialog.open) dialog.showModal();
    const button = dialog.querySelector("button");
    if (button) button.focus();
  }

  function showDocument(html, url, navigated) {
    const parsed = new DOMParser().parseFromString(html, "text/html");
    document.title = parsed.title || document.title;
    if (parsed.documentElement.lang) document.documentElement.lang = parsed.documentElement.lang;
    document.body.replaceWith(document.adoptNode(parsed.body));
    if (navigated) history.pushState(null, "", url);
    window.scrollTo(0, 0);
    init(document);
  }

  // ---- Downscaling: redraw on a canvas, lowering quality then size until the file fits.
  async function shrinkToFit(file, maxBytes) {
    if (file.size <= maxBytes) return file;
    const image = await loadImage(file);
    // Keep JPEG and WebP as they are; PNG and GIF become WebP when the browser can write it
    // (keeps transparency), otherwise JPEG.
    let type = file.type === "image/jpeg" ? "image/jpeg" : "image/webp";
    if (type === "image/webp" && !(await canEncode("image/webp"))) type = "image/jpeg";
    let scale = Math.min(1, Math.sqrt((maxBytes * 6) / file.size), 2048 / Math.max(image.naturalWidth, image.naturalHeight));
    let quality = 0.9;
    for (let attempt = 0; attempt < 24; attempt += 1) {
      const blob = await draw(image, scale, type, quality);
      if (blob.size <= maxBytes) {
        const renamed = new File([blob], renameFor(file.name, type), { type });
        return renamed;
      }
      if (quality > 0.55) quality -= 0.1;
      else scale *= 0.8;
    }
    throw new Error(T("shrink_failed", { file: file.name, size: formatBytes(maxBytes) }));
  }

  function loadImage(file) {
    return new Promise((resolve, reject) => {
      const url = URL.createObjectURL(file);
      const image = new Image();
      image.onload = () => { URL.revokeObjectURL(url); resolve(image); };
      image.onerror = () => { URL.revokeObjectURL(url); reject(new Error(T("image_unreadable", { file: file.name }))); };
      image.src = url;
    });
  }

  function draw(image, scale, type, quality) {
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
    const context = canvas.getContext("2d");
    if (type === "image/jpeg") { context.fillStyle = "#fff"; context.fillRect(0, 0, canvas.width, canvas.height); }
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return new Promise((resolve, reject) => canvas.toBlob(
      (blob) => blob && blob.type === type ? resolve(blob) : reject(new Error(T("cannot_encode", { type }))),
      type, quality));
  }

  function canEncode(type) {
    const canvas = document.createElement("canvas");
    canvas.width = 1; canvas.height = 1;
    return new Promise((resolve) => canvas.toBlob((blob) => resolve(!!blob && blob.type === type), type));
  }

  function renameFor(name, type) {
    const extension = type === "image/jpeg" ? "jpg" : "webp";
    const base = name.replace(/\.[^./]+$/, "");
    return `${base || "image"}.${extension}`;
  }

  // A copy button beside a read-only field (an invitation link, the vendor password): shown only
  // with the script, it copies the field and says so where a screen reader hears it.
  function setUpCopyButton(button) {
    const field = document.querySelector(button.dataset.copy);
    if (!field) return;
    const status = document.createElement("span");
    status.className = "copy-status";
    status.setAttribute("role", "status");
    button.after(status);
    button.hidden = false;
    button.addEventListener("click", async () => {
      field.select();
      let copied = false;
      try { await navigator.clipboard.writeText(field.value); copied = true; }
      catch (error) { copied = document.execCommand("copy"); }
      status.textContent = copied ? T("copied") : T("copy_failed");
    });
  }

  function formatBytes(bytes) {
    if (bytes < 1024) return bytes + " B";
    if (bytes < 1024 * 1024) return Math.round(bytes / 1024) + " KB";
    return (bytes / 1024 / 1024).toFixed(1) + " MB";
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => init(document));
  else init(document);
})();
