// The profile steps of onboarding (000 Step 12): one step at a time, Back always available, Next blocked by the
// same messages the API uses (WDietCore ProfileValidator, 001 §5). The last step saves with PUT /api/v1/profile.
"use strict";

(function () {
  const form = document.getElementById("wizard");
  if (!form) return;

  // The API's own words, from the catalog in the page's language (profile.* are ProfileValidator's messages).
  const MESSAGES = {
    genderMissing: WDiet.t("profile.genderMissing"),
    dateInvalid: WDiet.t("profile.tooOld"),
    birthInFuture: WDiet.t("profile.birthInFuture"),
    tooYoung: WDiet.t("profile.tooYoung"),
    notANumber: WDiet.t("profile.notANumber"),
    heightTooLow: WDiet.t("profile.heightTooLow"),
    heightTooHigh: WDiet.t("profile.heightTooHigh"),
    activityMissing: WDiet.t("profile.activityMissing"),
    goalMissing: WDiet.t("profile.goalMissing"),
    tooFewMoments: WDiet.t("onboarding.tooFewMoments"),
    tooManyMoments: WDiet.t("onboarding.tooManyMoments"),
  };
  const DEFAULT_WEIGHT_KG = { male: 90, female: 70, other: 80 };
  const LB_PER_KG = 2.2046226218;
  const CM_PER_INCH = 2.54;
  const WINDOW_MINUTES = 360;
  const STEP_MINUTES = 30;
  const DEFAULT_WINDOW_START = 12 * 60;
  const MIN_MOMENTS = 2;
  const MAX_MOMENTS = 5;
  // 000: Welcome, Gender, Age, Height, Weight, Activity, Goal, and the eating window only for Lose.
  const ALL_STEPS = ["welcome", "gender", "age", "height", "weight", "activity", "goal", "window"];

  const $ = (selector) => form.querySelector(selector);
  const sections = new Map(Array.from(form.querySelectorAll("[data-step]")).map((s) => [s.dataset.step, s]));
  const nextButton = document.getElementById("wizard-next");
  const count = document.getElementById("wizard-count");
  const progress = document.getElementById("wizard-progress");
  const wizardError = document.getElementById("wizard-error");

  const state = {
    step: "gender",
    weightTouched: false,
    // Offsets from the window's start, so moving the window carries the moments along.
    momentOffsets: [0, 180, 330],
    windowStart: DEFAULT_WINDOW_START,
  };

  // ---- Small helpers ----
  const checked = (name) => { const input = form.querySelector(`input[name="${name}"]:checked`); return input ? input.value : null; };
  const steps = () => (checked("goal") && checked("goal") !== "lose") ? ALL_STEPS.slice(0, 7) : ALL_STEPS;

  /** 720 → "12pm", 750 → "12:30pm" (000 writes the window as "12pm - 6pm"). */
  function clock12(minuteOfDay) {
    const minute = ((minuteOfDay % 1440) + 1440) % 1440;
    const hour24 = Math.floor(minute / 60);
    const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
    const suffix = hour24 < 12 ? "am" : "pm";
    const minutes = minute % 60;
    return minutes === 0 ? `${hour12}${suffix}` : `${hour12}:${String(minutes).padStart(2, "0")}${suffix}`;
  }
  const clock24 = (minute) => `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
  // A time as the page's language writes it: 12:30pm in English, 12:30 in German (as the server writes its labels).
  const clock = (minuteOfDay) => WDiet.lang === "en" ? clock12(minuteOfDay) : clock24(((minuteOfDay % 1440) + 1440) % 1440);
  const unitLabel = (unit) => WDiet.t(unit === "lb" ? "onboarding.unitLb" : "onboarding.unitKg");

  function showError(stepName, message) {
    const target = sections.get(stepName).querySelector(".field__error[data-error-for]");
    if (target) target.textContent = message || "";
    const section = sections.get(stepName);
    section.querySelectorAll(".field").forEach((field) => field.classList.toggle("field--invalid", Boolean(message)));
    section.querySelectorAll("input:not([type=radio]):not([type=range]), select").forEach((input) => {
      if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    });
  }

  // ---- Age ----
  function parseDate(text) {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text || "");
    if (!match) return null;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    return date.getUTCMonth() === month - 1 ? { year, month, day } : null;
  }
  function todayParts() {
    const now = new Date();
    return { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
  }
  function ageOn(birth, today) {
    let age = today.year - birth.year;
    if (today.month < birth.month || (today.month === birth.month && today.day < birth.day)) age -= 1;
    return age;
  }
  function ageError() {
    const birth = parseDate($("#date-of-birth").value);
    if (!birth) return MESSAGES.dateInvalid;
    const today = todayParts();
    const age = ageOn(birth, today);
    const future = birth.year * 10000 + birth.month * 100 + birth.day > today.year * 10000 + today.month * 100 + today.day;
    if (future) return MESSAGES.birthInFuture;
    if (age < 13) return MESSAGES.tooYoung;
    if (age > 120) return MESSAGES.dateInvalid;
    return null;
  }
  function currentAge() {
    const birth = parseDate($("#date-of-birth").value);
    return birth ? ageOn(birth, todayParts()) : null;
  }
  function updateAgeHint() {
    const age = currentAge();
    const hint = age !== null && age >= 0 && age <= 120 ? WDiet.t("onboarding.ageHint", { age: WDiet.formatInt(age) }) : "";
    $("#age-hint").textContent = hint;
    updateMinorNote();
  }
  function updateMinorNote() {
    const age = currentAge();
    $("#minor-note").hidden = !(age !== null && age < 18 && checked("goal") === "lose");
  }

  // ---- Height ----
  function heightCm() {
    if (checked("heightUnit") === "ftIn") {
      const feet = $("#height-ft").value.trim();
      const inches = $("#height-in").value.trim();
      if (feet === "" || !isFinite(Number(feet)) || (inches !== "" && !isFinite(Number(inches)))) return NaN;
      return Math.round((Number(feet) * 12 + Number(inches || 0)) * CM_PER_INCH * 10) / 10;
    }
    const text = $("#height-cm").value.trim();
    return text === "" ? NaN : Number(text);
  }
  function heightError() {
    const cm = heightCm();
    if (!isFinite(cm)) return MESSAGES.notANumber;
    if (cm < 50) return MESSAGES.heightTooLow;
    if (cm > 300) return MESSAGES.heightTooHigh;
    return null;
  }
  function switchHeightUnit() {
    const unit = checked("heightUnit");
    // Convert what was typed, so switching units never loses the value.
    const other = unit === "ftIn" ? "cm" : "ftIn";
    form.querySelector(`input[name="heightUnit"][value="${other}"]`).checked = true;
    const cm = heightCm();
    form.querySelector(`input[name="heightUnit"][value="${unit}"]`).checked = true;
    if (isFinite(cm) && cm > 0) {
      if (unit === "ftIn") {
        const totalInches = Math.round(cm / CM_PER_INCH);
        $("#height-ft").value = Math.floor(totalInches / 12);
        $("#height-in").value = totalInches % 12;
      } else {
        $("#height-cm").value = Math.round(cm);
      }
    }
    form.querySelectorAll("[data-height-unit]").forEach((el) => { el.hidden = el.dataset.heightUnit !== unit; });
    showError("height", null);
  }

  // ---- Weight picker ----
  const wholeSelect = $("#weight-whole");
  const decimalSelect = $("#weight-decimal");
  function pickerRange(unit) {
    // 30.0–200.0 kg (PRODUCT.md), the same span in pounds.
    return unit === "lb" ? [66, 440] : [30, 200];
  }
  function fillWholes(unit) {
    const [low, high] = pickerRange(unit);
    wholeSelect.textContent = "";
    for (let value = low; value <= high; value += 1) {
      const option = document.createElement("option");
      option.value = String(value);
      option.textContent = WDiet.formatInt(value);
      wholeSelect.appendChild(option);
    }
  }
  /** The picked weight in the picker's unit. */
  const pickedWeight = () => Number(wholeSelect.value) + Number(decimalSelect.value) / 10;
  function weightKg() {
    const value = pickedWeight();
    return checked("weightUnit") === "lb" ? Math.round((value / LB_PER_KG) * 100) / 100 : value;
  }
  function setPicker(value) {
    const unit = checked("weightUnit");
    const [low, high] = pickerRange(unit);
    const tenths = Math.round(Math.min(Math.max(value, low), high + 0.9) * 10);
    wholeSelect.value = String(Math.min(Math.floor(tenths / 10), high));
    decimalSelect.value = String(tenths % 10);
    updateWeightText();
    centerWheels();
  }
  /** Like a picker wheel: the chosen value sits in the middle of its column. */
  function centerWheels() {
    [wholeSelect, decimalSelect].forEach((select) => {
      if (select.selectedIndex < 0 || select.offsetParent === null) return;
      const row = select.scrollHeight / select.options.length;
      select.scrollTop = select.selectedIndex * row - (select.clientHeight - row) / 2;
    });
  }
  function updateWeightText() {
    const unit = checked("weightUnit");
    form.querySelectorAll("[data-weight-unit-label]").forEach((el) => { el.textContent = unitLabel(unit); });
    const caption = WDiet.t("onboarding.weightValue", { weight: WDiet.formatNumber(pickedWeight(), 1), unit: unitLabel(unit) });
    $("#weight-value").textContent = caption;
  }
  function switchWeightUnit() {
    const unit = checked("weightUnit");
    const previous = unit === "lb" ? "kg" : "lb";
    const value = pickedWeight();
    const kg = previous === "lb" ? value / LB_PER_KG : value;
    fillWholes(unit);
    setPicker(unit === "lb" ? kg * LB_PER_KG : kg);
  }
  /** Until the user touches the picker it follows the gender's default: 90 / 70 / 80 kg (000 Step 12). */
  function applyWeightDefault() {
    if (state.weightTouched) return;
    const kg = DEFAULT_WEIGHT_KG[checked("sex") || "other"];
    setPicker(checked("weightUnit") === "lb" ? kg * LB_PER_KG : kg);
  }

  // ---- Eating window and moments ----
  const slider = $("#window-start");
  const bands = form.querySelectorAll("[data-band]");
  function renderWindow() {
    const start = state.windowStart;
    const end = (start + WINDOW_MINUTES) % 1440;
    const range = { start: clock(start), end: clock(end) };
    const shown = WDiet.t("onboarding.windowRange", range);
    const spoken = WDiet.t("onboarding.windowRangeSpoken", range);
    $("#window-range").textContent = shown;
    slider.setAttribute("aria-valuetext", spoken);
    $("#window-default").hidden = start !== DEFAULT_WINDOW_START;
    // The band on a 24-hour track; a window past midnight is drawn in two pieces.
    const first = Math.min(WINDOW_MINUTES, 1440 - start);
    bands[0].style.left = `${(start / 1440) * 100}%`;
    bands[0].style.width = `${(first / 1440) * 100}%`;
    bands[1].hidden = first === WINDOW_MINUTES;
    bands[1].style.left = "0%";
    bands[1].style.width = `${((WINDOW_MINUTES - first) / 1440) * 100}%`;
    renderMoments();
  }
  function renderMoments() {
    const track = form.querySelector(".timeline__track");
    track.querySelectorAll(".timeline__moment").forEach((dot) => dot.remove());
    form.querySelectorAll(".moment").forEach((button) => {
      const offset = Number(button.dataset.offset);
      const minute = (state.windowStart + offset) % 1440;
      const on = state.momentOffsets.includes(offset);
      button.textContent = clock(minute);
      button.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) {
        const dot = document.createElement("span");
        dot.className = "timeline__moment";
        dot.style.left = `${(minute / 1440) * 100}%`;
        track.appendChild(dot);
      }
    });
    const n = state.momentOffsets.length;
    const times = state.momentOffsets.slice().sort((a, b) => a - b).map((o) => clock(state.windowStart + o)).join(", ");
    const summary = WDiet.t("onboarding.momentsCount", { count: n, times: times || WDiet.t("onboarding.momentsNone") });
    $("#moments-count").textContent = summary;
  }
  function toggleMoment(offset) {
    const index = state.momentOffsets.indexOf(offset);
    if (index >= 0) {
      state.momentOffsets.splice(index, 1);
      showError("window", null);
    } else if (state.momentOffsets.length >= MAX_MOMENTS) {
      showError("window", MESSAGES.tooManyMoments);
      return;
    } else {
      state.momentOffsets.push(offset);
      showError("window", null);
    }
    renderMoments();
    saveDraft();
  }
  function momentsError() {
    const n = state.momentOffsets.length;
    if (n < MIN_MOMENTS) return MESSAGES.tooFewMoments;
    if (n > MAX_MOMENTS) return MESSAGES.tooManyMoments;
    return null;
  }

  // ---- Validation per step ----
  function stepError(name) {
    switch (name) {
      case "gender": return checked("sex") ? null : MESSAGES.genderMissing;
      case "age": return ageError();
      case "height": return heightError();
      case "activity": return checked("activity") ? null : MESSAGES.activityMissing;
      case "goal": return checked("goal") ? null : MESSAGES.goalMissing;
      case "window": return momentsError();
      default: return null;
    }
  }

  // ---- Navigation ----
  function render(focus) {
    const order = steps();
    const index = Math.max(order.indexOf(state.step), 0);
    sections.forEach((section, name) => { section.hidden = name !== state.step; });
    const number = index + 1;
    const counted = WDiet.t("onboarding.stepCount", { step: WDiet.formatInt(number), total: WDiet.formatInt(order.length) });
    count.textContent = counted;
    progress.max = order.length;
    progress.value = number;
    progress.textContent = counted;
    const last = index === order.length - 1;
    const action = state.step === "welcome" ? WDiet.t("welcome.getStarted") : last ? WDiet.t("onboarding.finish") : WDiet.t("onboarding.next");
    nextButton.textContent = action;
    // Step 1 (the welcome) has nothing before it: the account step is done once there is a session.
    form.querySelector("[data-back]").hidden = index === 0;
    wizardError.hidden = true;
    if (state.step === "window") renderWindow();
    if (state.step === "weight") centerWheels();
    if (focus) {
      const stepHeading = sections.get(state.step).querySelector("h1");
      if (stepHeading) stepHeading.focus({ preventScroll: true });
      window.scrollTo(0, 0);
    }
  }

  // Each Next is a browser history entry, so the phone's own back gesture walks the steps too. `depth` counts the
  // entries this page pushed: Back pops them while there are any, and past that (after a reload) replaces.
  let depth = 0;
  function go(step, { push } = { push: true }) {
    state.step = step;
    if (push) { depth += 1; history.pushState({ step, depth }, "", `#${step}`); }
    else history.replaceState({ step, depth }, "", `#${step}`);
    render(true);
    saveDraft();
  }

  function next() {
    const error = stepError(state.step);
    showError(state.step, error);
    if (error) {
      const invalid = sections.get(state.step).querySelector("input:not([type=hidden])");
      if (invalid && invalid.type !== "radio") invalid.focus();
      return;
    }
    const order = steps();
    const index = order.indexOf(state.step);
    if (index === order.length - 1) { save(); return; }
    stepCompleted(state.step, index);
    go(order[index + 1]);
  }

  // onboarding_step_completed (004 Story 5.2) for the profile steps, which only this page sees; the server counts
  // the account step (step 1, as the page numbers it) and onboarding_finished. Each step once, however often the
  // user walks back over it.
  const COMPLETED_KEY = "wdiet.onboarding.completed";
  function stepCompleted(step, index) {
    try {
      const done = JSON.parse(sessionStorage.getItem(COMPLETED_KEY) || "[]");
      if (done.includes(step)) return;
      done.push(step);
      sessionStorage.setItem(COMPLETED_KEY, JSON.stringify(done));
    } catch (_) { /* private mode: count it anyway */ }
    if (WDiet.analytics) WDiet.analytics.track("onboarding_step_completed", { step, step_number: String(index + 1) });
  }

  function back() {
    const order = steps();
    const index = order.indexOf(state.step);
    if (index <= 0) return;
    if (depth > 0) { history.back(); return; }
    go(order[index - 1], { push: false });
  }

  window.addEventListener("popstate", (event) => {
    const step = (event.state && event.state.step) || "gender";
    depth = (event.state && event.state.depth) || 0;
    if (sections.has(step)) { state.step = step; render(true); saveDraft(); }
  });

  // ---- Saving ----
  const STEP_OF_MEMBER = {
    sex: "gender", dateOfBirth: "age", heightCm: "height", weightKg: "weight",
    activity: "activity", goal: "goal", mealsPerDay: "window", eatingWindowStart: "window",
  };
  function body() {
    const goal = checked("goal");
    const payload = {
      sex: checked("sex"),
      dateOfBirth: $("#date-of-birth").value,
      heightCm: heightCm(),
      weightKg: weightKg(),
      activity: checked("activity"),
      goal,
      weightUnit: checked("weightUnit"),
      heightUnit: checked("heightUnit"),
      timeZone: browserTimeZone(),
    };
    if (goal === "lose") {
      payload.eatingWindowStart = clock24(state.windowStart);
      payload.mealsPerDay = state.momentOffsets.length;
    }
    return payload;
  }
  function browserTimeZone() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"; } catch (_) { return "UTC"; }
  }

  let saving = false;
  async function save() {
    if (saving) return;
    saving = true;
    nextButton.disabled = true;
    const savingLabel = WDiet.t("onboarding.saving");
    nextButton.textContent = savingLabel;
    try {
      const payload = body();
      try {
        await WDiet.api("PUT", "/api/v1/profile", payload);
      } catch (error) {
        // A zone the browser knows but the server does not should not block the last step: start on UTC, which
        // Settings can change.
        if (!(error.fields && error.fields.timeZone) || payload.timeZone === "UTC") throw error;
        await WDiet.api("PUT", "/api/v1/profile", Object.assign(payload, { timeZone: "UTC" }));
      }
      const order = steps();
      stepCompleted(state.step, order.indexOf(state.step));
      try { sessionStorage.removeItem(DRAFT_KEY); sessionStorage.removeItem(COMPLETED_KEY); } catch (_) { /* private mode */ }
      if (WDiet.analytics) WDiet.analytics.markNavigating();
      location.assign("/dashboard");
    } catch (error) {
      saving = false;
      nextButton.disabled = false;
      render(false);
      const fields = error.fields || {};
      const first = Object.keys(STEP_OF_MEMBER).find((member) => fields[member]);
      if (first) {
        go(STEP_OF_MEMBER[first]);
        showError(STEP_OF_MEMBER[first], fields[first]);
      } else {
        const offline = WDiet.t("onboarding.offlineKept");
        const fallback = WDiet.t("common.somethingWentWrong");
        wizardError.textContent = error.status === 0 ? offline : (error.message || fallback);
        wizardError.hidden = false;
      }
    }
  }

  // ---- Draft: a reload keeps the answers given so far ----
  const DRAFT_KEY = "wdiet.onboarding.draft";
  function saveDraft() {
    const draft = {
      step: state.step, sex: checked("sex"), dateOfBirth: $("#date-of-birth").value,
      heightUnit: checked("heightUnit"), heightCm: $("#height-cm").value, heightFt: $("#height-ft").value, heightIn: $("#height-in").value,
      weightUnit: checked("weightUnit"), weight: pickedWeight(), weightTouched: state.weightTouched,
      activity: checked("activity"), goal: checked("goal"), windowStart: state.windowStart, momentOffsets: state.momentOffsets,
    };
    try { sessionStorage.setItem(DRAFT_KEY, JSON.stringify(draft)); } catch (_) { /* private mode: no draft */ }
  }
  function setRadio(name, value) {
    const input = value && form.querySelector(`input[name="${name}"][value="${value}"]`);
    if (input) input.checked = true;
  }
  function restoreDraft() {
    let draft = null;
    try { draft = JSON.parse(sessionStorage.getItem(DRAFT_KEY) || "null"); } catch (_) { draft = null; }
    if (!draft) return;
    setRadio("sex", draft.sex);
    $("#date-of-birth").value = draft.dateOfBirth || "";
    setRadio("heightUnit", draft.heightUnit);
    $("#height-cm").value = draft.heightCm || "";
    $("#height-ft").value = draft.heightFt || "";
    $("#height-in").value = draft.heightIn || "";
    form.querySelectorAll("[data-height-unit]").forEach((el) => { el.hidden = el.dataset.heightUnit !== checked("heightUnit"); });
    setRadio("weightUnit", draft.weightUnit);
    fillWholes(checked("weightUnit"));
    state.weightTouched = Boolean(draft.weightTouched);
    if (typeof draft.weight === "number") setPicker(draft.weight);
    setRadio("activity", draft.activity);
    setRadio("goal", draft.goal);
    if (Number.isInteger(draft.windowStart)) state.windowStart = draft.windowStart;
    if (Array.isArray(draft.momentOffsets)) state.momentOffsets = draft.momentOffsets.filter(Number.isInteger).slice(0, MAX_MOMENTS);
    if (sections.has(draft.step) && steps().includes(draft.step)) state.step = draft.step;
    slider.value = String(state.windowStart / STEP_MINUTES);
    updateAgeHint();
  }

  // ---- Wiring ----
  form.addEventListener("submit", (event) => { event.preventDefault(); next(); });
  form.querySelector("[data-back]").addEventListener("click", back);
  form.addEventListener("change", (event) => {
    const target = event.target;
    if (target.name === "sex") applyWeightDefault();
    if (target.name === "heightUnit") switchHeightUnit();
    if (target.name === "weightUnit") switchWeightUnit();
    if (target === wholeSelect || target === decimalSelect) { state.weightTouched = true; updateWeightText(); centerWheels(); }
    if (target.name === "goal") { updateMinorNote(); render(false); }
    if (target.type === "radio" && target.name !== "heightUnit" && target.name !== "weightUnit") showError(state.step, null);
    saveDraft();
  });
  form.addEventListener("input", (event) => {
    const target = event.target;
    if (target === slider) {
      state.windowStart = Number(slider.value) * STEP_MINUTES;
      renderWindow();
    }
    if (target.id === "date-of-birth") updateAgeHint();
    if (target.type === "number" || target.type === "date") showError(state.step, null);
    if (target === wholeSelect || target === decimalSelect) { state.weightTouched = true; updateWeightText(); }
    saveDraft();
  });
  // A date typed in full is checked as soon as the field is left (000: business rules on blur).
  $("#date-of-birth").addEventListener("blur", () => { if ($("#date-of-birth").value) showError("age", ageError()); });
  $("#height-cm").addEventListener("blur", () => { if ($("#height-cm").value) showError("height", heightError()); });
  form.querySelectorAll(".moment").forEach((button) => {
    button.addEventListener("click", () => toggleMoment(Number(button.dataset.offset)));
  });

  restoreDraft();
  applyWeightDefault();
  updateWeightText();
  history.replaceState({ step: state.step, depth: 0 }, "", `#${state.step}`);
  render(false);
})();
