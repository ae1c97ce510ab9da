// The profile editor's rules, without the page: 001 §5's validation messages (the same catalog keys the API answers
// with, WDietCore.ProfileValidator, so both say the same words in the reader's language), the unit conversions
// (WDietCore.Units) and the confirmations of §12 (WDietCore.ProfileConfirmation). A Swift test checks that every
// message the API gives is one of these keys.
"use strict";

window.ProfileRules = (function () {
  const t = (key) => window.WDiet.t(key);
  /** Each message in the page's language, read when it is shown. */
  const MESSAGES = {
    get tooYoung() { return t("profile.tooYoung"); },
    get tooOld() { return t("profile.tooOld"); },
    get birthInFuture() { return t("profile.birthInFuture"); },
    get genderMissing() { return t("profile.genderMissing"); },
    get heightTooLow() { return t("profile.heightTooLow"); },
    get heightTooHigh() { return t("profile.heightTooHigh"); },
    get notANumber() { return t("profile.notANumber"); },
    get weightTooLow() { return t("profile.weightTooLow"); },
    get weightTooHigh() { return t("profile.weightTooHigh"); },
    get targetWeightTooLow() { return t("profile.targetWeightTooLow"); },
    get targetWeightTooHigh() { return t("profile.targetWeightTooHigh"); },
    get goalMissing() { return t("profile.goalMissing"); },
    get targetDateNotFuture() { return t("profile.targetDateNotFuture"); },
    get targetDateTooFar() { return t("profile.targetDateTooFar"); },
    get activityMissing() { return t("profile.activityMissing"); },
    get tooManyPreferences() { return t("profile.tooManyPreferences"); },
    get tooManyAllergies() { return t("profile.tooManyAllergies"); },
    get tooFewMeals() { return t("profile.tooFewMeals"); },
    get tooManyMeals() { return t("profile.tooManyMeals"); },
    get tagTooLong() { return t("profile.tagTooLong"); },
    get genderDescriptionTooLong() { return t("profile.genderDescriptionTooLong"); },
    get genderDescriptionNotOther() { return t("profile.genderDescriptionNotOther"); },
  };

  const KG_PER_LB = 0.45359237;
  const CM_PER_INCH = 2.54;
  /** Rounds to one decimal, half away from zero (Units.tenth). */
  const tenth = (v) => Math.sign(v) * Math.round(Math.abs(v) * 10) / 10;
  const poundsFromKg = (kg) => tenth(kg / KG_PER_LB);
  const kgFromPounds = (lb) => tenth(lb * KG_PER_LB);
  function feetAndInches(cm) {
    const totalInches = tenth(cm / CM_PER_INCH);
    const feet = Math.floor(totalInches / 12);
    return { feet, inches: tenth(totalInches - feet * 12) };
  }
  const cmFromFeetAndInches = (feet, inches) => tenth((feet * 12 + inches) * CM_PER_INCH);
  /** 82.5 → "82.5" ("82,5" in German), 180 → "180": one decimal at most, no thousands separator (the form reads it back). */
  function decimal(v) {
    const text = (Math.round(v * 10) / 10).toString();
    const mark = window.WDiet ? window.WDiet.formatNumber(0.5, 1).charAt(1) : ".";
    return mark === "." ? text : text.replace(".", mark);
  }

  /** What a person typed, as NumericInput: {missing}, {invalid} or {value}. Accepts "82,5". */
  function parseNumber(text) {
    const trimmed = String(text == null ? "" : text).trim().replace(",", ".");
    if (trimmed === "") return { missing: true };
    if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) return { invalid: true };
    return { value: Number(trimmed) };
  }

  // Dates as "YYYY-MM-DD" strings; compared as text, counted in whole days through UTC.
  const dayNumber = (iso) => Math.round(Date.parse(iso + "T00:00:00Z") / 86400000);
  const isoFromDay = (n) => new Date(n * 86400000).toISOString().slice(0, 10);
  const addDays = (iso, days) => isoFromDay(dayNumber(iso) + days);
  function age(birth, today) {
    const [by, bm, bd] = birth.split("-").map(Number);
    const [ty, tm, td] = today.split("-").map(Number);
    return ty - by - ((tm < bm || (tm === bm && td < bd)) ? 1 : 0);
  }
  function latestTargetDate(today) {
    const [y, m, d] = today.split("-").map(Number);
    const candidate = new Date(Date.UTC(y + 2, m - 1, d));
    // 29 February becomes 28 February in a year without it.
    if (candidate.getUTCMonth() !== m - 1) return isoFromDay(dayNumber(`${y + 2}-${String(m).padStart(2, "0")}-01`) + 27);
    return candidate.toISOString().slice(0, 10);
  }
  const validDate = (iso) => /^\d{4}-\d{2}-\d{2}$/.test(iso || "") && !Number.isNaN(Date.parse(iso + "T00:00:00Z"))
    && new Date(iso + "T00:00:00Z").toISOString().slice(0, 10) === iso;

  function rangeError(input, low, high, messages, required) {
    if (input.missing) return required ? MESSAGES.notANumber : null;
    if (input.invalid) return MESSAGES.notANumber;
    if (input.value < low) return messages[0];
    if (input.value > high) return messages[1];
    return null;
  }

  /**
   * One field's error, by the API member it belongs to, for a draft in metric:
   * {dateOfBirth, sex, genderDescription, heightCm: NumericInput, weightKg: NumericInput, targetWeightKg: NumericInput, goal,
   *  targetDate, activity, dietaryPreferences: [], allergies: [], mealsPerDay}.
   */
  function fieldError(member, draft, today) {
    switch (member) {
      case "dateOfBirth": {
        const birth = draft.dateOfBirth;
        if (!validDate(birth)) return MESSAGES.tooOld;
        if (birth > today) return MESSAGES.birthInFuture;
        const years = age(birth, today);
        if (years < 13) return MESSAGES.tooYoung;
        if (years > 120) return MESSAGES.tooOld;
        return null;
      }
      case "sex": return draft.sex ? null : MESSAGES.genderMissing;
      case "genderDescription": {
        const description = normalizedGenderDescription(draft.genderDescription);
        if (!description) return null;
        if (characterCount(description) > 20) return MESSAGES.genderDescriptionTooLong;
        if (draft.sex && draft.sex !== "other") return MESSAGES.genderDescriptionNotOther;
        return null;
      }
      case "heightCm": return rangeError(draft.heightCm, 50, 300, [MESSAGES.heightTooLow, MESSAGES.heightTooHigh], true);
      case "weightKg": return rangeError(draft.weightKg, 20, 500, [MESSAGES.weightTooLow, MESSAGES.weightTooHigh], true);
      case "targetWeightKg":
        return rangeError(draft.targetWeightKg, 20, 500, [MESSAGES.targetWeightTooLow, MESSAGES.targetWeightTooHigh], false);
      case "goal": return draft.goal ? null : MESSAGES.goalMissing;
      case "targetDate": {
        const date = draft.targetDate;
        if (!date) return null;
        if (!validDate(date)) return MESSAGES.targetDateNotFuture;
        if (date <= today) return MESSAGES.targetDateNotFuture;
        if (date > latestTargetDate(today)) return MESSAGES.targetDateTooFar;
        return null;
      }
      case "activity": return draft.activity ? null : MESSAGES.activityMissing;
      case "dietaryPreferences": return tagsError(draft.dietaryPreferences, 10, MESSAGES.tooManyPreferences);
      case "allergies": return tagsError(draft.allergies, 20, MESSAGES.tooManyAllergies);
      case "mealsPerDay":
        if (draft.mealsPerDay < 1) return MESSAGES.tooFewMeals;
        if (draft.mealsPerDay > 10) return MESSAGES.tooManyMeals;
        return null;
      default: return null;
    }
  }
  function tagsError(tags, max, tooMany) {
    const cleaned = normalizedTags(tags);
    if (cleaned.length > max) return tooMany;
    if (cleaned.some((t) => t.length > 30)) return MESSAGES.tagTooLong;
    return null;
  }
  /** Trimmed, empty dropped, duplicates removed regardless of case (first spelling kept). */
  function normalizedTags(tags) {
    const seen = new Set();
    const result = [];
    (tags || []).forEach((tag) => {
      const trimmed = String(tag).trim();
      if (!trimmed || seen.has(trimmed.toLowerCase())) return;
      seen.add(trimmed.toLowerCase());
      result.push(trimmed);
    });
    return result;
  }

  /** Characters as a person sees them (an emoji flag is one), as Swift counts them: what the 20-character limit counts. */
  function characterCount(text) {
    if (typeof Intl !== "undefined" && Intl.Segmenter) {
      let count = 0;
      for (const _ of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) count += 1;
      return count;
    }
    return Array.from(text).length;
  }
  /** The description as saved: trimmed; null when nothing is left (WDietCore.ProfileValidator). */
  function normalizedGenderDescription(text) {
    const trimmed = String(text == null ? "" : text).trim();
    return trimmed === "" ? null : trimmed;
  }

  const MEMBERS = ["dateOfBirth", "sex", "genderDescription", "heightCm", "weightKg", "goal", "targetWeightKg", "targetDate", "activity",
    "dietaryPreferences", "allergies", "mealsPerDay"];
  /** Every error of the draft, in the form's order: [{member, message}]. */
  function errors(draft, today) {
    return MEMBERS.map((member) => ({ member, message: fieldError(member, draft, today) })).filter((e) => e.message);
  }

  /**
   * The timeline a target weight and date ask for (WDietCore.Timeline): null when there is nothing to change or
   * the date is not in the future.
   */
  function timeline(currentKg, targetKg, targetDate, today) {
    if (!targetDate) return null;
    const days = dayNumber(targetDate) - dayNumber(today);
    const change = tenth(targetKg - currentKg);
    if (days <= 0 || change === 0) return null;
    const isLoss = change < 0;
    const weeks = days / 7;
    const required = Math.abs(change) / weeks;
    const rates = isLoss ? [0.5, 1.0] : [0.25, 0.5];
    const fewest = Math.ceil(Math.abs(change) / rates[1] - 1e-9);
    const most = Math.ceil(Math.abs(change) / rates[0] - 1e-9);
    return {
      changeKg: change, isLoss, weeks, requiredKgPerWeek: required, isRealistic: required <= rates[1] + 1e-9,
      recommendedWeeks: fewest, recommendedDate: addDays(today, fewest * 7), safeWeeks: [fewest, most], rates,
    };
  }

  /** What a save must confirm first (001 §12), compared with the saved profile. */
  function confirmations(saved, proposed, today) {
    const result = [];
    if (saved.dateOfBirth !== proposed.dateOfBirth) result.push({ kind: "dateOfBirthChange" });
    const heightDelta = tenth(proposed.heightCm - saved.heightCm);
    if (Math.abs(heightDelta) > 5) result.push({ kind: "largeHeightChange", deltaCm: heightDelta });
    const weightDelta = tenth(proposed.weightKg - saved.weightKg);
    if (Math.abs(weightDelta) > 10) result.push({ kind: "largeWeightChange", deltaKg: weightDelta });
    if (saved.goal !== proposed.goal) result.push({ kind: "goalChange" });
    // A timeline or an extreme value already confirmed is not asked again while its inputs stay as saved.
    const timelineEdited = saved.weightKg !== proposed.weightKg || saved.targetWeightKg !== proposed.targetWeightKg
      || saved.targetDate !== proposed.targetDate;
    if (timelineEdited && proposed.targetWeightKg != null && proposed.targetDate) {
      const t = timeline(proposed.weightKg, proposed.targetWeightKg, proposed.targetDate, today);
      if (t && !t.isRealistic) result.push({ kind: "unrealisticTimeline", timeline: t });
    }
    if (saved.heightCm !== proposed.heightCm && (proposed.heightCm < 80 || proposed.heightCm > 250)) result.push({ kind: "extremeHeight" });
    if (saved.weightKg !== proposed.weightKg && (proposed.weightKg < 30 || proposed.weightKg > 200)) result.push({ kind: "extremeWeight" });
    return result;
  }

  return {
    MESSAGES, tenth, poundsFromKg, kgFromPounds, feetAndInches, cmFromFeetAndInches, decimal, parseNumber,
    addDays, age, latestTargetDate, fieldError, errors, normalizedTags, timeline, confirmations, MEMBERS,
    characterCount, normalizedGenderDescription,
  };
})();
