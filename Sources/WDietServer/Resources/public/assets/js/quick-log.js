// Log Meal's quick logging (issue 17): the slot, recents, favourites and saved meals (one tap logs, with Undo),
// stars, "same as yesterday", and a meal of several foods (the basket) saved at once. Loaded before log-meal.js,
// which hands it the portion step (`connect`) and asks it for the slot and time of what it saves (`when`).
"use strict";

window.WDietQuickLog = (function () {
  const $ = (id) => document.getElementById(id);
  const root = $("quick-log");
  if (!root) return null;
  const data = JSON.parse(root.dataset.quick || "{}");
  const foods = data.foods || {};
  const timeInput = $("log-time");
  let slot = (root.querySelector(".slot-picker__option[aria-pressed=true]") || root.querySelector(".slot-picker__option")).dataset.slot;
  let timeEdited = false;
  let busy = false;
  const basket = [];
  let hooks = { openFood: () => {}, focusSearch: () => {} };

  const tenth = (value) => Math.round(value * 10) / 10;
  const formatTenth = (value) => {
    const rounded = tenth(value);
    return WDiet.formatNumber(rounded, Number.isInteger(rounded) ? 0 : 1);
  };
  const kcalText = (kcal) => WDiet.formatInt(kcal);
  const slotLabel = () => WDiet.t(`meals.${slot}`);

  // ---- When: the slot, and on a past day the time (the slot's middle until the person sets one) ----
  /** The instant of a local date and time ("2026-11-24", "08:00") in the profile's time zone, as the API takes it. */
  function zonedInstant(date, time, timeZone) {
    const [y, m, d] = date.split("-").map(Number);
    const [hh, mm] = time.split(":").map(Number);
    const wall = Date.UTC(y, m - 1, d, hh, mm);
    const format = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    const offset = (ms) => {
      const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
      return Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour % 24, +parts.minute, +parts.second) - ms;
    };
    let guess = wall - offset(wall);
    guess = wall - offset(guess);
    return new Date(guess).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  /** The slot and (on a past day) the time every save carries. */
  function when() {
    const body = { slot };
    if (data.isPast && timeInput) body.loggedAt = zonedInstant(data.date, timeInput.value || "12:00", data.timeZone);
    return body;
  }

  function selectSlot(value) {
    slot = value;
    root.querySelectorAll(".slot-picker__option").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.slot === value)));
    root.querySelectorAll("[data-copy-slot]").forEach((b) => { b.hidden = b.dataset.copySlot !== value; });
    if (timeInput && !timeEdited) {
      const chosen = root.querySelector(`.slot-picker__option[data-slot="${value}"]`);
      timeInput.value = chosen.dataset.middle;
    }
    renderBasket();
  }
  root.querySelectorAll(".slot-picker__option").forEach((button) => button.addEventListener("click", () => selectSlot(button.dataset.slot)));
  if (timeInput) timeInput.addEventListener("input", () => { timeEdited = true; });

  // ---- Logging now, with Undo ----
  /** Meals just made can be taken back: each is deleted (a soft delete, as the meals list's Undo restores). */
  function offerUndo(message, meals) {
    WDiet.toast(message, {
      actionLabel: WDiet.t("meals.undo"), duration: 8000,
      onAction: async () => {
        try {
          for (const meal of meals) await WDiet.api("DELETE", `/api/v1/meals/${meal.id}`);
          WDiet.toast(WDiet.t("quicklog.undone"));
        } catch (error) {
          WDiet.toast(error.message);
        }
      },
    });
  }
  const totalKcal = (meals) => meals.reduce((sum, meal) => sum + meal.calories, 0);
  function announceLogged(meals, name) {
    const message = meals.length === 1 && name
      ? WDiet.t("quicklog.logged", { name, kcal: kcalText(meals[0].calories) })
      : WDiet.t("quicklog.loggedSeveral", { count: meals.length, kcal: kcalText(totalKcal(meals)) });
    offerUndo(message, meals);
  }

  async function run(button, action) {
    if (busy) return;
    busy = true;
    if (button) button.disabled = true;
    try {
      await action();
    } catch (error) {
      WDiet.toast(Object.values(error.fields || {})[0] || error.message);
    } finally {
      busy = false;
      if (button) button.disabled = false;
    }
  }

  /** The meal body of a recent or a favourite: its food and last amount, or a manual meal's values. */
  function bodyOf(entry) {
    if (entry.foodId) return entry.grams ? { foodId: entry.foodId, grams: entry.grams } : { foodId: entry.foodId, grams: 100 };
    const body = { name: entry.name, calories: entry.calories };
    ["protein", "carbs", "fat", "fiber"].forEach((key) => { if (entry[key] !== null && entry[key] !== undefined) body[key] = entry[key]; });
    return body;
  }
  const displayName = (entry) => (entry.foodId && foods[entry.foodId] ? foods[entry.foodId].shortName : entry.name);
  const amountText = (entry) => (entry.grams ? WDiet.t("quicklog.gramsShort", { grams: formatTenth(entry.grams) }) : "");

  /** One tap: log it now, or add it to the meal being built. */
  function pick(entry, button) {
    const item = { name: displayName(entry), body: bodyOf(entry), kcal: entry.calories, amount: amountText(entry), food: foods[entry.foodId] || null };
    if (basket.length > 0) {
      addToBasket(item);
      // The basket may be above the screen: say what it holds now.
      WDiet.toast(WDiet.t("quicklog.addedToMeal", { name: item.name, kcal: kcalText(basket.reduce((sum, food) => sum + food.kcal, 0)) }), { duration: 2500 });
      return;
    }
    run(button, async () => {
      const body = Object.assign({ id: WDiet.newId() }, item.body, when());
      const meal = await WDiet.api("POST", "/api/v1/meals", body);
      announceLogged([meal], item.name);
    });
  }

  /** The second control: the portion step (a catalog food) or the manual form (a meal entered by hand). */
  function adjust(entry) {
    if (entry.foodId && foods[entry.foodId]) hooks.openFood(foods[entry.foodId], { grams: entry.grams || 100 });
    else hooks.openManual(entry);
  }

  // ---- Stars ----
  const favouriteByFood = (foodId) => (data.favourites || []).find((f) => f.foodId === foodId);
  async function toggleStar(entry) {
    const starred = entry.foodId ? favouriteByFood(entry.foodId) : (data.favourites || []).find((f) => !f.foodId && f.name.toLowerCase() === entry.name.toLowerCase());
    if (starred) {
      await WDiet.api("DELETE", `/api/v1/favourites/${starred.id}`);
      data.favourites = data.favourites.filter((f) => f.id !== starred.id);
      WDiet.toast(WDiet.t("quicklog.unstarred"));
    } else {
      const body = Object.assign({ id: WDiet.newId() }, entry.body || bodyOf(entry));
      const favourite = await WDiet.api("POST", "/api/v1/favourites", body);
      data.favourites = [favourite].concat((data.favourites || []).filter((f) => f.id !== favourite.id));
      if (entry.food) foods[entry.food.id] = entry.food;
      WDiet.toast(WDiet.t("quicklog.starred"));
    }
    renderLists();
  }
  const isStarred = (entry) => (entry.foodId ? Boolean(favouriteByFood(entry.foodId))
    : (data.favourites || []).some((f) => !f.foodId && f.name.toLowerCase() === entry.name.toLowerCase()));

  // ---- The lists ----
  function starButton(entry, name) {
    const star = document.createElement("button");
    star.type = "button";
    star.className = "icon-button quick-star";
    const on = isStarred(entry);
    star.classList.toggle("quick-star--on", on);
    star.setAttribute("aria-label", WDiet.t(on ? "quicklog.unstarNamed" : "quicklog.starNamed", { name }));
    const icon = document.createElement("span");
    icon.setAttribute("aria-hidden", "true");
    icon.textContent = on ? "★" : "☆";
    star.appendChild(icon);
    star.addEventListener("click", () => run(star, () => toggleStar(entry)));
    return star;
  }

  function iconButton(className, icon, label, onClick) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `icon-button ${className}`;
    button.setAttribute("aria-label", label);
    const span = document.createElement("span");
    span.setAttribute("aria-hidden", "true");
    span.textContent = icon;
    button.appendChild(span);
    button.addEventListener("click", onClick);
    return button;
  }

  function foodRow(entry) {
    const name = displayName(entry);
    const item = document.createElement("li");
    item.className = "quick-item";
    const main = document.createElement("button");
    main.type = "button";
    main.className = "quick-item__log";
    main.dataset.quickName = name;
    const label = document.createElement("span");
    label.className = "quick-item__name";
    label.textContent = name;
    const detail = document.createElement("span");
    detail.className = "quick-item__detail";
    const amount = amountText(entry);
    detail.textContent = amount ? WDiet.t("quicklog.portionCalories", { amount, kcal: kcalText(entry.calories) })
      : WDiet.t("meals.rowCalories", { calories: kcalText(entry.calories) });
    main.append(label, detail);
    main.addEventListener("click", () => pick(entry, main));
    item.append(main, starButton(entry, name),
      iconButton("quick-item__adjust", "✎", WDiet.t("quicklog.adjustNamed", { name }), () => adjust(entry)));
    return item;
  }

  function savedRow(saved) {
    const item = document.createElement("li");
    item.className = "quick-item quick-item--saved";
    const main = document.createElement("button");
    main.type = "button";
    main.className = "quick-item__log";
    main.dataset.quickName = saved.name;
    const label = document.createElement("span");
    label.className = "quick-item__name";
    label.textContent = saved.name;
    const detail = document.createElement("span");
    detail.className = "quick-item__detail";
    detail.textContent = WDiet.t("quicklog.portionCalories", {
      amount: WDiet.t("quicklog.servingCount", { count: 1 }), kcal: kcalText(saved.perServing.calories) });
    main.append(label, detail);
    const servings = document.createElement("input");
    servings.type = "text";
    servings.inputMode = "decimal";
    servings.className = "quick-item__servings";
    servings.value = WDiet.formatNumber(1);
    servings.setAttribute("aria-label", WDiet.t("quicklog.servingsFor", { name: saved.name }));
    const eaten = () => {
      const value = Number(String(servings.value).trim().replace(",", "."));
      return Number.isFinite(value) && value > 0 ? value : 1;
    };
    // Return in the servings field logs, as the button does.
    servings.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); main.click(); } });
    main.addEventListener("click", () => run(main, async () => {
      const body = Object.assign({ servings: eaten(), requestId: WDiet.newId() }, when());
      const result = await WDiet.api("POST", `/api/v1/saved-meals/${saved.id}/log`, body);
      announceLogged(result.meals, null);
    }));
    const edit = document.createElement("a");
    edit.className = "icon-button quick-item__edit";
    edit.href = `/meals/saved/${saved.id}`;
    edit.setAttribute("aria-label", WDiet.t("quicklog.editSavedNamed", { name: saved.name }));
    const icon = document.createElement("span");
    icon.setAttribute("aria-hidden", "true");
    icon.textContent = "✎";
    edit.appendChild(icon);
    item.append(main, servings, edit);
    return item;
  }

  function fill(sectionId, entries, row) {
    const section = $(sectionId);
    const list = section.querySelector("ul");
    list.replaceChildren(...entries.map(row));
    section.hidden = entries.length === 0;
    return entries.length;
  }

  function renderLists() {
    const shown = fill("quick-recents", data.recents || [], foodRow)
      + fill("quick-favourites", data.favourites || [], foodRow)
      + fill("quick-saved", data.savedMeals || [], savedRow);
    $("quick-empty").hidden = shown > 0;
  }

  /** The lists show while the search field is empty. */
  function showLists(visible) { $("quick-lists").hidden = !visible; }

  // ---- Same as yesterday ----
  root.querySelectorAll("[data-copy-slot]").forEach((button) => button.addEventListener("click", () => run(button, async () => {
    const body = { fromDate: root.dataset.previousDate, toDate: data.date, slot: button.dataset.copySlot, toSlot: slot, requestId: WDiet.newId() };
    const result = await WDiet.api("POST", "/api/v1/meals/copy", body);
    if (!result.meals.length) { WDiet.toast(WDiet.t("quicklog.nothingYesterday")); return; }
    announceLogged(result.meals, null);
  })));

  // ---- The basket: a meal of several foods, saved at once ----
  let editing = -1;
  function addToBasket(item) {
    if (editing >= 0 && editing < basket.length) basket[editing] = item; else basket.push(item);
    editing = -1;
    renderBasket();
    document.dispatchEvent(new Event("meal-guard:changed"));
  }

  function renderBasket() {
    const section = $("basket");
    section.hidden = basket.length === 0;
    $("basket-title").textContent = WDiet.t("quicklog.basketTitle", { slot: slotLabel() });
    const list = $("basket-items");
    list.replaceChildren(...basket.map((item, index) => {
      const row = document.createElement("li");
      row.className = "basket__item";
      const text = document.createElement("span");
      text.className = "basket__text";
      const name = document.createElement("span");
      name.className = "basket__name";
      name.textContent = item.name;
      const detail = document.createElement("span");
      detail.className = "basket__detail";
      detail.textContent = item.amount ? WDiet.t("quicklog.portionCalories", { amount: item.amount, kcal: kcalText(item.kcal) })
        : WDiet.t("meals.rowCalories", { calories: kcalText(item.kcal) });
      text.append(name, detail);
      row.appendChild(text);
      if (item.food) {
        row.appendChild(iconButton("basket__adjust", "✎", WDiet.t("quicklog.adjust", { name: item.name }), () => {
          editing = index;
          hooks.openFood(item.food, item.body.portion ? { portion: item.body.portion, quantity: item.body.quantity } : { grams: item.body.grams });
        }));
      }
      row.appendChild(iconButton("basket__remove", "✕", WDiet.t("quicklog.remove", { name: item.name }), () => {
        basket.splice(index, 1);
        renderBasket();
        document.dispatchEvent(new Event("meal-guard:changed"));
        (basket.length ? $("basket-save") : $("food-query")).focus();
      }));
      return row;
    }));
    $("basket-total").textContent = WDiet.t("quicklog.basketTotal", { kcal: kcalText(basket.reduce((sum, item) => sum + item.kcal, 0)) });
    hooks.basketChanged && hooks.basketChanged();
  }

  $("basket-save").addEventListener("click", () => run($("basket-save"), async () => {
    $("basket-error").hidden = true;
    const items = basket.map((item) => Object.assign({ id: WDiet.newId() }, item.body));
    try {
      const result = await WDiet.api("POST", "/api/v1/meals/batch", Object.assign({ items }, when()));
      basket.length = 0;
      hooks.leave(result.meals[0] && result.meals[0].id);
    } catch (error) {
      $("basket-error").textContent = Object.values(error.fields || {})[0] || error.message;
      $("basket-error").hidden = false;
    }
  }));

  // "Save as Meal": the basket under a name, to log again in one tap (the basket stays, to be logged now too).
  const nameForm = $("basket-name-form"), nameToggle = $("basket-name-toggle"), nameInput = $("basket-name");
  function showNameForm(open) {
    nameForm.hidden = !open;
    nameToggle.setAttribute("aria-expanded", String(open));
    if (open) nameInput.focus(); else nameToggle.focus();
  }
  nameToggle.addEventListener("click", () => showNameForm(nameForm.hidden));
  $("basket-name-cancel").addEventListener("click", () => showNameForm(false));
  nameForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const error = $("basket-name-error");
    run($("basket-name-save"), async () => {
      const body = { id: WDiet.newId(), name: nameInput.value.trim(), servings: 1, slot, items: basket.map((item) => item.body) };
      try {
        const saved = await WDiet.api("POST", "/api/v1/saved-meals", body);
        error.hidden = true;
        nameInput.removeAttribute("aria-invalid");
        data.savedMeals = (data.savedMeals || []).concat([saved]);
        renderLists();
        nameInput.value = "";
        showNameForm(false);
        WDiet.toast(WDiet.t("quicklog.savedAs", { name: saved.name }));
      } catch (failure) {
        error.textContent = (failure.fields && failure.fields.name) || Object.values(failure.fields || {})[0] || failure.message;
        error.hidden = false;
        nameInput.setAttribute("aria-invalid", "true");
        nameInput.focus();
      }
    });
  });

  renderLists();
  renderBasket();

  return {
    /** log-meal.js's side: openFood(food, amount), openManual(entry), leave(mealId), basketChanged(). */
    connect(pageHooks) { hooks = Object.assign(hooks, pageHooks); renderBasket(); },
    when,
    showLists,
    returnPath: root.dataset.return || "/meals/today",
    basketCount: () => basket.length,
    isEditing: () => editing >= 0,
    stopEditing: () => { editing = -1; },
    addToBasket,
    isStarred: (foodId) => Boolean(favouriteByFood(foodId)),
    toggleStar: (entry) => toggleStar(entry),
  };
})();
