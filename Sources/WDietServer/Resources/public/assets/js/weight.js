// The weight picker (000 "Weight Input Flow"): whole units and tenths as two listboxes, starting at the latest
// weight. Save posts to the JSON API, then swaps in the freshly rendered dashboard so the prompt card goes and the
// weight card and the streak show the new state without a full reload.
"use strict";

(function () {
  const sheet = document.getElementById("weight-sheet");
  if (!sheet) return;
  const form = document.getElementById("weight-form");
  const whole = document.getElementById("weight-whole");
  const tenth = document.getElementById("weight-tenth");
  const error = document.getElementById("weight-error");
  const save = document.getElementById("weight-save");
  const readout = document.getElementById("weight-readout");
  const unit = sheet.dataset.unit === "lb" ? "lb" : "kg";
  const title = document.getElementById("weight-sheet-title");
  const logTitle = title.textContent;
  let opener = null;
  let saving = false;
  /** The id of the entry being edited (its Edit button opened the picker); null when logging a new weight. */
  let editing = null;

  /** The Save button's label: "Saving…" while the weight is on its way. */
  function setSaving(busy) {
    saving = busy;
    save.disabled = busy;
    const label = WDiet.t(busy ? "weights.saving" : "weights.save");
    save.textContent = label;
  }

  function showError(message) {
    error.textContent = message;
    error.hidden = !message;
  }

  /** Both columns on `value` ("79.4"), or on the weight the page started them at when there is none. */
  function selectValue(value) {
    if (value) {
      const [units, tenthDigit] = String(value).split(".");
      selectOption(whole, units);
      selectOption(tenth, tenthDigit || "0");
    } else {
      [whole, tenth].forEach((column) => {
        const start = Array.from(column.options).find((option) => option.defaultSelected);
        if (start) column.value = start.value;
      });
    }
  }
  function selectOption(column, value) {
    if (Array.from(column.options).some((option) => option.value === value)) column.value = value;
  }

  function open(trigger) {
    opener = trigger;
    editing = trigger.dataset.editWeight || null;
    title.textContent = editing ? WDiet.t("days.weightEditTitle") : logTitle;
    selectValue(editing ? trigger.dataset.value : null);
    showError("");
    sheet.showModal();
    // The list scrolls so the starting value sits in the middle of the wheel. An option's offsetTop counts from the
    // dialog, not the list, so the distance is measured on screen.
    [whole, tenth].forEach(centre);
    showReadout();
    whole.focus();
  }

  function centre(column) {
    const selected = column.options[column.selectedIndex];
    if (!selected) return;
    const list = column.getBoundingClientRect(), option = selected.getBoundingClientRect();
    column.scrollTop += (option.top - list.top) - (list.height - option.height) / 2;
  }

  /** The chosen weight in words as well as in the wheel: "82.4 kg". */
  function showReadout() {
    const value = Number(`${whole.value}.${tenth.value}`);
    readout.textContent = Number.isFinite(value) && whole.value !== "" ? `${WDiet.formatNumber(value, 1)} ${unit}` : "";
  }
  [whole, tenth].forEach((column) => column.addEventListener("change", showReadout));

  sheet.addEventListener("close", () => {
    // Focus goes back where the user was: the control that opened the picker, or the weight card that replaced it.
    const target = opener && opener.isConnected ? opener : document.getElementById("weight-card");
    if (target) target.focus();
  });

  document.addEventListener("click", (event) => {
    const trigger = event.target.closest("[data-open-weight], [data-edit-weight]");
    if (trigger) open(trigger);
    const remove = event.target.closest("[data-delete-weight]");
    if (remove) deleteWeight(remove);
  });

  /** Delete with Undo (issue 17): the entry goes at once; Undo brings it back through the API. */
  async function deleteWeight(button) {
    const id = button.dataset.deleteWeight;
    button.disabled = true;
    try {
      await WDiet.api("DELETE", `/api/v1/weights/${encodeURIComponent(id)}`);
    } catch (failure) {
      button.disabled = false;
      WDiet.toast(failure.message);
      return;
    }
    await refreshOrReload();
    WDiet.toast(WDiet.t("days.weightDeleted"), {
      actionLabel: WDiet.t("meals.undo"), duration: 8000,
      onAction: async () => {
        try {
          await WDiet.api("POST", `/api/v1/weights/${encodeURIComponent(id)}/restore`);
        } catch (failure) {
          WDiet.toast(failure.message);
          return;
        }
        await refreshOrReload();
        WDiet.toast(WDiet.t("days.weightRestored"));
      },
    });
  }

  async function refreshOrReload() {
    try {
      await refreshDashboard();
      const card = document.getElementById("weight-card");
      if (card && (document.activeElement === document.body || !document.activeElement)) card.focus();
    } catch (_) {
      window.location.reload();
    }
  }

  /** Re-renders the live part of the dashboard from the server. */
  async function refreshDashboard() {
    // The page's own URL: a past day's dashboard stays on its day.
    const response = await fetch(window.location.pathname + window.location.search, { credentials: "same-origin", headers: { "Accept": "text/html" } });
    if (!response.ok) throw new Error("refresh failed");
    const html = await response.text();
    const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("dashboard-live");
    const current = document.getElementById("dashboard-live");
    if (!fresh || !current) throw new Error("refresh failed");
    current.replaceWith(document.adoptNode(fresh));
    document.dispatchEvent(new CustomEvent("wdiet:dashboard-updated"));
    return fresh;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (saving) return;
    const value = Number(`${whole.value}.${tenth.value}`);
    if (!Number.isFinite(value) || whole.value === "") {
      showError(WDiet.t("weights.invalid"));
      return;
    }
    const badge = document.getElementById("streak-badge");
    const wasActive = badge && badge.dataset.streakActive === "true";
    setSaving(true);
    try {
      if (editing) {
        // An edit keeps the entry's time and day.
        await WDiet.api("PUT", `/api/v1/weights/${encodeURIComponent(editing)}`, { [unit]: value });
      } else {
        const body = { [unit]: value, id: WDiet.newId() };
        // A past day's picker saves onto that day (its local noon, rendered by the server).
        if (sheet.dataset.loggedAt) body.loggedAt = sheet.dataset.loggedAt;
        await WDiet.api("POST", "/api/v1/weights", body);
      }
    } catch (failure) {
      const message = (failure.fields && (failure.fields.kg || failure.fields.lb)) || failure.message;
      showError(message);
      setSaving(false);
      return;
    }
    sheet.close();
    setSaving(false);
    const logged = WDiet.t(editing ? "days.weightUpdated" : "weights.logged");
    WDiet.toast(logged);
    try {
      const fresh = await refreshDashboard();
      const newBadge = fresh.querySelector("#streak-badge");
      if (!wasActive && newBadge && newBadge.dataset.streakActive === "true") {
        if (!WDiet.prefersReducedMotion()) newBadge.classList.add("streak-badge--pop");
        const activated = WDiet.t("weights.streakActivated");
        WDiet.toast(activated);
      }
      const card = document.getElementById("weight-card");
      if (card && document.activeElement === document.body) card.focus();
    } catch (_) {
      // The weight is saved; if the page could not be refreshed in place, load it again.
      window.location.reload();
    }
  });
})();
