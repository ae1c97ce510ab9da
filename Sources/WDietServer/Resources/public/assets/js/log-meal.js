// Log a meal: food search (as you type), the portion step with live numbers, and manual entry.
// Saving goes through the JSON API; the server computes the stored values with the same rounding shown here.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const SEARCH_DELAY_MS = 100;
  const RESULT_LIMIT = 10;
  const GRAMS_MIN = 0.1, GRAMS_MAX = 5000;

  const modeSearch = $("mode-search"), modeManual = $("mode-manual");
  const searchPanel = $("search-panel"), manualPanel = $("manual-panel");
  const query = $("food-query"), results = $("food-results"), status = $("food-status");
  const emptyNote = $("food-empty"), unavailableNote = $("food-unavailable"), searchStep = $("food-search-step");
  const portionForm = $("portion-form"), unit = $("portion-unit"), quantity = $("portion-quantity");
  const manualForm = $("manual-form");
  const calorieMessage = manualForm.dataset.calorieMessage;
  const amountMessage = manualForm.dataset.amountMessage;

  let chosenFood = null;
  let foods = [];
  let activeIndex = -1;
  let searchTimer = null;
  let searchController = null;
  let saving = false;

  // Same arithmetic as WDietCore's MealInput.fromFood: per-100 g value × (grams / 100), rounded to a tenth.
  const tenth = (value) => Math.round(value * 10) / 10;
  const scaled = (per100, grams) => tenth(per100 * (grams / 100));
  /** 22.5 → "22.5" / "22,5", 0 → "0": to the tenth, without a trailing ",0". */
  const formatTenth = (value) => {
    const rounded = tenth(value);
    return WDiet.formatNumber(rounded, Number.isInteger(rounded) ? 0 : 1);
  };
  /** A value as a person would type it, never grouped: 1250.5 → "1250.5" / "1250,5". */
  const plain = (value) => (WDiet.lang === "de" ? String(tenth(value)).replace(".", ",") : String(tenth(value)));
  /** What a person typed as a number: "82,5" and "82.5" alike; in German "1.250" is 1250. Null when empty. */
  function parse(text) {
    let typed = String(text).trim();
    if (typed === "") return null;
    if (WDiet.lang === "de" && /^[1-9]\d{0,2}(\.\d{3})+(,\d*)?$/.test(typed)) typed = typed.replace(/\./g, "");
    return Number(typed.replace(",", "."));
  }
  /** The macros per 100 g of a food, to the tenth, for the macro line of the catalog (meals.macrosShort). */
  const macroValues = (food) => ({
    protein: formatTenth(food.proteinPer100g), carbs: formatTenth(food.carbsPer100g), fat: formatTenth(food.fatPer100g),
  });

  function manualIsFilled() {
    return ["manual-name", "manual-calories", "manual-protein", "manual-carbs", "manual-fat", "manual-fiber"].some((id) => $(id).value.trim() !== "");
  }
  // Links and closing the tab ask while a food or a manual meal is in the form. The back button asks only for a
  // filled manual form: on the portion step it goes back to the results (the step has its own history entry).
  // Issue 17's quick logging (slot, recents, favourites, saved meals, the basket): quick-log.js.
  const quick = window.WDietQuickLog;
  const basketCount = () => (quick ? quick.basketCount() : 0);
  // Scan Label's review with values the person changed (label-scan.js) counts as a filled form too.
  const scanChanged = () => Boolean(window.WDietLabelScan && window.WDietLabelScan.reviewChanged());
  const guard = window.WDietMealGuard.install(
    () => chosenFood !== null || manualIsFilled() || basketCount() > 0 || scanChanged(),
    () => manualIsFilled() || scanChanged());

  // ---- Search or manual entry ----
  function showMode(manual) {
    modeSearch.setAttribute("aria-pressed", String(!manual));
    modeManual.setAttribute("aria-pressed", String(manual));
    searchPanel.hidden = manual;
    manualPanel.hidden = !manual;
    (manual ? $("manual-calories") : (chosenFood ? quantity : query)).focus();
  }
  modeSearch.addEventListener("click", () => showMode(false));
  modeManual.addEventListener("click", () => showMode(true));
  document.querySelectorAll("[data-switch-manual]").forEach((button) => button.addEventListener("click", () => showMode(true)));

  // ---- As-you-type search ----
  function setExpanded(open) { query.setAttribute("aria-expanded", String(open)); }

  function clearResults() {
    results.replaceChildren();
    foods = [];
    activeIndex = -1;
    query.removeAttribute("aria-activedescendant");
    setExpanded(false);
  }

  function showNote(note) {
    emptyNote.hidden = note !== "empty";
    unavailableNote.hidden = note !== "unavailable";
  }

  query.addEventListener("input", () => {
    clearTimeout(searchTimer);
    const text = query.value.trim();
    if (quick) quick.showLists(text === "");
    if (text === "") {
      if (searchController) searchController.abort();
      clearResults();
      showNote(null);
      status.textContent = "";
      return;
    }
    searchTimer = setTimeout(() => search(text), SEARCH_DELAY_MS);
  });

  async function search(text) {
    // A newer query makes the older answer worthless: cancel it rather than let it arrive late and win.
    if (searchController) searchController.abort();
    const controller = new AbortController();
    searchController = controller;
    let response;
    try {
      response = await fetch(`/api/v1/foods/search?q=${encodeURIComponent(text)}&limit=${RESULT_LIMIT}`,
        { headers: { Accept: "application/json" }, credentials: "same-origin", signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) return;
      return searchFailed(WDiet.t("meals.searchOffline"));
    }
    if (controller !== searchController) return;
    if (!response.ok) {
      return searchFailed(response.status === 503 ? "" : WDiet.t("meals.searchFailed"));
    }
    let body;
    try { body = await response.json(); } catch (_) { return searchFailed(WDiet.t("meals.searchFailed")); }
    if (controller !== searchController) return;
    renderResults(body.results || []);
  }

  function searchFailed(detail) {
    clearResults();
    showNote("unavailable");
    // The visible note carries the words and the way out; the status line only announces it.
    status.classList.add("visually-hidden");
    status.textContent = [detail, WDiet.t("meals.searchUnavailable")].filter(Boolean).join(" ");
  }

  function renderResults(list) {
    clearResults();
    foods = list;
    if (list.length === 0) {
      showNote("empty");
      status.classList.add("visually-hidden");
      status.textContent = WDiet.t("meals.noResults");
      return;
    }
    showNote(null);
    list.forEach((food, index) => {
      const item = document.createElement("li");
      item.className = "food-result";
      item.id = `food-option-${index}`;
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", "false");
      const name = document.createElement("span");
      name.className = "food-result__name";
      // The name shortened for reading; USDA's full name on hover and on the portion step.
      name.textContent = food.shortName || food.name;
      name.title = food.name;
      // Calories of the common portion ("1 medium (118 g) · 105 cal"), then per 100 g with the macros.
      const common = food.commonPortion;
      const portion = document.createElement("span");
      portion.className = "food-result__portion";
      if (common) {
        portion.textContent = WDiet.t("meals.kcalPerPortion",
          { portion: common.shortLabel, grams: WDiet.formatInt(common.grams), kcal: WDiet.formatInt(common.kcal) });
      }
      const kcal = document.createElement("span");
      kcal.className = "food-result__kcal";
      kcal.textContent = WDiet.t("meals.kcalPer100g", { kcal: WDiet.formatInt(food.kcalPer100g) });
      const macros = document.createElement("span");
      macros.className = "food-result__macros";
      macros.textContent = WDiet.t("meals.macrosShort", macroValues(food));
      item.append(...(common ? [name, portion, kcal, macros] : [name, kcal, macros]));
      item.addEventListener("click", () => chooseFood(food));
      results.appendChild(item);
    });
    setExpanded(true);
    status.classList.remove("visually-hidden");
    status.textContent = WDiet.t("meals.resultsFound", { count: list.length });
  }

  function setActive(index) {
    const items = results.querySelectorAll("[role=option]");
    if (items.length === 0) return;
    activeIndex = (index + items.length) % items.length;
    items.forEach((item, i) => item.setAttribute("aria-selected", String(i === activeIndex)));
    const active = items[activeIndex];
    query.setAttribute("aria-activedescendant", active.id);
    active.scrollIntoView({ block: "nearest" });
  }

  query.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown") { event.preventDefault(); setActive(activeIndex + 1); }
    else if (event.key === "ArrowUp") { event.preventDefault(); setActive(activeIndex - 1); }
    else if (event.key === "Enter") {
      event.preventDefault();
      if (activeIndex >= 0 && foods[activeIndex]) chooseFood(foods[activeIndex]);
      else if (foods.length > 0) setActive(0);
    } else if (event.key === "Escape") { clearResults(); }
  });

  // ---- The portion step ----
  /** The portion step for `food`, at `preset` ({grams} or {portion, quantity}) or 100 g. */
  function chooseFood(food, preset) {
    chosenFood = food;
    $("portion-name").textContent = food.name;
    $("portion-per100").textContent =
      WDiet.t("meals.per100gSummary", Object.assign({ kcal: WDiet.formatInt(food.kcalPer100g) }, macroValues(food)));
    unit.replaceChildren();
    const grams = new Option(WDiet.t("meals.unitGrams"), "g");
    unit.appendChild(grams);
    (food.portions || []).forEach((portion, index) => {
      if (portion.label === "100 g") return; // the grams unit covers it
      // USDA's measure ("3 oz") is data and stays as the catalog has it.
      unit.appendChild(new Option(WDiet.t("meals.portionOption", { label: portion.label, grams: formatTenth(portion.grams) }), String(index)));
    });
    unit.value = "g";
    quantity.value = "100";
    if (preset && preset.portion) {
      const index = (food.portions || []).findIndex((portion) => portion.label === preset.portion);
      if (index >= 0 && food.portions[index].label !== "100 g") { unit.value = String(index); quantity.value = plain(preset.quantity || 1); }
    } else if (preset && preset.grams) {
      quantity.value = plain(preset.grams);
    }
    searchStep.hidden = true;
    updatePortionButtons();
    portionForm.hidden = false;
    if (!(history.state && history.state.mealStep === "portion")) history.pushState({ mealStep: "portion" }, "");
    $("portion-error").hidden = true;
    document.dispatchEvent(new Event("meal-guard:changed"));
    updatePortion();
    quantity.focus();
    quantity.select();
  }

  function showResults() {
    chosenFood = null;
    if (quick) quick.stopEditing();
    portionForm.hidden = true;
    searchStep.hidden = false;
    query.focus();
  }
  // "Change food" is the same step back as the phone's Back button: it leaves the portion step's history entry.
  $("portion-change").addEventListener("click", () => {
    if (history.state && history.state.mealStep === "portion") history.back(); else showResults();
  });
  window.addEventListener("popstate", (event) => {
    if (!portionForm.hidden && !(event.state && event.state.mealStep === "portion")) showResults();
  });

  /** The amount as the API will take it, its grams, or null with the message when it is not a valid amount. */
  function amount() {
    const value = parse(quantity.value);
    if (value === null || !Number.isFinite(value) || value <= 0) return { error: amountMessage };
    if (unit.value === "g") {
      if (value < GRAMS_MIN || value > GRAMS_MAX) return { error: amountMessage };
      return { grams: value, body: { grams: value } };
    }
    const portion = chosenFood.portions[Number(unit.value)];
    // As MealBody does: the portion's grams × quantity, to a thousandth of a gram.
    const grams = Math.round(portion.grams * value * 1000) / 1000;
    if (grams < GRAMS_MIN || grams > GRAMS_MAX) return { error: amountMessage };
    return { grams, body: { portion: portion.label, quantity: value } };
  }

  function updatePortion() {
    if (!chosenFood) return;
    const result = amount();
    const field = $("amount-field"), error = $("amount-error");
    field.classList.toggle("field--invalid", Boolean(result.error));
    quantity.setAttribute("aria-invalid", String(Boolean(result.error)));
    error.hidden = !result.error;
    error.textContent = result.error || "";
    const grams = result.error ? 0 : result.grams;
    $("portion-kcal").textContent = WDiet.formatInt(scaled(chosenFood.kcalPer100g, grams));
    $("portion-protein").textContent = formatTenth(scaled(chosenFood.proteinPer100g, grams));
    $("portion-carbs").textContent = formatTenth(scaled(chosenFood.carbsPer100g, grams));
    $("portion-fat").textContent = formatTenth(scaled(chosenFood.fatPer100g, grams));
    $("portion-grams").textContent = result.error ? "" : WDiet.t("meals.gramsAmount", { grams: formatTenth(grams) });
  }
  quantity.addEventListener("input", updatePortion);
  unit.addEventListener("change", () => {
    // A household measure starts at 1 of it; grams at 100.
    quantity.value = unit.value === "g" ? "100" : "1";
    updatePortion();
  });

  /** With foods in the basket (or one of them being changed), the portion step adds to it instead of saving. */
  function updatePortionButtons() {
    const building = basketCount() > 0 || (quick && quick.isEditing());
    $("portion-save").hidden = building;
    const add = $("portion-add");
    add.hidden = !quick;
    add.textContent = WDiet.t(quick && quick.isEditing() ? "quicklog.updateInMeal" : "quicklog.addToMeal");
    add.classList.toggle("button--primary", Boolean(building));
    add.classList.toggle("button--secondary", !building);
    updateStar();
  }

  function updateStar() {
    const star = $("portion-star");
    if (!quick || !chosenFood) { star.hidden = true; return; }
    star.hidden = false;
    const on = quick.isStarred(chosenFood.id);
    star.classList.toggle("quick-star--on", on);
    star.setAttribute("aria-label", WDiet.t(on ? "quicklog.unstar" : "quicklog.star"));
    star.firstElementChild.textContent = on ? "★" : "☆";
  }

  /** The chosen food at the amount on screen, as the basket keeps it. */
  function basketItem(result) {
    const grams = result.grams;
    const amountText = result.body.portion
      ? (result.body.quantity === 1 ? result.body.portion : `${formatTenth(result.body.quantity)} × ${result.body.portion}`)
      : WDiet.t("quicklog.gramsShort", { grams: formatTenth(grams) });
    return {
      name: chosenFood.shortName || chosenFood.name, food: chosenFood, kcal: scaled(chosenFood.kcalPer100g, grams),
      amount: amountText, body: Object.assign({ foodId: chosenFood.id }, result.body),
    };
  }

  function addChosenToBasket() {
    const result = amount();
    if (result.error) { updatePortion(); quantity.focus(); return; }
    quick.addToBasket(basketItem(result));
    query.value = "";
    clearResults();
    showNote(null);
    status.textContent = "";
    quick.showLists(true);
    if (history.state && history.state.mealStep === "portion") history.back(); else showResults();
  }
  $("portion-add").addEventListener("click", () => { if (chosenFood) addChosenToBasket(); });
  $("portion-star").addEventListener("click", async () => {
    if (!chosenFood || !quick) return;
    const result = amount();
    const body = Object.assign({ foodId: chosenFood.id }, result.error ? {} : result.body);
    try { await quick.toggleStar({ foodId: chosenFood.id, name: chosenFood.name, body, food: chosenFood }); } catch (error) { WDiet.toast(error.message); }
    updateStar();
  });

  portionForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (saving || !chosenFood) return;
    const result = amount();
    if (result.error) { updatePortion(); quantity.focus(); return; }
    if (quick && (basketCount() > 0 || quick.isEditing())) { addChosenToBasket(); return; }
    await save(Object.assign({ foodId: chosenFood.id }, result.body), $("portion-save"), (error) => {
      const message = $("portion-error");
      message.textContent = Object.values(error.fields || {})[0] || error.message;
      message.hidden = false;
    });
  });

  // ---- Manual entry ----
  const manualFields = {
    calories: { input: $("manual-calories"), error: $("manual-calories-error") },
    protein: { input: $("manual-protein"), error: $("manual-protein-error") },
    carbs: { input: $("manual-carbs"), error: $("manual-carbs-error") },
    fat: { input: $("manual-fat"), error: $("manual-fat-error") },
    fiber: { input: $("manual-fiber"), error: $("manual-fiber-error") },
    name: { input: $("manual-name"), error: $("manual-name-error") },
  };

  function showFieldError(name, message) {
    const { input, error } = manualFields[name];
    input.closest(".field").classList.toggle("field--invalid", Boolean(message));
    if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    error.textContent = message || "";
    error.hidden = !message;
  }

  /** The manual form's message for one field, as MealInput.manual words it; null when the value is fine. */
  function manualError(name) {
    const value = parse(manualFields[name].input.value);
    if (name === "calories") return value !== null && Number.isFinite(value) && value >= 1 && value <= 9999 ? null : calorieMessage;
    if (name === "name") return manualFields.name.input.value.trim().length > 100 ? WDiet.t("meals.nameTooLong") : null;
    if (value === null) return null;
    // "Protein must be between 0-999 g": the range, as MealInput.Message.range words it.
    return Number.isFinite(value) && value >= 0 && value <= 999 ? null : WDiet.t(`meals.${name}Range`);
  }

  Object.keys(manualFields).forEach((name) => {
    const { input } = manualFields[name];
    // Judge a field once the person has left it; after that, clear the message as soon as it is fixed.
    input.addEventListener("blur", () => { if (input.value.trim() !== "" || name === "calories" && input.dataset.touched) showFieldError(name, manualError(name)); });
    input.addEventListener("input", () => {
      input.dataset.touched = "1";
      if (input.getAttribute("aria-invalid") === "true") showFieldError(name, manualError(name));
    });
  });

  // The meal's slot names a manual meal, as the meal chips did: a tap on Lunch fills "Lunch" unless a name of the
  // person's own is there.
  const slotNames = Array.from(document.querySelectorAll(".slot-picker__option"), (button) => button.dataset.label);
  document.querySelectorAll(".slot-picker__option").forEach((button) => {
    button.addEventListener("click", () => {
      if (manualPanel.hidden) return;
      const typed = manualFields.name.input.value.trim();
      if (typed !== "" && !slotNames.includes(typed)) return;
      manualFields.name.input.value = button.dataset.label;
      document.dispatchEvent(new Event("meal-guard:changed"));
      manualFields.calories.input.focus();
    });
  });

  manualForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (saving) return;
    let firstInvalid = null;
    ["name", "calories", "protein", "carbs", "fat", "fiber"].forEach((name) => {
      const message = manualError(name);
      showFieldError(name, message);
      if (message && !firstInvalid) firstInvalid = manualFields[name].input;
    });
    if (firstInvalid) { firstInvalid.focus(); return; }
    const body = { name: manualFields.name.input.value.trim(), calories: parse(manualFields.calories.input.value) };
    ["protein", "carbs", "fat", "fiber"].forEach((name) => {
      const value = parse(manualFields[name].input.value);
      if (value !== null) body[name] = value;
    });
    await save(body, $("manual-save"), (error) => {
      const fields = error.fields || {};
      let shown = false;
      Object.keys(fields).forEach((name) => { if (manualFields[name]) { showFieldError(name, fields[name]); shown = true; } });
      if (!shown) WDiet.toast(error.message);
    });
  });

  // ---- Saving ----
  /** After a save: the meals list of the day logged onto, with the notice of the meal saved. */
  function leave(mealId) {
    guard.allowLeave();
    const path = quick ? quick.returnPath : "/meals/today";
    const joiner = path.includes("?") ? "&" : "?";
    window.location.assign(mealId ? `${path}${joiner}saved=${encodeURIComponent(mealId)}` : path);
  }

  if (quick) {
    quick.connect({
      openFood: (food, preset) => { showMode(false); chooseFood(food, preset); },
      openManual: (entry) => {
        manualFields.name.input.value = entry.name || "";
        manualFields.calories.input.value = entry.calories === undefined ? "" : String(entry.calories);
        ["protein", "carbs", "fat", "fiber"].forEach((key) => {
          manualFields[key].input.value = entry[key] === null || entry[key] === undefined ? "" : String(entry[key]);
        });
        document.dispatchEvent(new Event("meal-guard:changed"));
        showMode(true);
      },
      leave,
      basketChanged: () => { if (chosenFood) updatePortionButtons(); },
    });
  }
  async function save(body, button, showError) {
    saving = true;
    button.disabled = true;
    // A client id makes a retried save harmless: the server returns the meal it already has.
    body.id = WDiet.newId();
    if (quick) Object.assign(body, quick.when());
    try {
      const meal = await WDiet.api("POST", "/api/v1/meals", body);
      leave(meal.id);
    } catch (error) {
      saving = false;
      button.disabled = false;
      if (error.status === 503) {
        showNote("unavailable");
        WDiet.toast(WDiet.t("meals.searchUnavailableEnterManually"));
        return;
      }
      showError(error);
    }
  }
})();
