// Today's meals (running totals, delete with undo) and the edit form (live numbers, "Discard meal?").
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const SMILEYS = { happy: "😊", neutral: "😐", sad: "😞" };
  const VERDICTS = { happy: "meals.verdictGood", neutral: "meals.verdictFair", sad: "meals.verdictLow" };
  const LABELS = { protein: "meals.protein", carbs: "meals.carbs", fat: "meals.fat" };
  const tenth = (value) => Math.round(value * 10) / 10;
  /** A value as a person would type it, never grouped: 46.5 → "46.5" / "46,5". */
  const plain = (value) => {
    const text = String(tenth(value));
    return WDiet.lang === "de" ? text.replace(".", ",") : text;
  };
  /** What a person typed as a number: "82,5" and "82.5" alike; in German "1.250" is 1250. Null when empty. */
  function parse(text) {
    let typed = String(text).trim();
    if (typed === "") return null;
    if (WDiet.lang === "de" && /^[1-9]\d{0,2}(\.\d{3})+(,\d*)?$/.test(typed)) typed = typed.replace(/\./g, "");
    return Number(typed.replace(",", "."));
  }

  // ---- The notice after a save, an edit or a delete (?saved=, ?updated=, ?deleted=) becomes a toast ----
  const flash = $("meal-flash");
  if (flash) {
    const deletedId = flash.dataset.deletedId;
    if (deletedId) {
      WDiet.toast(flash.dataset.flash, { actionLabel: WDiet.t("meals.undo"), duration: 8000, onAction: () => restoreAndReload(deletedId) });
    } else {
      WDiet.toast(flash.dataset.flash, { duration: 3000 });
    }
    flash.remove();
    // The notice's members go; a past day's `date` stays.
    const url = new URL(window.location.href);
    ["saved", "updated", "deleted"].forEach((name) => url.searchParams.delete(name));
    history.replaceState(null, "", url.pathname + url.search);
  }

  async function restoreAndReload(id) {
    try {
      await WDiet.api("POST", `/api/v1/meals/${id}/restore`);
      window.location.assign(window.location.pathname + window.location.search);
    } catch (error) {
      WDiet.toast(error.message);
    }
  }

  // ---- Running totals, redrawn from the dashboard's numbers after a delete or an undo ----
  async function refreshTotals() {
    let day;
    // A past day's totals are that day's.
    const date = $("meal-totals").dataset.date;
    const path = date ? `/api/v1/dashboard?date=${encodeURIComponent(date)}` : "/api/v1/dashboard";
    try { day = await WDiet.api("GET", path); } catch (_) { return; }
    const eaten = WDiet.formatInt(day.totals.calories), target = WDiet.formatInt(day.targets.calories);
    $("totals-calories").textContent = WDiet.t("meals.caloriesOfTarget", { eaten, target });
    const list = $("totals-macros");
    list.replaceChildren();
    const spoken = [];
    day.macros.forEach((macro) => {
      const item = document.createElement("li");
      item.className = `meal-totals__macro meal-totals__macro--${macro.macro}`;
      if (macro.smiley) {
        const smiley = document.createElement("span");
        smiley.className = "meal-totals__smiley";
        smiley.textContent = SMILEYS[macro.smiley] || "";
        item.append(smiley, " ");
      }
      const label = document.createElement("span");
      label.className = "meal-totals__label";
      label.textContent = WDiet.t(LABELS[macro.macro]);
      const grams = document.createElement("strong");
      const amount = WDiet.formatInt(macro.grams);
      grams.textContent = WDiet.t("meals.gramsCompact", { grams: amount });
      item.append(label, " ", grams);
      list.appendChild(item);
      const said = { label: WDiet.t(LABELS[macro.macro]), grams: amount };
      spoken.push(macro.smiley
        ? WDiet.t("meals.summaryMacroVerdict", Object.assign(said, { verdict: WDiet.t(VERDICTS[macro.smiley]) }))
        : WDiet.t("meals.summaryMacro", said));
    });
    $("totals-summary").textContent = [
      WDiet.t("meals.summaryTotals", { eaten, target }), ...spoken, WDiet.t("meals.summaryMeals", { count: day.totals.mealCount }),
    ].join(" ");
  }

  function syncEmptyState() {
    const list = $("meal-list");
    const empty = list.children.length === 0;
    list.hidden = empty;
    $("meal-empty").hidden = !empty;
    $("add-meal").textContent = WDiet.t(empty ? "meals.logTitle" : "meals.addAnother");
  }

  // ---- Delete with undo ----
  document.querySelectorAll(".meal-row__delete").forEach((form) => {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const row = form.closest(".meal-row");
      const id = row.dataset.mealId;
      const list = row.parentNode, next = row.nextSibling;
      const button = form.querySelector("button");
      button.disabled = true;
      try {
        await WDiet.api("DELETE", `/api/v1/meals/${id}`);
      } catch (error) {
        button.disabled = false;
        WDiet.toast(error.message);
        return;
      }
      row.remove();
      syncEmptyState();
      refreshTotals();
      WDiet.toast(WDiet.t("meals.deleted"), {
        actionLabel: WDiet.t("meals.undo"), duration: 8000,
        onAction: async () => {
          try {
            await WDiet.api("POST", `/api/v1/meals/${id}/restore`);
          } catch (error) {
            WDiet.toast(error.message);
            return;
          }
          button.disabled = false;
          list.insertBefore(row, next && next.parentNode === list ? next : null);
          syncEmptyState();
          refreshTotals();
          WDiet.toast(WDiet.t("meals.restored"));
        },
      });
    });
  });

  // ---- The edit form ----
  const editForm = $("edit-form");
  if (!editForm) return;
  const inputs = Array.from(editForm.querySelectorAll("input:not([type=hidden])"));
  const isDirty = () => inputs.some((input) => input.value !== input.defaultValue);
  const guard = window.WDietMealGuard.install(isDirty);

  const grams = $("edit-grams");
  function fieldError(input, message) {
    const error = document.getElementById(input.getAttribute("aria-describedby"));
    input.closest(".field").classList.toggle("field--invalid", Boolean(message));
    if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    if (error) { error.textContent = message || ""; error.hidden = !message; }
  }

  function problem(input) {
    const value = parse(input.value);
    switch (input.name) {
      case "calories": return value !== null && value >= 1 && value <= 9999 ? null : editForm.dataset.calorieMessage;
      case "grams": return value !== null && value >= 0.1 && value <= 5000 ? null : editForm.dataset.amountMessage;
      case "name": return input.value.trim().length > 100 ? WDiet.t("meals.nameTooLong") : null;
      case "time": return /^\d{1,2}:\d{2}(:\d{2})?$/.test(input.value) ? null : WDiet.t("days.timeError");
      default: return value === null || (value >= 0 && value <= 999) ? null : WDiet.t(`meals.${input.name}Range`);
    }
  }

  if (grams && editForm.dataset.kcal) {
    // The server rescales from the food's values per 100 g with the same rounding.
    const per100 = (name) => Number(editForm.dataset[name]);
    grams.addEventListener("input", () => {
      const value = parse(grams.value);
      const g = value !== null && value >= 0.1 && value <= 5000 ? value : 0;
      ["kcal", "protein", "carbs", "fat"].forEach((name) => {
        $(`edit-${name}`).textContent = plain(per100(name) * (g / 100));
      });
    });
  }

  inputs.forEach((input) => {
    input.addEventListener("blur", () => fieldError(input, problem(input)));
    input.addEventListener("input", () => { if (input.getAttribute("aria-invalid") === "true") fieldError(input, problem(input)); });
  });

  editForm.addEventListener("submit", (event) => {
    let firstInvalid = null;
    inputs.forEach((input) => {
      const message = problem(input);
      fieldError(input, message);
      if (message && !firstInvalid) firstInvalid = input;
    });
    if (firstInvalid) { event.preventDefault(); firstInvalid.focus(); return; }
    guard.allowLeave();
  });

  const deleteForm = $("edit-delete");
  deleteForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const id = deleteForm.dataset.mealId;
    try {
      await WDiet.api("DELETE", `/api/v1/meals/${id}`);
    } catch (error) {
      WDiet.toast(error.message);
      return;
    }
    guard.allowLeave();
    const day = deleteForm.dataset.dayQuery ? `&${deleteForm.dataset.dayQuery.slice(1)}` : "";
    window.location.assign(`/meals/today?deleted=${encodeURIComponent(id)}${day}`);
  });
})();
