// The profile editor (001): live unit conversion, validation on blur and on submit, the confirmations of §12, the
// before/after of the targets (GET /api/v1/profile/preview), and a save that never loses what was typed: every edit
// is kept as a draft in localStorage, an offline save waits there and syncs when the connection returns, a newer
// server copy asks "Keep Local / Use Server", 429 counts down, and a 5xx is retried after 2, 5 and 10 s.
"use strict";

(function () {
  const form = document.getElementById("profile-form");
  if (!form) return;
  const R = window.ProfileRules;
  const $ = (id) => document.getElementById(id);
  const t = WDiet.t;

  const DRAFT_KEY = "wdiet.profileDraft";
  const RETRY_DELAYS = [2000, 5000, 10000];
  const goalTitle = (goal) => ({ lose: t("profile.goalLose"), maintain: t("profile.goalMaintain"), gain: t("profile.goalGain") })[goal];
  const sexTitle = (sex) => ({ male: t("profile.sexMale"), female: t("profile.sexFemale"), other: t("profile.sexOther") })[sex];
  // What each member is called when a message or the conflict dialog names it.
  const FIELD_LABELS = {
    get dateOfBirth() { return t("profile.fieldDateOfBirth"); },
    get sex() { return t("profile.fieldSex"); },
    get genderDescription() { return t("profile.fieldGenderDescription"); },
    get heightCm() { return t("profile.fieldHeight"); },
    get weightKg() { return t("profile.fieldWeight"); },
    get goal() { return t("profile.fieldGoal"); },
    get targetWeightKg() { return t("profile.fieldTargetWeight"); },
    get targetDate() { return t("profile.fieldTargetDate"); },
    get activity() { return t("profile.fieldActivity"); },
    get dietaryPreferences() { return t("profile.fieldDietaryPreferences"); },
    get allergies() { return t("profile.fieldAllergies"); },
    get mealsPerDay() { return t("profile.fieldMealsPerDay"); },
  };
  // Where focus goes for each member's error.
  const FOCUS = {
    dateOfBirth: "date-of-birth", sex: null, genderDescription: "gender-description", heightCm: null, weightKg: "weight", goal: "goal",
    targetWeightKg: "target-weight", targetDate: "target-date", activity: null,
    dietaryPreferences: "preferences-input", allergies: "allergies-input", mealsPerDay: "meals-value",
  };

  const today = form.dataset.today || WDiet.localDate();
  let base = JSON.parse(form.dataset.profile);
  const saveButton = $("profile-save");
  const announcer = $("profile-announcer");
  const errorBanner = $("error-banner");
  const offlineBanner = $("offline-banner");
  const syncBanner = $("sync-banner");

  // ---- State: numbers in metric as typed (NumericInput), the rest read from the form. ----
  const numbers = { heightCm: { value: base.heightCm }, weightKg: { value: base.weightKg },
    targetWeightKg: base.targetWeightKg == null ? { missing: true } : { value: base.targetWeightKg } };
  const tags = { dietaryPreferences: base.dietaryPreferences.slice(), allergies: base.allergies.slice() };
  let mealsPerDay = base.mealsPerDay;
  const touched = new Set();
  let saving = false;
  let pendingLocal = false;   // saved locally, waiting to sync
  let retryTimer = null;
  let rateLimitedUntil = 0;

  const weightUnit = () => form.querySelector('input[name="weightUnitToggle"]:checked').value;
  const heightUnit = () => form.querySelector('input[name="heightUnitToggle"]:checked').value;
  const checked = (name) => { const input = form.querySelector(`input[name="${name}"]:checked`); return input ? input.value : null; };
  const announce = (text) => { announcer.textContent = ""; setTimeout(() => { announcer.textContent = text; }, 30); };
  const online = () => navigator.onLine !== false;

  // ---- Reading and filling the form ----
  function readHeight() {
    if (heightUnit() === "cm") {
      const input = R.parseNumber($("height-cm").value);
      return input;
    }
    const feet = R.parseNumber($("height-ft").value);
    const inches = R.parseNumber($("height-in").value);
    if (feet.missing && inches.missing) return { missing: true };
    if (feet.invalid || inches.invalid) return { invalid: true };
    return { value: R.cmFromFeetAndInches(feet.value || 0, inches.value || 0) };
  }
  function readWeight(id) {
    const input = R.parseNumber($(id).value);
    if (input.value === undefined) return input;
    return { value: weightUnit() === "kg" ? R.tenth(input.value) : R.kgFromPounds(input.value) };
  }
  function showHeight() {
    const h = numbers.heightCm;
    $("height-cm-row").hidden = heightUnit() !== "cm";
    $("height-ftin-row").hidden = heightUnit() === "cm";
    if (h.value === undefined) return;
    $("height-cm").value = R.decimal(R.tenth(h.value));
    const fi = R.feetAndInches(h.value);
    $("height-ft").value = String(fi.feet);
    $("height-in").value = R.decimal(fi.inches);
  }
  const displayWeight = (kg) => R.decimal(weightUnit() === "kg" ? R.tenth(kg) : R.poundsFromKg(kg));
  function showWeights() {
    const unit = weightUnit();
    form.querySelectorAll("[data-weight-unit]").forEach((s) => { s.textContent = unit; });
    form.querySelector("[data-target-unit-copy]").textContent = t("profile.goalWeightIn", { unit });
    ["weightKg", "targetWeightKg"].forEach((member) => {
      const input = $(member === "weightKg" ? "weight" : "target-weight");
      if (numbers[member].value !== undefined) input.value = displayWeight(numbers[member].value);
    });
  }
  // kg, or lbs as the English page writes pounds.
  const weightUnitLabel = () => (weightUnit() === "kg" ? t("profile.unitKg") : t("profile.unitLbs"));
  const weightLabel = (kg) => `${displayWeight(kg)} ${weightUnitLabel()}`;

  /** The draft in metric, as the rules read it. */
  function draft() {
    return {
      dateOfBirth: $("date-of-birth").value, sex: checked("sex"),
      // Only Other carries a description (001 §3): with another choice the (hidden) field's text is not part of it.
      genderDescription: checked("sex") === "other" ? $("gender-description").value : null,
      heightCm: numbers.heightCm, weightKg: numbers.weightKg,
      goal: $("goal").value, targetWeightKg: numbers.targetWeightKg, targetDate: $("target-date").value,
      activity: checked("activity"), dietaryPreferences: R.normalizedTags(tags.dietaryPreferences),
      allergies: R.normalizedTags(tags.allergies), mealsPerDay,
    };
  }
  /** The PUT body: the form's members over the saved ones this page does not show. */
  function body() {
    const d = draft();
    const number = (input) => (input.value !== undefined ? input.value : null);
    return {
      dateOfBirth: d.dateOfBirth, sex: d.sex, genderDescription: R.normalizedGenderDescription(d.genderDescription),
      heightCm: number(d.heightCm), weightKg: number(d.weightKg), goal: d.goal,
      targetWeightKg: number(d.targetWeightKg), targetDate: d.targetDate || null, activity: d.activity,
      dietaryPreferences: d.dietaryPreferences, allergies: d.allergies, mealsPerDay: d.mealsPerDay,
      timeZone: base.timeZone, eatingWindowStart: base.eatingWindowStart, deficit: base.deficit,
      weightUnit: base.weightUnit, heightUnit: base.heightUnit, planStartDate: base.planStartDate,
    };
  }
  const same = (a, b) => JSON.stringify(a == null ? null : a) === JSON.stringify(b == null ? null : b);
  /** The members where the form differs from the saved profile. */
  function changedMembers() {
    const b = body();
    return R.MEMBERS.filter((m) => !same(b[m], base[m]));
  }
  const hasChanges = () => changedMembers().length > 0;

  /** Puts a profile (or a saved draft body) into the form. */
  function fill(p) {
    $("date-of-birth").value = p.dateOfBirth || "";
    form.querySelectorAll('input[name="sex"]').forEach((r) => { r.checked = r.value === p.sex; });
    $("gender-description").value = p.genderDescription || "";
    showGenderDescription();
    numbers.heightCm = p.heightCm == null ? { missing: true } : { value: p.heightCm };
    numbers.weightKg = p.weightKg == null ? { missing: true } : { value: p.weightKg };
    numbers.targetWeightKg = p.targetWeightKg == null ? { missing: true } : { value: p.targetWeightKg };
    if (p.heightCm == null) { $("height-cm").value = ""; $("height-ft").value = ""; $("height-in").value = ""; }
    if (p.weightKg == null) $("weight").value = "";
    if (p.targetWeightKg == null) $("target-weight").value = "";
    showHeight();
    showWeights();
    $("goal").value = p.goal || "";
    $("target-date").value = p.targetDate || "";
    form.querySelectorAll('input[name="activity"]').forEach((r) => { r.checked = r.value === p.activity; });
    tags.dietaryPreferences = (p.dietaryPreferences || []).slice();
    tags.allergies = (p.allergies || []).slice();
    renderTags("dietaryPreferences");
    renderTags("allergies");
    mealsPerDay = p.mealsPerDay || 3;
    renderMeals();
    updateHelper();
  }

  // ---- Haptics (001 §11 "Haptic Palette"): a short vibration where the browser has one (not iOS Safari), never
  // with reduced motion, never before the user has touched the page (the browser would refuse and complain). ----
  const HAPTIC = { focus: 10, selection: 15, press: 10, valid: 30, invalid: 40, saved: 30, saveError: 40, warning: 35 };
  let lastHaptic = { at: 0, ms: 0 };
  function haptic(ms) {
    if (typeof navigator.vibrate !== "function" || WDiet.prefersReducedMotion()) return;
    if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
    const now = Date.now();
    // A lighter one does not cut short a stronger one still running (an error's 40 ms, then the next field's focus).
    if (ms < lastHaptic.ms && now - lastHaptic.at < lastHaptic.ms + 50) return;
    lastHaptic = { at: now, ms };
    try { navigator.vibrate(ms); } catch (_) { /* not allowed here */ }
  }

  // ---- Errors ----
  function setError(member, message) {
    const p = form.querySelector(`[data-error-for="${member}"]`);
    if (!p) return;
    const had = Boolean(p.textContent);
    p.textContent = message ? `⚠️ ${message}` : "";
    const field = p.closest(".field");
    field.classList.toggle("field--invalid", Boolean(message));
    if (message) clearValid(member);
    field.querySelectorAll("input:not([type=radio]), select").forEach((i) => {
      if (message) i.setAttribute("aria-invalid", "true"); else i.removeAttribute("aria-invalid");
    });
    if (message && !had) {
      announce(t("profile.fieldErrorAnnouncement", { field: FIELD_LABELS[member], message }));
      // 001 §11 "Field Blur (Invalid)": the message slides down and the field shakes (none with reduced motion:
      // app.css), with the error's vibration.
      field.classList.remove("field--shake"); p.classList.remove("field__error--enter"); void field.offsetWidth;
      field.classList.add("field--shake"); p.classList.add("field__error--enter");
      haptic(HAPTIC.invalid);
    }
    if (!message && had) announce(t("profile.fieldValidAnnouncement", { field: FIELD_LABELS[member] }));
  }
  function validateField(member) {
    setError(member, R.fieldError(member, draft(), today));
  }

  // ---- Leaving a field (001 §11 "Field Blur"): valid shows green and "✓ Valid weight" for a second; invalid shows
  // its message, brought out from under the sticky Save bar when the field sits low on the screen. ----
  const VALID_TEXT = {
    get dateOfBirth() { return t("profile.validDateOfBirth"); },
    get heightCm() { return t("profile.validHeight"); },
    get weightKg() { return t("profile.validWeight"); },
    get targetWeightKg() { return t("profile.validTargetWeight"); },
    get targetDate() { return t("profile.validTargetDate"); },
  };
  const valueAtFocus = {};
  const validTimers = {};
  form.addEventListener("focusin", (event) => {
    const field = event.target.closest("[data-field]");
    if (field) valueAtFocus[field.dataset.field] = JSON.stringify(draft()[field.dataset.field]);
    if (event.target.matches("input:not([type=radio]), select")) haptic(HAPTIC.focus);
  });
  function validateOnBlur(member) {
    const hadError = Boolean(form.querySelector(`[data-error-for="${member}"]`).textContent);
    const message = R.fieldError(member, draft(), today);
    setError(member, message);
    if (message) { revealError(form.querySelector(`[data-error-for="${member}"]`)); return; }
    const value = draft()[member];
    const filled = value && (typeof value === "string" || value.value !== undefined);
    // Only for something the user just typed or put right: tabbing through the form lights up nothing.
    if (VALID_TEXT[member] && filled && (hadError || valueAtFocus[member] !== JSON.stringify(value))) showValid(member);
  }
  function showValid(member) {
    const field = form.querySelector(`[data-field="${member}"]`);
    let line = field.querySelector(".field__valid");
    if (!line) {
      line = document.createElement("p");
      line.className = "field__valid";
      line.setAttribute("aria-hidden", "true");   // what a screen reader needs is the value, announced elsewhere
      field.insertBefore(line, field.querySelector(".field__error"));
    }
    const check = document.createElement("span");
    check.className = "field__check";
    check.textContent = "✓";
    line.replaceChildren(check, ` ${VALID_TEXT[member]}`);
    clearTimeout(validTimers[member]);
    line.classList.remove("field__valid--out");
    line.hidden = false;
    field.classList.add("field--valid");
    haptic(HAPTIC.valid);
    // The border turns back to grey (300 ms) and the line fades out (200 ms) a second after the check has landed.
    validTimers[member] = setTimeout(() => {
      field.classList.remove("field--valid");
      line.classList.add("field__valid--out");
      validTimers[member] = setTimeout(() => clearValid(member), WDiet.prefersReducedMotion() ? 0 : 200);
    }, 1300);
  }
  function clearValid(member) {
    const field = form.querySelector(`[data-field="${member}"]`);
    if (!field) return;
    clearTimeout(validTimers[member]);
    field.classList.remove("field--valid");
    const line = field.querySelector(".field__valid");
    if (line) { line.hidden = true; line.classList.remove("field__valid--out"); }
  }
  /** Scrolls just enough that an error below its field is not under the Save bar, the tab bar or the keyboard. */
  function revealError(element) {
    if (!element || !element.textContent) return;
    const viewport = window.visualViewport;
    let limit = viewport ? viewport.offsetTop + viewport.height : window.innerHeight;
    [form.querySelector(".profile__savebar"), document.querySelector(".tabbar")].forEach((bar) => {
      if (bar && !bar.hidden) limit = Math.min(limit, bar.getBoundingClientRect().top);
    });
    // The message slides down 8 px as it appears: measured where it will end up, with a little air below.
    const bottom = element.getBoundingClientRect().bottom + 8 + 8;
    if (bottom > limit) window.scrollBy({ top: bottom - limit, behavior: WDiet.prefersReducedMotion() ? "auto" : "smooth" });
  }
  function showBanner(text) {
    errorBanner.textContent = text ? `⚠️ ${text}` : "";
    errorBanner.hidden = !text;
  }
  function focusMember(member) {
    const id = FOCUS[member];
    const field = form.querySelector(`[data-field="${member}"]`);
    let target = id ? $(id) : null;
    if (!target && field) target = field.querySelector("input:not([type=hidden]):not([hidden]), select");
    if (member === "heightCm") target = heightUnit() === "cm" ? $("height-cm") : $("height-ft");
    if (field) field.scrollIntoView({ block: "center", behavior: WDiet.prefersReducedMotion() ? "auto" : "smooth" });
    if (target) target.focus({ preventScroll: true });
    if (field) { field.classList.remove("field--pulse"); void field.offsetWidth; field.classList.add("field--pulse"); }
  }
  /** All errors shown; true when there are none. */
  function validateAll() {
    const list = R.errors(draft(), today);
    R.MEMBERS.forEach((m) => setError(m, (list.find((e) => e.member === m) || {}).message));
    if (!list.length) { showBanner(null); return true; }
    showBanner(t("profile.fixErrors", { count: list.length }));
    announce(t("profile.validationFailed", { count: list.length }));
    focusMember(list[0].member);
    return false;
  }
  function showServerErrors(fields) {
    const members = R.MEMBERS.filter((m) => fields[m]);
    members.forEach((m) => setError(m, fields[m]));
    const count = Object.keys(fields).length;
    showBanner(t("profile.fixErrors", { count }));
    if (members.length) focusMember(members[0]);
  }

  // ---- The save button's states (001 §6) ----
  // The button's spinner and its words.
  function spinnerAndLabel(text) {
    const spinner = Object.assign(document.createElement("span"), { className: "profile__spinner" });
    spinner.setAttribute("aria-hidden", "true");
    const label = Object.assign(document.createElement("span"), { className: "profile__save-label" });
    label.textContent = text;
    saveButton.replaceChildren(spinner, " ", label);
  }
  function setButton(state, text) {
    const was = saveButton.dataset.state;
    saveButton.dataset.state = state;
    saveButton.classList.remove("profile__save--shake");
    const hint = $("save-hint");
    switch (state) {
      case "idle":
        saveButton.textContent = online() ? t("profile.saveChanges") : `💾 ${t("profile.saveLocally")}`;
        saveButton.disabled = !hasChanges() || pendingLocal && !online();
        if (pendingLocal && !hasChangesSinceLocal()) { saveButton.textContent = `💾 ${t("profile.savedLocally")}`; saveButton.disabled = true; }
        hint.textContent = saveButton.disabled ? t("profile.noChangesToSave") : t("profile.saveHint");
        saveButton.removeAttribute("aria-busy");
        break;
      case "saving":
        spinnerAndLabel(t("profile.saving"));
        saveButton.disabled = true;
        saveButton.setAttribute("aria-busy", "true");
        hint.textContent = t("profile.pleaseWait");
        break;
      case "slow":
        spinnerAndLabel(t("profile.takingLonger"));
        break;
      case "saved":
        // 001 §11 "Saving → Success": the check scales in while the background turns green (CSS).
        const check = Object.assign(document.createElement("span"), { className: "profile__save-check" });
        check.textContent = "✓";
        saveButton.replaceChildren(check, ` ${t("profile.saved")}`);
        if (was === "saving" || was === "slow") haptic(HAPTIC.saved);
        saveButton.disabled = true;
        saveButton.removeAttribute("aria-busy");
        hint.textContent = t("profile.changesSaved");
        break;
      case "error":
        saveButton.innerHTML = "";
        const label = Object.assign(document.createElement("span"), { className: "profile__save-label" });
        label.textContent = text || t("profile.retry");
        saveButton.appendChild(label);
        // 001 §11 "Saving → Error": two shakes as it turns red, and the error's vibration; a countdown that ends
        // (the 429 wait) only changes the words.
        if (was === "saving" || was === "slow") {
          void saveButton.offsetWidth;
          saveButton.classList.add("profile__save--shake");
          haptic(HAPTIC.saveError);
        }
        saveButton.disabled = false;
        saveButton.removeAttribute("aria-busy");
        hint.textContent = t("profile.trySavingAgain");
        break;
      case "waiting":
        saveButton.textContent = text;
        saveButton.disabled = true;
        saveButton.removeAttribute("aria-busy");
        break;
      default: break;
    }
  }
  let localBody = null;
  const hasChangesSinceLocal = () => !localBody || !same(localBody, body());
  function refresh() {
    if (saving || saveButton.dataset.state === "saved" || saveButton.dataset.state === "waiting") return;
    if (saveButton.dataset.state === "error" && hasChanges()) return;
    setButton("idle");
  }

  // ---- Draft kept in localStorage: no keystroke lost ----
  function storeDraft() {
    try {
      if (!hasChanges() && !pendingLocal) { localStorage.removeItem(DRAFT_KEY); return; }
      localStorage.setItem(DRAFT_KEY, JSON.stringify({
        body: body(), base, baseVersion: base.version, pending: pendingLocal, savedAt: Date.now(),
        units: { weight: weightUnit(), height: heightUnit() },
      }));
    } catch (_) { /* storage full or disabled: the form still holds everything */ }
  }
  function readDraft() {
    try { return JSON.parse(localStorage.getItem(DRAFT_KEY) || "null"); } catch (_) { return null; }
  }
  const clearDraft = () => { try { localStorage.removeItem(DRAFT_KEY); } catch (_) { /* nothing kept */ } };

  function edited() {
    showBanner(null);
    storeDraft();
    refresh();
    describe();
  }

  // ---- What a screen reader says about each field (001 §3 "Accessibility", §10): value, then hint ----
  // A weight as a screen reader says it: 80 kilograms, 176.4 pounds.
  const spokenWeight = (kg) => (weightUnit() === "kg" ? t("profile.spokenKilograms", { weight: displayWeight(kg) })
    : t("profile.spokenPounds", { weight: displayWeight(kg) }));
  // A height as a screen reader says it: 180 centimeters, 5 feet 10.9 inches.
  function spokenHeight(cm) {
    const fi = R.feetAndInches(cm);
    return heightUnit() === "cm" ? t("profile.spokenCentimeters", { height: R.decimal(R.tenth(cm)) })
      : t("profile.spokenFeetAndInches", { feet: fi.feet, inches: R.decimal(fi.inches) });
  }
  // Two preferences read as: 2 dietary preferences selected, then the list.
  function tagsSummary(member, items) {
    const count = t(form.querySelector(`[data-tags="${member}"]`).dataset.countKey, { count: items.length });
    return items.length ? `${count}: ${items.join(", ")}` : count;
  }
  function describe() {
    const d = draft();
    const weightText = (input) => (input.value === undefined ? null : spokenWeight(input.value));
    const height = d.heightCm.value !== undefined ? spokenHeight(d.heightCm.value) : null;
    const validDay = (iso) => /^\d{4}-\d{2}-\d{2}$/.test(iso || "");
    const inKg = weightUnit() === "kg";
    const texts = {
      dateOfBirth: [validDay(d.dateOfBirth) ? t("profile.bornOn", { date: longDate(d.dateOfBirth) }) : null,
        t("profile.dateOfBirthA11y")],
      heightCm: [height && t("profile.heightIs", { height }),
        heightUnit() === "cm" ? t("profile.enterHeightCm") : t("profile.enterHeightFtIn")],
      weightKg: [weightText(d.weightKg) && t("profile.currentWeightIs", { weight: weightText(d.weightKg) }),
        inKg ? t("profile.enterWeightKg") : t("profile.enterWeightLb")],
      targetWeightKg: [weightText(d.targetWeightKg) && t("profile.targetWeightIs", { weight: weightText(d.targetWeightKg) }),
        inKg ? t("profile.enterTargetWeightKg") : t("profile.enterTargetWeightLb")],
      targetDate: [validDay(d.targetDate) ? t("profile.targetDateIs", { date: longDate(d.targetDate) }) : null,
        t("profile.targetDateA11y")],
      dietaryPreferences: [tagsSummary("dietaryPreferences", d.dietaryPreferences), t("profile.preferencesA11y")],
      allergies: [tagsSummary("allergies", d.allergies), t("profile.allergiesA11y")],
    };
    Object.keys(texts).forEach((member) => {
      const span = form.querySelector(`[data-a11y="${member}"]`);
      if (span) span.textContent = texts[member].filter(Boolean).join(". ");
    });
  }

  // Return moves to the next field instead of submitting (001 §9 "Return key action = Next"); Done on the last.
  form.addEventListener("keydown", (event) => {
    const input = event.target;
    if (event.key !== "Enter" || event.defaultPrevented || !(input instanceof HTMLInputElement)) return;
    if (!["text", "date"].includes(input.type) || input.closest("[data-tags]")) return;
    event.preventDefault();
    const fields = Array.from(form.querySelectorAll('input[type="text"], input[type="date"], select'))
      .filter((el) => el.offsetParent !== null && !el.disabled);
    const next = fields[fields.indexOf(input) + 1];
    if (next) next.focus(); else input.blur();
  });

  // ---- Inputs ----
  ["height-cm", "height-ft", "height-in"].forEach((id) => {
    $(id).addEventListener("input", () => { numbers.heightCm = readHeight(); edited(); });
    $(id).addEventListener("blur", () => { touched.add("heightCm"); validateOnBlur("heightCm"); });
  });
  [["weight", "weightKg"], ["target-weight", "targetWeightKg"]].forEach(([id, member]) => {
    $(id).addEventListener("input", () => { numbers[member] = readWeight(id); updateHelper(); edited(); });
    $(id).addEventListener("blur", () => { touched.add(member); validateOnBlur(member); });
  });
  form.querySelectorAll('input[name="heightUnitToggle"]').forEach((r) => r.addEventListener("change", () => {
    haptic(HAPTIC.selection);
    showHeight();
    const h = numbers.heightCm;
    if (h.value !== undefined) {
      announce(t(heightUnit() === "cm" ? "profile.unitChangedCentimeters" : "profile.unitChangedFeetAndInches",
        { height: spokenHeight(h.value) }));
    }
    storeDraft();
    describe();
  }));
  form.querySelectorAll('input[name="weightUnitToggle"]').forEach((r) => r.addEventListener("change", () => {
    haptic(HAPTIC.selection);
    showWeights();
    updateHelper();
    const w = numbers.weightKg;
    if (w.value !== undefined) {
      announce(t(weightUnit() === "kg" ? "profile.unitChangedKilograms" : "profile.unitChangedPounds", { weight: displayWeight(w.value) }));
    }
    storeDraft();
    describe();
  }));
  $("date-of-birth").addEventListener("blur", () => validateOnBlur("dateOfBirth"));
  $("date-of-birth").addEventListener("change", () => { validateField("dateOfBirth"); edited(); });
  $("target-date").addEventListener("blur", () => validateOnBlur("targetDate"));
  $("target-date").addEventListener("change", () => { validateField("targetDate"); updateHelper(); edited(); });
  $("goal").addEventListener("change", () => { validateField("goal"); edited(); });
  form.querySelectorAll('input[name="sex"]').forEach((r) => r.addEventListener("change", () => {
    haptic(HAPTIC.selection);
    validateField("sex");
    showGenderDescription();
    if (checked("sex") !== "other") setError("genderDescription", null);
    edited();
  }));

  // ---- Gender "Other": the person's own words, up to 20 characters (001 §3), never used in a calculation ----
  // The field shows only for Other. What was typed stays in the field while another option is chosen (so a slip of
  // the finger loses nothing) but is not sent: saving with Male or Female clears the description.
  function showGenderDescription() {
    $("gender-description-field").hidden = checked("sex") !== "other";
    countGenderDescription();
  }
  function countGenderDescription() {
    const count = R.characterCount($("gender-description").value.trim());
    $("gender-description-count").textContent = t("profile.characterCount", { count });
  }
  // No maxlength attribute: the browser would count UTF-16 units (an emoji flag is 4 or more) and cut typing
  // short, while 001 §1 says validation must not block typing; the counter and the message on blur say the limit.
  $("gender-description").addEventListener("input", () => {
    countGenderDescription();
    // A message already shown goes away as soon as the text fits again; a new one waits for blur.
    const shown = Boolean(form.querySelector('[data-error-for="genderDescription"]').textContent);
    if (shown) validateField("genderDescription");
    edited();
  });
  $("gender-description").addEventListener("blur", () => { touched.add("genderDescription"); validateOnBlur("genderDescription"); });
  let activityTipShown = false;
  form.querySelectorAll('input[name="activity"]').forEach((r) => r.addEventListener("change", () => {
    haptic(HAPTIC.selection);
    validateField("activity");
    edited();
    // 001 §3 "Suggestion Trigger", once per visit.
    if (!activityTipShown && r.value !== base.activity) {
      activityTipShown = true;
      WDiet.toast(`💡 ${t("profile.activityTip")}`, { actionLabel: t("profile.okGotIt"), onAction: () => {}, duration: 8000 });
    }
  }));

  // ---- Tag inputs ----
  function renderTags(member) {
    const field = form.querySelector(`[data-tags="${member}"]`);
    const list = field.querySelector(".profile__tag-list");
    list.innerHTML = "";
    tags[member].forEach((tag) => {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "profile__tag";
      button.dataset.tag = tag;
      button.setAttribute("aria-label", t("profile.removeTag", { tag }));
      button.textContent = `${tag} `;
      const x = document.createElement("span");
      x.setAttribute("aria-hidden", "true");
      x.textContent = "×";
      button.appendChild(x);
      li.appendChild(button);
      list.appendChild(li);
    });
    // 001 §8 "Empty Tag Fields": the empty box and its "Common: …" line show only while there is no tag.
    field.querySelectorAll("[data-empty]").forEach((element) => { element.hidden = tags[member].length > 0; });
    const chosen = new Set(tags[member].map((t) => t.toLowerCase()));
    field.querySelectorAll("[data-suggestion]").forEach((s) => { s.hidden = chosen.has(s.dataset.suggestion.toLowerCase()); });
  }
  function addTag(member, text) {
    const trimmed = String(text).trim();
    if (!trimmed) return;
    if (!tags[member].some((t) => t.toLowerCase() === trimmed.toLowerCase())) tags[member].push(trimmed);
    renderTags(member);
    validateField(member);
    announce(tagsSummary(member, tags[member]));
    edited();
  }
  form.querySelectorAll("[data-tags]").forEach((field) => {
    const member = field.dataset.tags;
    const input = field.querySelector('input[type="text"]');
    field.addEventListener("click", (event) => {
      const tag = event.target.closest("[data-tag]");
      const suggestion = event.target.closest("[data-suggestion]");
      if (tag) {
        tags[member] = tags[member].filter((t) => t !== tag.dataset.tag);
        renderTags(member);
        validateField(member);
        announce(t("profile.tagRemoved", { tag: tag.dataset.tag, left: t(field.dataset.countKey, { count: tags[member].length }) }));
        edited();
        input.focus();
      } else if (suggestion) {
        addTag(member, suggestion.dataset.suggestion);
      } else if (event.target.closest("[data-add]")) {
        addTag(member, input.value);
        input.value = "";
        input.focus();
      }
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === ",") {
        event.preventDefault();
        addTag(member, input.value);
        input.value = "";
      }
    });
    input.addEventListener("blur", () => validateOnBlur(member));
  });

  // ---- Meals per day stepper ----
  function renderMeals() {
    const output = $("meals-value");
    output.textContent = String(mealsPerDay);
    output.setAttribute("aria-valuenow", String(mealsPerDay));
    output.setAttribute("aria-valuetext", t("profile.mealsPerDayCount", { count: mealsPerDay }));
    $("meals-minus").disabled = mealsPerDay <= 1;
    $("meals-plus").disabled = mealsPerDay >= 10;
  }
  function stepMeals(delta) {
    const next = Math.min(10, Math.max(1, mealsPerDay + delta));
    if (next === mealsPerDay) return;
    mealsPerDay = next;
    renderMeals();
    haptic(HAPTIC.selection);
    announce(t("profile.mealsPerDayCount", { count: mealsPerDay }));
    validateField("mealsPerDay");
    edited();
  }
  // 001 §9 "Long press for continuous increment/decrement": held for 400 ms, a button steps every 150 ms until it is
  // let go or the range ends. The click that ends a long press is not one more step.
  function holdToRepeat(button, delta) {
    let timer = null;
    let repeated = false;
    const stop = () => { clearTimeout(timer); clearInterval(timer); timer = null; };
    button.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      stop();
      repeated = false;
      timer = setTimeout(() => {
        timer = setInterval(() => {
          const before = mealsPerDay;
          stepMeals(delta);
          repeated = true;
          if (mealsPerDay === before) stop();
        }, 150);
      }, 400);
    });
    ["pointerup", "pointerleave", "pointercancel"].forEach((type) => button.addEventListener(type, stop));
    // A long touch would otherwise open the context menu or select the sign.
    button.addEventListener("contextmenu", (event) => event.preventDefault());
    button.addEventListener("click", (event) => {
      // Only a pointer's click ends a long press (a keyboard's click has detail 0).
      if (repeated && event.detail > 0) { repeated = false; return; }
      repeated = false;
      stepMeals(delta);
    });
  }
  holdToRepeat($("meals-minus"), -1);
  holdToRepeat($("meals-plus"), 1);
  $("meals-value").addEventListener("keydown", (event) => {
    if (event.key === "ArrowUp" || event.key === "ArrowRight") { event.preventDefault(); stepMeals(1); }
    if (event.key === "ArrowDown" || event.key === "ArrowLeft") { event.preventDefault(); stepMeals(-1); }
  });

  // ---- The target date's smart helper ----
  // Dates as the page's language writes them: "August 15, 1990" / "15. August 1990", "Mon 2 Mar" / "Mo., 2. März"
  // (the server's LocalDate.shortLabel).
  const german = WDiet.lang === "de";
  const longDate = (iso) => new Date(iso + "T00:00:00Z").toLocaleDateString(german ? "de-DE" : "en-US",
    { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
  function shortDate(iso) {
    const text = new Date(iso + "T00:00:00Z").toLocaleDateString(german ? "de-DE" : "en-GB",
      { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" });
    return german ? text : text.replace(",", "");
  }
  let helperDate = null;
  function updateHelper() {
    const helper = $("timeline-helper");
    const current = numbers.weightKg.value;
    const target = numbers.targetWeightKg.value;
    if (current === undefined || target === undefined || R.tenth(target - current) === 0
        || R.fieldError("weightKg", draft(), today) || R.fieldError("targetWeightKg", draft(), today)) {
      helper.hidden = true;
      helperDate = null;
      return;
    }
    const lose = target < current;
    const change = Math.abs(R.tenth(target - current));
    const rates = lose ? [0.5, 1] : [0.25, 0.5];
    const fewest = Math.ceil(change / rates[1] - 1e-9);
    const most = Math.ceil(change / rates[0] - 1e-9);
    helperDate = R.addDays(today, fewest * 7);
    if (helperDate > R.latestTargetDate(today)) helperDate = R.latestTargetDate(today);
    const changeText = weightUnit() === "kg" ? R.decimal(change) : R.decimal(R.poundsFromKg(change));
    const weeks = fewest === most ? WDiet.formatInt(fewest) : t("profile.weeksRange", { from: WDiet.formatInt(fewest), to: WDiet.formatInt(most) });
    $("timeline-helper-text").innerText =
      `${t("profile.helperBasedOn", { current: weightLabel(current), target: weightLabel(target) })}\n\n`
      + `• ${t(lose ? "profile.helperLose" : "profile.helperGain", { count: most, amount: changeText, unit: weightUnitLabel(), weeks })}\n`
      + `• ${t("profile.helperRecommendedDate", { date: longDate(helperDate) })}`;
    helper.hidden = false;
  }
  $("use-date").addEventListener("click", () => {
    if (!helperDate) return;
    $("target-date").value = helperDate;
    validateField("targetDate");
    announce(t("profile.targetDateIs", { date: longDate(helperDate) }));
    edited();
  });

  // ---- Dialogs: bottom sheets (001 §11 "Modal Animations") ----
  // Every close — a button, Escape, a script — closes the dialog at once (the page is usable again under the finger)
  // and plays the exit on a lifeless copy: the content fades, the sheet slides down, the backdrop fades (profile.css).
  // The conflict dialog (data-persistent) stays until one of its two answers is chosen.
  const nativeClose = HTMLDialogElement.prototype.close;
  function playExit(dialog) {
    if (WDiet.prefersReducedMotion()) return;
    const ghost = dialog.cloneNode(true);   // keeps `open`: shown, but not modal and not in the top layer
    ghost.removeAttribute("id");
    ghost.querySelectorAll("[id]").forEach((element) => element.removeAttribute("id"));
    ghost.classList.add("profile__dialog--leaving");
    ghost.setAttribute("aria-hidden", "true");
    ghost.inert = true;
    const backdrop = document.createElement("div");
    backdrop.className = "profile__backdrop--leaving";
    document.body.append(backdrop, ghost);
    // Gone when the copy's and the backdrop's animations have finished, on the animation clock: a wall-clock timer
    // removed the copy mid-animation whenever that clock ran slow (a busy page, a slowed one in the journeys).
    // No animations at all (the stylesheet not loaded): gone at once. An endless one inside (a pulse) is not waited for.
    const exits = [...ghost.getAnimations({ subtree: true }), ...backdrop.getAnimations()]
      .filter((animation) => animation.effect && animation.effect.getComputedTiming().endTime !== Infinity);
    Promise.allSettled(exits.map((animation) => animation.finished))
      .then(() => { ghost.remove(); backdrop.remove(); });
  }
  document.querySelectorAll("dialog.profile__dialog").forEach((dialog) => {
    dialog.close = () => {
      if (!dialog.open) return;
      playExit(dialog);
      nativeClose.call(dialog);
    };
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      if (!dialog.hasAttribute("data-persistent")) dialog.close();
    });
  });

  // 001 §11 "Button Press": a light tap under the finger (the 0.95 scale is CSS).
  document.addEventListener("pointerdown", (event) => {
    const button = event.target.closest("button:not(:disabled),.button");
    if (button) haptic(HAPTIC.press);
  });

  function paragraphs(container, lines) {
    container.innerHTML = "";
    lines.forEach((line) => {
      const p = document.createElement("p");
      p.textContent = line;
      if (line.startsWith("•") || line.startsWith("✓")) p.className = "profile__bullet";
      container.appendChild(p);
    });
  }
  /** Shows the confirmation dialog; resolves true for the confirm button. */
  function ask(title, lines, cancelLabel, confirmLabel) {
    const dialog = $("confirm-dialog");
    $("confirm-title").textContent = title;
    paragraphs($("confirm-body"), lines);
    const cancel = dialog.querySelector("[data-cancel]");
    const confirm = dialog.querySelector("[data-confirm]");
    cancel.textContent = cancelLabel;
    confirm.textContent = confirmLabel;
    return new Promise((resolve) => {
      const done = (answer) => {
        cancel.onclick = null; confirm.onclick = null; dialog.oncancel = null;
        dialog.close();
        resolve(answer);
      };
      cancel.onclick = () => done(false);
      confirm.onclick = () => done(true);
      dialog.oncancel = (event) => { event.preventDefault(); done(false); };
      dialog.showModal();
      confirm.focus();
    });
  }
  function heightText(cm) {
    const fi = R.feetAndInches(cm);
    const inches = Math.round(cm / 2.54);
    return `${R.decimal(R.tenth(cm))} cm (${Math.floor(inches / 12)}'${inches % 12}")`;
  }
  const kgAndLbs = (kg) => t("profile.kilogramsAndPounds", { kg: R.decimal(R.tenth(kg)), lbs: Math.round(kg / 0.45359237) });
  const grouped = (n) => WDiet.formatInt(n);

  let preview = null;
  /** GET /profile/preview for the form's changes; null when it cannot be had (offline, invalid). */
  async function loadPreview() {
    if (!online()) return null;
    const b = body();
    // Spaces as %20, not "+": the server reads the query as percent-encoded text.
    const params = [];
    const add = (name, value) => params.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
    changedMembers().forEach((m) => {
      const value = b[m];
      if (Array.isArray(value)) { if (value.length) value.forEach((v) => add(m, v)); else add(m, ""); }
      else add(m, value == null ? "" : String(value));
    });
    // 001 §8 "Empty Current Targets (Loading)": until the server has worked out the numbers this change brings.
    const calculating = $("targets-calculating");
    calculating.hidden = false;
    try { return await WDiet.api("GET", `/api/v1/profile/preview?${params.join("&")}`); } catch (_) { return null; } finally {
      calculating.hidden = true;
    }
  }

  /** The confirmations of §12 in order; false when the user stopped the save. */
  async function confirmAll() {
    const b = body();
    const list = R.confirmations(base, b, today);
    for (const item of list) {
      let ok = true;
      if (item.kind === "dateOfBirthChange") {
        const withAge = (iso) => t("profile.dateWithAge", { date: longDate(iso), age: R.age(iso, today) });
        ok = await ask(t("profile.confirmBirthTitle"), [
          t("profile.confirmBirthLead"),
          t("profile.previousValue", { value: withAge(base.dateOfBirth) }),
          t("profile.newValue", { value: withAge(b.dateOfBirth) }),
          t("profile.confirmBirthPlan"),
        ], t("profile.cancel"), t("profile.confirm"));
        if (!ok) focusMember("dateOfBirth");
      } else if (item.kind === "largeHeightChange") {
        ok = await ask(t("profile.largeHeightTitle"), [
          t("profile.largeHeightLead", { delta: R.decimal(Math.abs(item.deltaCm)) }),
          t("profile.pleaseVerify"),
        ], t("profile.cancel"), t("profile.confirm"));
        if (!ok) focusMember("heightCm");
      } else if (item.kind === "largeWeightChange") {
        const delta = weightUnit() === "kg" ? R.decimal(Math.abs(item.deltaKg)) : R.decimal(R.poundsFromKg(Math.abs(item.deltaKg)));
        haptic(HAPTIC.warning);
        ok = await ask(`⚠️ ${t("profile.largeWeightTitle")}`, [
          t("profile.largeWeightLead", { delta, unit: weightUnitLabel() }),
          t("profile.pleaseVerifyList"),
          `✓ ${t("profile.verifyAccurateWeight")}`,
          `✓ ${t("profile.verifyWeighedProperly")}`,
          t("profile.previousValue", { value: weightLabel(base.weightKg) }),
          t("profile.newValue", { value: weightLabel(b.weightKg) }),
        ], t("profile.cancel"), t("profile.confirm"));
        if (!ok) {
          // 001 §12.2: Cancel reverts to the previous weight.
          numbers.weightKg = { value: base.weightKg };
          showWeights();
          updateHelper();
          edited();
          focusMember("weightKg");
        }
      } else if (item.kind === "goalChange") {
        preview = preview || await loadPreview();
        const lines = [
          t("profile.goalChangeLead"),
          t("profile.currentGoal", { goal: goalTitle(base.goal) }),
          t("profile.newGoal", { goal: goalTitle(b.goal) }),
        ];
        if (preview) {
          lines.push(t("profile.expectedChanges"),
            `• ${t("profile.expectedCalories", { before: grouped(preview.before.calories), after: grouped(preview.after.calories) })}`,
            `• ${t("profile.expectedProtein", { before: grouped(preview.before.proteinGrams), after: grouped(preview.after.proteinGrams) })}`);
        }
        lines.push(t("profile.planUpdatesTomorrowShort"));
        ok = await ask(t("profile.goalChangeTitle"), lines, t("profile.cancel"), t("profile.changeGoal"));
        if (!ok) focusMember("goal");
      } else if (item.kind === "unrealisticTimeline") {
        const timeline = item.timeline;
        const unit = weightUnitLabel();
        const amount = (kg) => (weightUnit() === "kg" ? R.decimal(R.tenth(kg)) : R.decimal(R.poundsFromKg(kg)));
        const keep = await ask(`⚠️ ${t("profile.unrealisticTitle")}`, [
          t(timeline.isLoss ? "profile.unrealisticLose" : "profile.unrealisticGain", {
            amount: amount(Math.abs(timeline.changeKg)), unit, date: longDate(b.targetDate), rate: amount(timeline.requiredKgPerWeek),
          }),
          t("profile.exceedsSafeLimits"),
          `• ${t("profile.yourRate", { rate: amount(timeline.requiredKgPerWeek), unit })}`,
          `• ${t(timeline.isLoss ? "profile.safeRateLoss" : "profile.safeRateGain")}`,
          t("profile.recommendedTargetDate"),
          t("profile.dateInWeeks", { date: longDate(timeline.recommendedDate), count: timeline.recommendedWeeks }),
        ], t("profile.adjustDate"), t("profile.keepAnyway"));
        if (!keep) {
          // Adjust Date fills in the recommended date; the user saves again when ready.
          $("target-date").value = timeline.recommendedDate <= R.latestTargetDate(today) ? timeline.recommendedDate : R.latestTargetDate(today);
          validateField("targetDate");
          updateHelper();
          edited();
          focusMember("targetDate");
        }
        ok = keep;
      } else if (item.kind === "extremeHeight") {
        ok = await ask(t("profile.verifyHeightTitle"), [
          t("profile.youEntered", { value: heightText(b.heightCm) }),
          t(b.heightCm > 250 ? "profile.unusuallyTall" : "profile.unusuallyShort"),
          t("profile.averageHeight"),
        ], t("profile.edit"), t("profile.confirm"));
        if (!ok) focusMember("heightCm");
      } else if (item.kind === "extremeWeight") {
        ok = await ask(t("profile.verifyWeightTitle"), [
          t("profile.youEntered", { value: kgAndLbs(b.weightKg) }),
          t(b.weightKg < 30 ? "profile.belowTypicalRange" : "profile.aboveTypicalRange"),
          t("profile.typicalWeightRange"),
        ], t("profile.edit"), t("profile.confirm"));
        if (!ok) focusMember("weightKg");
      }
      if (!ok) return false;
    }
    return true;
  }

  // ---- After a save ----
  // [preview member, the row's name, its numbers with their unit (kcal goes unwritten), why it moved]
  const plain = (amount) => amount;
  const grams = (amount) => t("profile.amountGrams", { amount });
  const millilitres = (amount) => t("profile.amountMillilitres", { amount });
  const TARGET_ROWS = [
    ["calories", () => t("profile.caloriesLabel"), plain, (d, goal) => {
      if (d < 0) return t(goal === "lose" ? "profile.fewerCaloriesToLose" : "profile.fewerCalories", { amount: grouped(-d) });
      return t(goal === "gain" ? "profile.moreCaloriesToGain" : "profile.moreCalories", { amount: grouped(d) });
    }],
    ["proteinGrams", () => t("profile.proteinLabel"), grams, () => t("profile.proteinAdjusted")],
    ["waterMl", () => t("profile.waterLabel"), millilitres, () => t("profile.hydrationUpdated")],
    ["bmr", () => t("profile.bmrLabel"), plain, () => t("profile.caloriesAtRest")],
    ["tdee", () => t("profile.tdeeLabel"), plain, () => t("profile.maintenanceCalories")],
  ];
  const signed = (n) => `${n > 0 ? "+" : "-"}${grouped(Math.abs(n))}`;
  function feedback(saved, previewed, changed) {
    const targetsMoved = previewed && previewed.changesTargets
      && TARGET_ROWS.some(([key]) => previewed.difference[key] !== 0);
    if (targetsMoved) {
      const container = $("targets-dialog-body");
      container.innerHTML = "";
      TARGET_ROWS.forEach(([key, label, unit, explain]) => {
        const d = previewed.difference[key];
        if (d === 0) return;
        const block = document.createElement("div");
        block.className = "profile__change";
        block.dataset.change = key;
        const heading = document.createElement("p");
        heading.className = "profile__change-title";
        heading.textContent = label();
        const values = document.createElement("p");
        values.className = "profile__change-values";
        values.textContent = `${unit(grouped(previewed.before[key]))} → ${unit(grouped(previewed.after[key]))} (${unit(signed(d))})`;
        const why = document.createElement("p");
        why.className = "field__hint";
        why.textContent = explain(d, saved.goal);
        block.append(heading, values, why);
        container.appendChild(block);
      });
      const effective = (saved.pendingChange && saved.pendingChange.effectiveDate) || previewed.effectiveDate;
      $("targets-dialog-timing").textContent = effective
        ? t("profile.changesTomorrowOn", { date: shortDate(effective) }) : t("profile.changesTomorrow");
      const dialog = $("targets-dialog");
      dialog.querySelector("[data-close]").onclick = () => dialog.close();
      dialog.showModal();
      return;
    }
    if (changed.includes("dietaryPreferences")) {
      // 001 §7 "Modal (No Changes)": what meal suggestions will use, and that the targets stay.
      const list = $("preferences-dialog-list");
      list.innerHTML = "";
      (saved.dietaryPreferences.length ? saved.dietaryPreferences : [t("profile.none")]).forEach((tag) => {
        const p = document.createElement("p");
        p.className = "profile__bullet";
        p.textContent = `• ${tag}`;
        list.appendChild(p);
      });
      const dialog = $("preferences-dialog");
      dialog.querySelector("[data-close]").onclick = () => dialog.close();
      dialog.showModal();
      return;
    }
    if (changed.length === 1 && changed[0] === "weightKg") {
      WDiet.toast(`✓ ${t("profile.weightUpdated", { weight: weightLabel(saved.weightKg) })}`);
    } else if (changed.includes("goal")) {
      WDiet.toast(`✓ ${t("profile.goalUpdated", { goal: goalTitle(saved.goal) })}`);
    } else if (saved.pendingChange) {
      WDiet.toast(`✓ ${t("profile.profileUpdatedTomorrow")}`);
    } else {
      WDiet.toast(`✓ ${t("profile.profileUpdated")}`);
    }
  }
  function showPendingNotice(saved) {
    let notice = $("pending-notice");
    const text = saved.pendingChange && saved.pendingChange.message;
    if (!text) { if (notice) notice.hidden = true; return; }
    if (!notice) {
      notice = document.createElement("p");
      notice.id = "pending-notice";
      notice.className = "card profile__notice";
      notice.setAttribute("role", "status");
      form.parentNode.insertBefore(notice, form);
    }
    notice.hidden = false;
    notice.textContent = text;
  }

  // ---- Current Targets: what tomorrow brings (001 §2 Section 6 "shows before/after when values change") ----
  const PREVIEW_KEYS = { bmr: "bmr", tdee: "tdee", calories: "calories", protein: "proteinGrams", water: "waterMl" };
  function showPendingTargets(previewed, saved) {
    if (!previewed) return;
    const effective = saved.pendingChange && saved.pendingChange.effectiveDate;
    form.querySelectorAll("[data-target]").forEach((row) => {
      const line = row.querySelector("[data-target-pending]");
      const after = previewed.after[PREVIEW_KEYS[row.dataset.target]];
      // Against the targets the day began with: several saves in one day show their sum, an edit back shows none.
      const difference = after - Number(row.dataset.baseTomorrow);
      if (!effective || !difference) { line.hidden = true; line.textContent = ""; return; }
      line.textContent = t("profile.targetPending", { value: grouped(after), unit: row.dataset.unit, date: shortDate(effective),
        difference: `${difference > 0 ? "+" : "-"}${grouped(Math.abs(difference))}` });
      line.hidden = false;
    });
  }

  // ---- Saving ----
  function savedOK(saved, previewed, changed, wasSync) {
    base = saved;
    form.dataset.version = String(saved.version);
    pendingLocal = false;
    localBody = null;
    clearDraft();
    syncBanner.hidden = true;
    showPendingNotice(saved);
    showPendingTargets(previewed, saved);
    setButton("saved");
    announce(t("profile.profileUpdated"));
    setTimeout(() => { setButton("idle"); }, 2000);
    if (wasSync) WDiet.toast(`✓ ${t("profile.profileSynced")}`);
    else feedback(saved, previewed, changed);
  }

  function saveLocally(quietly) {
    pendingLocal = true;
    localBody = body();
    storeDraft();
    setButton("idle");
    if (!quietly) WDiet.toast(`✓ ${t("profile.savedLocallyToast")}`);
    announce(t("profile.changesSavedLocally"));
  }

  /**
   * PUTs `payload` against `baseVersion`. `attempt` counts automatic retries after a 5xx (2 s, 5 s, 10 s).
   * `wasSync`: the upload of an offline save.
   */
  /** PUT /api/v1/profile as WDiet.api sends it, but abortable: a save that hangs is given up after 10 s (001 §12.4). */
  async function sendProfile(payload, signal) {
    let response;
    try {
      response = await fetch("/api/v1/profile", {
        method: "PUT", credentials: "same-origin", signal, body: JSON.stringify(payload),
        headers: { "Accept": "application/json", "Content-Type": "application/json", "X-CSRF-Token": WDiet.csrfToken() },
      });
    } catch (networkError) {
      const timedOut = signal.aborted;
      throw new WDiet.APIError(0, { error: { code: timedOut ? "timeout" : "offline", message: t("profile.offlineShort") } });
    }
    let parsed = null;
    try { parsed = await response.json(); } catch (_) { parsed = null; }
    if (!response.ok) throw new WDiet.APIError(response.status, parsed);
    return parsed;
  }

  async function put(payload, baseVersion, options) {
    const { previewed, changed, wasSync, attempt = 0 } = options;
    saving = true;
    setButton("saving");
    if (attempt === 0) announce(t("profile.savingAnnouncement"));
    const controller = new AbortController();
    const slow = setTimeout(() => { if (saving) setButton("slow"); }, 5000);
    const giveUp = setTimeout(() => controller.abort(), 10000);
    try {
      const saved = await sendProfile(Object.assign({}, payload, { baseVersion }), controller.signal);
      saving = false;
      savedOK(saved, previewed, changed, wasSync);
    } catch (error) {
      saving = false;
      if (error.code === "timeout") {
        // Kept here and sent again: on "Retry Now", when the connection returns, or by the 30-second retry.
        saveLocally(true);
        showConnectionIssue();
      } else {
        handleError(error, payload, baseVersion, options);
      }
    } finally {
      clearTimeout(slow);
      clearTimeout(giveUp);
    }
  }

  function showConnectionIssue() {
    const dialog = $("connection-dialog");
    dialog.querySelector("[data-close]").onclick = () => dialog.close();
    dialog.querySelector("[data-retry]").onclick = () => { dialog.close(); syncPending(); };
    dialog.showModal();
  }

  function handleError(error, payload, baseVersion, options) {
    const attempt = options.attempt || 0;
    if (error.status === 0) {
      // The connection dropped: keep the change here and send it when it returns.
      saveLocally();
      return;
    }
    if (error.status === 401) { location.assign("/"); return; }
    if (error.status === 409 && error.body && error.body.error && error.body.error.current) {
      const server = error.body.error.current;
      if (R.MEMBERS.every((m) => same(payload[m], server[m]))) {
        // The server already holds exactly this change (a save given up on that had arrived): nothing to choose.
        savedOK(server, null, [], true);
        return;
      }
      setButton("idle");
      showConflict(error.body.error, payload);
      return;
    }
    if (error.status === 422) {
      setButton("error", t("profile.saveChanges"));
      showServerErrors(error.fields || {});
      return;
    }
    if (error.status === 429) {
      const seconds = (error.body && error.body.error && error.body.error.retryAfterSeconds) || 60;
      startRateLimit(seconds);
      return;
    }
    if (error.status >= 500) {
      if (attempt < RETRY_DELAYS.length) {
        setButton("saving");
        retryTimer = setTimeout(() => put(payload, baseVersion, Object.assign({}, options, { attempt: attempt + 1 })),
          RETRY_DELAYS[attempt]);
        saving = true;
        return;
      }
      setButton("error", t("profile.retry"));
      announce(t("profile.saveFailedAnnouncement", { message: error.message }));
      const dialog = $("server-error-dialog");
      $("server-error-code").textContent = String(error.status);
      dialog.querySelector("[data-close]").onclick = () => dialog.close();
      dialog.querySelector("[data-retry]").onclick = () => {
        dialog.close();
        put(payload, baseVersion, Object.assign({}, options, { attempt: RETRY_DELAYS.length }));
      };
      dialog.showModal();
      return;
    }
    setButton("error", t("profile.retry"));
    showBanner(error.message);
  }

  function countdownText(seconds) {
    const m = Math.floor(seconds / 60);
    const s = seconds % 60;
    return m > 0 ? t("profile.countdownMinutes", { minutes: m, seconds: s }) : t("profile.countdownSeconds", { seconds: s });
  }
  function startRateLimit(seconds) {
    rateLimitedUntil = Date.now() + seconds * 1000;
    const dialog = $("rate-limit-dialog");
    const tick = () => {
      const left = Math.max(0, Math.ceil((rateLimitedUntil - Date.now()) / 1000));
      $("rate-limit-countdown").textContent = countdownText(left);
      if (left > 0) {
        setButton("waiting", t("profile.tryAgainIn", { time: countdownText(left) }));
        setTimeout(tick, 1000 - ((rateLimitedUntil - Date.now()) % 1000 || 0));
      } else {
        rateLimitedUntil = 0;
        setButton("error", t("profile.retry"));
      }
    };
    tick();
    dialog.querySelector("[data-close]").onclick = () => dialog.close();
    dialog.showModal();
  }

  // ---- Conflicts: Keep Local / Use Server (001 §12.5) ----
  function memberText(member, p) {
    const v = p[member];
    if (v == null || (Array.isArray(v) && !v.length)) return t("profile.noneParenthesized");
    switch (member) {
      case "heightCm": return heightText(v);
      case "weightKg": case "targetWeightKg": return weightLabel(v);
      case "dateOfBirth": case "targetDate": return longDate(v);
      case "goal": return goalTitle(v) || v;
      case "sex": return sexTitle(v) || v;
      case "activity": {
        const input = form.querySelector(`input[name="activity"][value="${v}"]`);
        const name = input && input.parentNode.querySelector("strong");
        return name ? name.textContent : v;
      }
      case "dietaryPreferences": case "allergies": return v.join(", ");
      default: return String(v);
    }
  }
  function ago(instant) {
    const minutes = Math.max(0, Math.round((Date.now() - Date.parse(instant)) / 60000));
    if (minutes < 1) return t("profile.justNow");
    if (minutes < 60) return t("profile.minutesAgo", { count: minutes });
    const hours = Math.round(minutes / 60);
    return hours < 24 ? t("profile.hoursAgo", { count: hours }) : t("profile.daysAgo", { count: Math.round(hours / 24) });
  }
  function showConflict(detail, payload) {
    const server = detail.current;
    const differences = (detail.differences || R.MEMBERS).filter((m) => FIELD_LABELS[m]
      && !same(payload[m], server[m]));
    // 001's words for an offline edit; an edit made online met a change from another device or tab.
    $("conflict-lead").textContent = pendingLocal ? t("profile.conflictLeadOffline") : t("profile.conflictLeadOnline");
    const container = $("conflict-body");
    container.innerHTML = "";
    differences.forEach((member) => {
      const block = document.createElement("div");
      block.className = "profile__conflict-field";
      block.dataset.member = member;
      const heading = document.createElement("p");
      heading.className = "profile__change-title";
      heading.textContent = `${FIELD_LABELS[member].replace(/^./, (c) => c.toUpperCase())}:`;
      const local = document.createElement("p");
      local.className = "profile__bullet";
      local.textContent = `• ${t(pendingLocal ? "profile.conflictLocalOffline" : "profile.conflictLocalHere", { value: memberText(member, payload) })}`;
      const remote = document.createElement("p");
      remote.className = "profile__bullet";
      remote.textContent = `• ${t("profile.conflictServer", { value: memberText(member, server), ago: ago(server.updatedAt) })}`;
      block.append(heading, local, remote);
      container.appendChild(block);
    });
    const dialog = $("conflict-dialog");
    dialog.querySelector("[data-keep-local]").onclick = () => {
      dialog.close();
      // Keep Local: the same change, now against the server's version.
      put(payload, server.version, { previewed: null, changed: differences, wasSync: pendingLocal });
    };
    dialog.querySelector("[data-use-server]").onclick = () => {
      dialog.close();
      base = server;
      form.dataset.version = String(server.version);
      pendingLocal = false;
      localBody = null;
      clearDraft();
      fill(server);
      R.MEMBERS.forEach((m) => setError(m, null));
      showPendingNotice(server);
      syncBanner.hidden = true;
      setButton("idle");
      WDiet.toast(t("profile.showingServerVersion"));
    };
    dialog.oncancel = (event) => event.preventDefault();
    dialog.showModal();
  }

  // ---- Submit ----
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (saving || rateLimitedUntil > Date.now()) return;
    if (!hasChanges()) {
      WDiet.toast(`ℹ️ ${t("profile.noChangesToast")}`);
      return;
    }
    if (!validateAll()) return;
    preview = null;
    if (!(await confirmAll())) return;
    if (!validateAll()) return;
    const payload = body();
    const changed = changedMembers();
    if (!online()) { saveLocally(); return; }
    const previewed = preview || await loadPreview();
    put(payload, base.version, { previewed, changed, wasSync: false });
  });

  // ---- Online / offline ----
  function syncPending() {
    const stored = readDraft();
    if (!stored || !stored.pending || saving || !online()) return;
    syncBanner.textContent = `🔄 ${t("profile.syncing")}`;
    syncBanner.hidden = false;
    pendingLocal = true;
    put(stored.body, stored.baseVersion, { previewed: null, changed: [], wasSync: true });
  }
  function connectivity() {
    offlineBanner.hidden = online();
    refresh();
    if (online()) syncPending();
  }
  window.addEventListener("online", connectivity);
  // A change saved locally while the browser thought it was online (a timeout) is tried again every 30 s.
  setInterval(() => { if (pendingLocal && !saving && online()) syncPending(); }, 30000);
  window.addEventListener("offline", connectivity);

  // ---- Leaving with unsaved changes (001 §12.1) ----
  const unsaved = () => hasChanges() && !pendingLocal;
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[href]");
    if (!link || !unsaved() || link.target === "_blank" || event.defaultPrevented) return;
    if ((link.getAttribute("href") || "").startsWith("#")) return;
    event.preventDefault();
    const dialog = $("discard-dialog");
    dialog.querySelector("[data-cancel]").onclick = () => dialog.close();
    dialog.querySelector("[data-confirm]").onclick = () => {
      clearDraft();
      leaving = true;
      dialog.close();
      location.assign(link.href);
    };
    announce(t("profile.unsavedWarning"));
    dialog.showModal();
    dialog.querySelector("[data-cancel]").focus();
  });
  let leaving = false;
  window.addEventListener("beforeunload", (event) => {
    if (leaving || !unsaved()) return;
    event.preventDefault();
    event.returnValue = "";
  });

  // ---- The on-screen keyboard (001 §9): the sticky save bar steps aside ("Hides when keyboard appears") ----
  // A phone's keyboard shrinks the visual viewport, not the layout viewport the fixed bar is placed in, so the bar
  // would sit on top of the field being typed into. The keyboard is taken to be open when a text field has focus
  // and the visible area (times the pinch-zoom scale, so zooming in does not count) is under 75 % of the layout
  // viewport; the bar comes back when the keyboard closes. Without VisualViewport (or a keyboard) it always shows.
  const saveBar = form.querySelector(".profile__savebar");
  const KEYBOARD_SHARE = 0.75;
  function keyboardOpen() {
    const viewport = window.visualViewport;
    const field = document.activeElement;
    if (!viewport || !field || !form.contains(field) || !field.matches("input:not([type=radio]):not([type=checkbox]), textarea")) {
      return false;
    }
    return viewport.height * viewport.scale < document.documentElement.clientHeight * KEYBOARD_SHARE;
  }
  function placeSaveBar() {
    const open = keyboardOpen();
    saveBar.hidden = open;
    if (open) keepFieldInView(document.activeElement);
  }
  // 001 §9 "Smart Scroll, On Focus": a field the keyboard covers is brought to the middle of what is left visible,
  // not to its edge; one already in view stays where it is.
  function keepFieldInView(field) {
    const viewport = window.visualViewport;
    const rect = field.getBoundingClientRect();
    const top = rect.top - viewport.offsetTop;
    const bottom = rect.bottom - viewport.offsetTop;
    if (top >= 0 && bottom <= viewport.height) return;
    window.scrollBy({ top: (top + bottom - viewport.height) / 2, behavior: WDiet.prefersReducedMotion() ? "auto" : "smooth" });
  }
  if (window.visualViewport) window.visualViewport.addEventListener("resize", placeSaveBar);
  form.addEventListener("focusin", placeSaveBar);
  form.addEventListener("focusout", () => setTimeout(placeSaveBar, 0));

  // ---- Start: restore a draft left behind (closed tab, offline save) ----
  renderTags("dietaryPreferences");
  renderTags("allergies");
  renderMeals();
  const stored = readDraft();
  if (stored && stored.body) {
    if (stored.units) {
      form.querySelectorAll('input[name="weightUnitToggle"]').forEach((r) => { r.checked = r.value === stored.units.weight; });
      form.querySelectorAll('input[name="heightUnitToggle"]').forEach((r) => { r.checked = r.value === stored.units.height; });
    }
    if (stored.pending) {
      pendingLocal = true;
      localBody = stored.body;
    }
    fill(stored.body);
    if (!stored.pending && hasChanges()) WDiet.toast(t("profile.keptDraft"));
    if (!hasChanges() && !stored.pending) clearDraft();
  } else {
    updateHelper();
  }
  offlineBanner.hidden = online();
  setButton("idle");
  describe();
  if (pendingLocal) syncPending();
})();
