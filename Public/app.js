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
    return text.replace(/\{([a-z_]+)\}/g, (match, name) =>
      values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : match);
  }

  function init(root) {
    readStrings();
    root.querySelectorAll("[data-delete-open]").forEach(setUpDeleteDialog);
    root.querySelectorAll("[data-gallery]").forEach(setUpGallery);
    root.querySelectorAll("form[data-upload-form]").forEach(setUpUploadForm);
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
    const dropzone = picker.querySelector("[data-dropzone]");
    const hint = picker.querySelector("[data-dropzone-hint]");
    if (hint) hint.hidden = false;
    const picked = []; // {file, url, status}

    function stagedCount() {
      return Array.from(form.querySelectorAll("[data-staged-image]"))
        .filter((item) => { const box = item.querySelector("input[type=checkbox]"); return !box || !box.checked; })
        .length;
    }

    function addFiles(files) {
      for (const file of files) {
        if (picked.length + stagedCount() >= maxImages) {
          announce(T("picker_too_many", { max: maxImages, file: file.name }));
          break;
        }
        if (!/^image\/(jpeg|png|gif|webp)$/.test(file.type)) {
          announce(T("picker_type", { file: file.name }));
          continue;
        }
        picked.push({ file, url: URL.createObjectURL(file), status: "" });
      }
      input.value = "";
      input.required = picked.length + stagedCount() === 0;
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
          input.required = picked.length + stagedCount() === 0;
          render();
          input.focus();
        });
        tools.append(earlier, later, remove);
        item.append(img, name, size, tools);
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
      box.addEventListener("change", () => { input.required = picked.length + stagedCount() === 0; render(); }));
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

    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (form.dataset.busy === "true") return;
      form.dataset.busy = "true";
      const submit = form.querySelector("button[type=submit]");
      if (submit) submit.disabled = true;
      try {
        const data = new FormData(form);
        data.delete("images");
        for (const entry of picked) {
          const blob = await shrinkToFit(entry.file, maxBytes);
          data.append("images", blob, blob.name || entry.file.name);
        }
        upload(form, data);
      } catch (error) {
        announce(T("picker_prepare_failed", { reason: error.message }));
        form.dataset.busy = "false";
        if (submit) submit.disabled = false;
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
      if (status) status.hidden = true;
      form.dataset.busy = "false";
      const submit = form.querySelector("button[type=submit]");
      if (submit) submit.disabled = false;
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

  function formatBytes(bytes) {
    if (bytes < 1024) return bytes + " B";
    if (bytes < 1024 * 1024) return Math.round(bytes / 1024) + " KB";
    return (bytes / 1024 / 1024).toFixed(1) + " MB";
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => init(document));
  else init(document);
})();
