// Log Meal → Scan Label (issue 19): a photo from the camera or the library, a frame around the nutrition panel,
// POST /api/v1/labels/read, then the values for review — fields not read clearly left empty and marked — and the
// meal saved with source labelScan. "Try manual entry" when the label cannot be read. Needs script (as the camera
// does); without it the option stays hidden.
"use strict";

(function () {
  const modeScan = document.getElementById("mode-scan");
  const template = document.getElementById("scan-panel-template");
  if (!template || !modeScan || !window.fetch) return;
  // The scan's steps come into the page the first time they are opened: until then the page holds only the manual
  // form's "Name" and "Calories", for a screen reader's list of fields and for anything that finds a field by its label.
  let showScan = null;
  function open() {
    if (!showScan) {
      template.replaceWith(template.content.cloneNode(true));
      modeScan.setAttribute("aria-controls", "scan-panel");
      showScan = setUp();
    }
    showScan();
  }
  modeScan.hidden = false;
  modeScan.addEventListener("click", open);
  if (location.hash === "#scan") open();

  function setUp() {
    const $ = (id) => document.getElementById(id);
    const panel = $("scan-panel");
    const modeSearch = $("mode-search"), modeManual = $("mode-manual");
    const searchPanel = $("search-panel"), manualPanel = $("manual-panel");
    const pickStep = $("scan-pick"), cropStep = $("scan-crop"), review = $("scan-review");
    const status = $("scan-status"), problem = $("scan-problem"), problemText = $("scan-problem-text");
    const canvas = $("scan-photo"), frame = $("scan-frame"), cropArea = $("scan-crop-area");
    const amountInput = $("scan-amount"), readButton = $("scan-read"), saveButton = $("scan-save");
    const manualForm = $("manual-form");
    const quick = window.WDietQuickLog;

    const FIELDS = ["calories", "protein", "carbs", "fat", "fiber"];
    const NUTRIENT = { calories: "energyKcal", protein: "protein", carbs: "carbohydrate", fat: "fat", fiber: "fiber" };
    const CORE = ["calories", "protein", "carbs", "fat"];
    // What the amount and the values are called for each basis.
    const BASIS_WORDS = {
      perServing: { amount: "labelScan.servingsLabel", values: "labelScan.valuesPerServing" },
      per100g: { amount: "labelScan.gramsLabel", values: "labelScan.valuesPer100g" },
      per100ml: { amount: "labelScan.millilitresLabel", values: "labelScan.valuesPer100ml" },
    };
    const MIN_FRAME = 0.08;        // the frame's smallest side, as a share of the photo's
    const DEFAULT_INSET = 0.04;    // the first frame: the whole photo less a small margin
    const DISPLAY_MAX = 1200;      // the preview canvas's largest side in pixels

    let file = null, bitmap = null, crop = null, cropMoved = false;
    let reading = null, basis = null, initialValues = {}, initialAmount = "", busy = false, saved = false;

    // ---- Numbers as the manual form reads and writes them ----
    const tenth = (value) => Math.round(value * 10) / 10;
    const plain = (value) => (WDiet.lang === "de" ? String(tenth(value)).replace(".", ",") : String(tenth(value)));
    const formatTenth = (value) => { const r = tenth(value); return WDiet.formatNumber(r, Number.isInteger(r) ? 0 : 1); };
    function parse(text) {
      let typed = String(text).trim();
      if (typed === "") return null;
      if (WDiet.lang === "de" && /^[1-9]\d{0,2}(\.\d{3})+(,\d*)?$/.test(typed)) typed = typed.replace(/\./g, "");
      return Number(typed.replace(",", "."));
    }

    // ---- The third way to log ----
    function showScan() {
      modeSearch.setAttribute("aria-pressed", "false");
      modeManual.setAttribute("aria-pressed", "false");
      modeScan.setAttribute("aria-pressed", "true");
      searchPanel.hidden = true;
      manualPanel.hidden = true;
      panel.hidden = false;
      if (!reading && !bitmap) $("scan-camera").focus();
    }
    function hideScan() {
      modeScan.setAttribute("aria-pressed", "false");
      panel.hidden = true;
    }
    modeSearch.addEventListener("click", hideScan);
    modeManual.addEventListener("click", hideScan);

    function setStatus(text, working) {
      status.textContent = text || "";
      status.classList.toggle("label-scan__status--busy", Boolean(working));
    }
    function showProblem(message) {
      problemText.textContent = message;
      problem.hidden = false;
    }
    function show(step) {
      pickStep.hidden = step !== "pick";
      cropStep.hidden = step !== "crop";
      review.hidden = step !== "review";
    }

    /** The review is on screen and the person changed something in it (a value, the name, the amount). */
    function reviewChanged() {
      if (!reading || review.hidden || saved) return false;
      return FIELDS.some((name) => $(`scan-${name}`).value !== initialValues[name])
        || $("scan-name").value.trim() !== "" || amountInput.value !== initialAmount;
    }
    window.WDietLabelScan = { reviewChanged };
    const guard = () => (window.WDietMealGuard && window.WDietMealGuard.current ? window.WDietMealGuard.current() : null);

    function startOver() {
      // Another photo throws the review away: ask first when the person changed it.
      if (reviewChanged() && guard()) { guard().ask(reset); return; }
      reset();
    }
    function reset() {
      file = null; bitmap = null; crop = null; reading = null; cropMoved = false;
      $("scan-camera").value = ""; $("scan-library").value = "";
      problem.hidden = true;
      setStatus("");
      show("pick");
      $("scan-camera").focus();
    }
    document.querySelectorAll("[data-scan-again]").forEach((button) => button.addEventListener("click", startOver));
    document.querySelectorAll("[data-scan-manual]").forEach((button) => button.addEventListener("click", tryManualEntry));

    // ---- A photo ----
    ["scan-camera", "scan-library"].forEach((id) => $(id).addEventListener("change", (event) => {
      const chosen = event.target.files && event.target.files[0];
      if (chosen) usePhoto(chosen);
    }));

    async function usePhoto(chosen) {
      file = chosen; reading = null; cropMoved = false;
      problem.hidden = true;
      review.hidden = true;
      try {
        bitmap = await createImageBitmap(chosen);
      } catch (_) {
        // A format this browser cannot show (HEIC outside Safari) or no picture at all: the server reads it whole
        // (and says so when it is not a photo).
        bitmap = null;
        show("pick");
        return readLabel();
      }
      const inset = DEFAULT_INSET;
      crop = { x: bitmap.width * inset, y: bitmap.height * inset, w: bitmap.width * (1 - 2 * inset), h: bitmap.height * (1 - 2 * inset) };
      show("crop");
      layoutCanvas();
      readButton.focus();
    }

    // ---- The frame ----
    function layoutCanvas() {
      if (!bitmap) return;
      const scale = Math.min(1, DISPLAY_MAX / Math.max(bitmap.width, bitmap.height));
      canvas.width = Math.round(bitmap.width * scale);
      canvas.height = Math.round(bitmap.height * scale);
      // As wide as the card, and never taller than 60 % of the screen.
      const available = cropStep.clientWidth - 32;
      const width = Math.max(120, Math.min(available, (window.innerHeight * 0.6) * bitmap.width / bitmap.height));
      cropArea.style.width = `${Math.round(width)}px`;
      cropArea.style.marginInline = "auto";
      draw();
    }
    window.addEventListener("resize", () => { if (!cropStep.hidden) layoutCanvas(); });

    function draw() {
      const context = canvas.getContext("2d");
      const sx = canvas.width / bitmap.width, sy = canvas.height / bitmap.height;
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      // Dim what lies outside the frame.
      context.fillStyle = "rgba(0, 0, 0, 0.5)"; // catalog-exempt: a colour
      const x = crop.x * sx, y = crop.y * sy, w = crop.w * sx, h = crop.h * sy;
      context.fillRect(0, 0, canvas.width, y);
      context.fillRect(0, y + h, canvas.width, canvas.height - y - h);
      context.fillRect(0, y, x, h);
      context.fillRect(x + w, y, canvas.width - x - w, h);
      frame.style.left = `${(crop.x / bitmap.width) * 100}%`;
      frame.style.top = `${(crop.y / bitmap.height) * 100}%`;
      frame.style.width = `${(crop.w / bitmap.width) * 100}%`;
      frame.style.height = `${(crop.h / bitmap.height) * 100}%`;
    }

    /** Moves one corner to (px, py) in photo pixels, keeping the frame inside the photo and not too small. */
    function moveCorner(corner, px, py) {
      const W = bitmap.width, H = bitmap.height, minW = W * MIN_FRAME, minH = H * MIN_FRAME;
      let left = crop.x, top = crop.y, right = crop.x + crop.w, bottom = crop.y + crop.h;
      if (corner[1] === "l") left = Math.min(Math.max(0, px), right - minW); else right = Math.max(Math.min(W, px), left + minW);
      if (corner[0] === "t") top = Math.min(Math.max(0, py), bottom - minH); else bottom = Math.max(Math.min(H, py), top + minH);
      crop = { x: left, y: top, w: right - left, h: bottom - top };
      cropMoved = true;
      draw();
    }
    function cornerPoint(corner) {
      return { x: corner[1] === "l" ? crop.x : crop.x + crop.w, y: corner[0] === "t" ? crop.y : crop.y + crop.h };
    }

    frame.querySelectorAll("[data-corner]").forEach((handle) => {
      const corner = handle.dataset.corner;
      handle.addEventListener("pointerdown", (event) => {
        event.preventDefault();
        handle.setPointerCapture(event.pointerId);
        handle.focus();
      });
      handle.addEventListener("pointermove", (event) => {
        if (!handle.hasPointerCapture(event.pointerId)) return;
        const rect = canvas.getBoundingClientRect();
        moveCorner(corner, ((event.clientX - rect.left) / rect.width) * bitmap.width, ((event.clientY - rect.top) / rect.height) * bitmap.height);
      });
      handle.addEventListener("keydown", (event) => {
        const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
        if (!steps) return;
        event.preventDefault();
        const share = event.shiftKey ? 0.1 : 0.02;
        const point = cornerPoint(corner);
        moveCorner(corner, point.x + steps[0] * share * bitmap.width, point.y + steps[1] * share * bitmap.height);
      });
    });

    // ---- Reading ----
    readButton.addEventListener("click", readLabel);

    async function readLabel() {
      if (busy || !file) return;
      busy = true;
      readButton.disabled = true;
      problem.hidden = true;
      setStatus(WDiet.t("labelScan.reading"), true);
      // An untouched frame leaves finding the panel to the server, which looks for it in the whole photo.
      let path = "/api/v1/labels/read";
      if (bitmap && cropMoved) {
        const r = (v) => Math.max(0, Math.round(v));
        path += `?crop=${r(crop.x)},${r(crop.y)},${Math.max(1, r(crop.w))},${Math.max(1, r(crop.h))}`;
      }
      let response = null, body = null;
      try {
        response = await fetch(path, {
          method: "POST", credentials: "same-origin", body: file,
          headers: { "Content-Type": file.type || "application/octet-stream", "Accept": "application/json", "X-CSRF-Token": WDiet.csrfToken() },
        });
        try { body = await response.json(); } catch (_) { body = null; }
      } catch (_) {
        response = null;
      }
      busy = false;
      readButton.disabled = false;
      setStatus("");
      if (!response) return showProblem(WDiet.t("common.offline"));
      if (!response.ok) {
        const message = body && body.error && body.error.message;
        return showProblem(message || WDiet.t("labelScan.readFailed"));
      }
      if (!body || !body.panelFound || !(body.columns || []).length) return showProblem(WDiet.t("labelScan.noPanel"));
      reading = body;
      showReview();
    }

    // ---- Review ----
    const basisLabel = (column) => {
      if (column.basis === "per100g") return WDiet.t("labelScan.basisPer100g");
      if (column.basis === "per100ml") return WDiet.t("labelScan.basisPer100ml");
      return column.servingText ? WDiet.t("labelScan.basisPerServingText", { serving: column.servingText }) : WDiet.t("labelScan.basisPerServing");
    };

    function showReview() {
      const options = $("scan-basis-options");
      options.replaceChildren();
      reading.columns.forEach((column) => {
        const label = document.createElement("label");
        label.className = "label-scan__basis-option";
        const input = document.createElement("input");
        input.type = "radio"; input.name = "scan-basis"; input.value = column.basis;
        input.addEventListener("change", () => chooseBasis(column.basis));
        const text = document.createElement("span");
        text.textContent = basisLabel(column);
        label.append(input, text);
        options.appendChild(label);
      });
      $("scan-basis").hidden = reading.columns.length < 2;
      $("scan-low").hidden = !reading.needsManualEntry;
      saved = false;
      show("review");
      chooseBasis(reading.suggestedBasis || reading.columns[0].basis);
      $("scan-review-title").focus();
    }

    function column() { return reading.columns.find((c) => c.basis === basis) || reading.columns[0]; }

    /** The label's value for a field in this column when it was read with confidence, else null. */
    function confidentValue(col, name) {
      const field = col.fields[NUTRIENT[name]];
      if (field && field.confident) return field.lessThan ? field.value / 2 : field.value;
      if (name === "calories") {
        const kj = col.fields.energyKJ;
        if (kj && kj.confident) return kj.value / 4.184;
      }
      return null;
    }

    function chooseBasis(value) {
      basis = value;
      options().forEach((input) => { input.checked = input.value === value; });
      const col = column();
      let anyUnsure = false;
      FIELDS.forEach((name) => {
        const input = $(`scan-${name}`), note = $(`scan-${name}-note`);
        const v = confidentValue(col, name);
        input.value = v === null ? "" : plain(name === "calories" ? Math.round(v) : v);
        // Not read clearly: a core field always, fiber only when the label printed it.
        const unsure = v === null && (CORE.includes(name) || Boolean(col.fields[NUTRIENT[name]]));
        note.hidden = !unsure;
        input.closest(".field").classList.toggle("label-scan__value--unsure", unsure);
        anyUnsure = anyUnsure || unsure;
        showFieldError(name, null);
        initialValues[name] = input.value;
      });
      $("scan-review-hint").textContent = WDiet.t(anyUnsure ? "labelScan.reviewHintUnsure" : "labelScan.reviewHint");
      const perServing = value === "perServing";
      const words = BASIS_WORDS[value] || BASIS_WORDS.per100g;
      $("scan-amount-label").textContent = WDiet.t(words.amount);
      $("scan-values-title").textContent = WDiet.t(words.values);
      // Per 100 g, a printed serving is the likelier amount than 100 g.
      const serving = reading.columns.find((c) => c.basis === "perServing");
      amountInput.value = perServing ? "1" : plain(serving && serving.servingGrams ? serving.servingGrams : 100);
      initialAmount = amountInput.value;
      showAmountError(null);
      updateTotal();
    }
    const options = () => Array.from(document.querySelectorAll('input[name="scan-basis"]'));

    /** The amount as a factor of the column's values, or null with the message. */
    function factor() {
      const value = parse(amountInput.value);
      if (basis === "perServing") {
        if (value === null || !Number.isFinite(value) || value < 0.1 || value > 50) return { error: WDiet.t("labelScan.servingsRange") };
        return { factor: value };
      }
      if (value === null || !Number.isFinite(value) || value < 0.1 || value > 5000) return { error: WDiet.t("labelScan.amountRange") };
      return { factor: value / 100 };
    }

    /** The meal's totals from the fields on screen; a field left empty is null. */
    function totals() {
      const f = factor();
      const result = { error: f.error };
      FIELDS.forEach((name) => {
        const v = parse($(`scan-${name}`).value);
        result[name] = v === null || !Number.isFinite(v) || f.error ? null : v * f.factor;
      });
      return result;
    }

    function updateTotal() {
      const t = totals();
      const total = $("scan-total"), macros = $("scan-total-macros");
      const missing = t.calories === null;
      total.classList.toggle("label-scan__kcal--missing", missing);
      total.textContent = missing ? WDiet.t("labelScan.mealTotalMissing") : WDiet.t("labelScan.mealTotal", { kcal: WDiet.formatInt(t.calories) });
      const show = (v) => (v === null ? "–" : formatTenth(v));
      macros.textContent = WDiet.t("meals.macrosShort", { protein: show(t.protein), carbs: show(t.carbs), fat: show(t.fat) });
    }

    function showFieldError(name, message) {
      const input = $(`scan-${name}`), error = $(`scan-${name}-error`);
      input.closest(".field").classList.toggle("field--invalid", Boolean(message));
      if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
      error.textContent = message || "";
      error.hidden = !message;
    }
    function showAmountError(message) {
      $("scan-amount-field").classList.toggle("field--invalid", Boolean(message));
      if (message) amountInput.setAttribute("aria-invalid", "true"); else amountInput.removeAttribute("aria-invalid");
      $("scan-amount-error").textContent = message || "";
      $("scan-amount-error").hidden = !message;
    }

    FIELDS.forEach((name) => $(`scan-${name}`).addEventListener("input", () => {
      const input = $(`scan-${name}`);
      // Filled in by the person: no longer "not read clearly".
      if (input.value.trim() !== "") {
        $(`scan-${name}-note`).hidden = true;
        input.closest(".field").classList.remove("label-scan__value--unsure");
      }
      if (input.getAttribute("aria-invalid") === "true") showFieldError(name, null);
      updateTotal();
    }));
    amountInput.addEventListener("input", () => { showAmountError(null); updateTotal(); });

    /** The message of each field under the rules of the manual form (applied to the totals of the meal). */
    function fieldErrors(t) {
      const errors = {};
      FIELDS.forEach((name) => {
        const text = $(`scan-${name}`).value.trim();
        const v = parse(text);
        if (name === "calories") {
          if (t.calories === null || t.calories < 1 || t.calories > 9999) errors.calories = manualForm.dataset.calorieMessage;
        } else if (text !== "" && (v === null || !Number.isFinite(v) || v < 0 || (t[name] !== null && t[name] > 999))) {
          errors[name] = WDiet.t(`meals.${name}Range`);
        }
      });
      return errors;
    }

    review.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (busy) return;
      const t = totals();
      if (t.error) { showAmountError(t.error); amountInput.focus(); return; }
      const errors = fieldErrors(t);
      let first = null;
      FIELDS.forEach((name) => { showFieldError(name, errors[name] || null); if (errors[name] && !first) first = $(`scan-${name}`); });
      if (first) { first.focus(); return; }
      const body = {
        id: WDiet.newId(), source: "labelScan",
        name: $("scan-name").value.trim() || WDiet.t("labelScan.defaultName"),
        calories: tenth(t.calories),
      };
      ["protein", "carbs", "fat", "fiber"].forEach((name) => { if (t[name] !== null) body[name] = tenth(t[name]); });
      if (quick) Object.assign(body, quick.when());
      busy = true;
      saveButton.disabled = true;
      $("scan-save-error").hidden = true;
      let meal;
      try {
        meal = await WDiet.api("POST", "/api/v1/meals", body);
      } catch (error) {
        busy = false;
        saveButton.disabled = false;
        const fields = error.fields || {};
        let shown = false;
        Object.keys(fields).forEach((name) => { if (FIELDS.includes(name)) { showFieldError(name, fields[name]); shown = true; } });
        if (!shown) { $("scan-save-error").textContent = error.message; $("scan-save-error").hidden = false; }
        return;
      }
      const corrected = FIELDS.filter((name) => $(`scan-${name}`).value !== initialValues[name]).length;
      saved = true;
      if (guard()) guard().allowLeave();
      if (WDiet.analytics) {
        WDiet.analytics.track("label_scanned", {
          outcome: "saved", basis, confidence: String(reading.confidence),
          fields_corrected: String(corrected), meal_id: meal.id,
        });
        WDiet.analytics.markNavigating();
      }
      const path = quick ? quick.returnPath : "/meals/today";
      window.location.assign(`${path}${path.includes("?") ? "&" : "?"}saved=${encodeURIComponent(meal.id)}`);
    });

    // ---- Try manual entry: the manual form, with whatever was read with confidence ----
    function tryManualEntry() {
      if (reading && !review.hidden) {
        const t = totals();
        const set = (id, v, whole) => { $(id).value = v === null ? "" : plain(whole ? Math.round(v) : v); };
        set("manual-calories", t.calories, true);
        set("manual-protein", t.protein); set("manual-carbs", t.carbs); set("manual-fat", t.fat); set("manual-fiber", t.fiber);
        if ($("scan-name").value.trim()) $("manual-name").value = $("scan-name").value.trim();
      }
      if (WDiet.analytics && file) WDiet.analytics.track("label_scanned", { outcome: "manual_entry", panel_found: String(Boolean(reading)) });
      document.dispatchEvent(new Event("meal-guard:changed"));
      modeManual.click();
    }
    return showScan;
  }
})();
