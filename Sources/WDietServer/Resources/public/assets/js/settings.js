// Settings: saves units, eating window and time zone with PUT /api/v1/profile against the version the page showed
// (baseVersion), so a change made on another device in between is reported (409) rather than overwritten.
// The language is a plain form the server handles (POST /settings/language); the page comes back in it.
"use strict";

(function () {
  const form = document.getElementById("settings-form");
  if (!form) return;

  const saveButton = document.getElementById("settings-save");
  const errorBox = document.getElementById("settings-error");
  const windowSelect = document.getElementById("eating-window-start");
  const windowRange = document.getElementById("window-range");
  const SETTINGS = ["weightUnit", "heightUnit", "eatingWindowStart", "timeZone"];
  // The members PUT requires; the optional ones it keeps as stored when left out.
  const KEPT = ["dateOfBirth", "sex", "heightCm", "weightKg", "goal", "activity"];

  function values() {
    const data = new FormData(form);
    const result = {};
    SETTINGS.forEach((name) => { result[name] = data.get(name); });
    return result;
  }
  let saved = values();
  const changed = () => SETTINGS.some((name) => values()[name] !== saved[name]);
  const updateButton = () => { saveButton.disabled = !changed(); };

  function showFieldErrors(fields) {
    form.querySelectorAll("[data-error-for]").forEach((p) => {
      const message = fields[p.dataset.errorFor] || "";
      p.textContent = message;
      p.closest(".field").classList.toggle("field--invalid", Boolean(message));
    });
  }
  function showError(message) {
    errorBox.textContent = message || "";
    errorBox.hidden = !message;
  }

  form.addEventListener("change", (event) => {
    if (event.target === windowSelect) windowRange.textContent = windowSelect.selectedOptions[0].textContent;
    showError(null);
    updateButton();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!changed()) return;
    showFieldErrors({});
    showError(null);
    saveButton.disabled = true;
    saveButton.textContent = WDiet.t("settings.saving");
    try {
      // PUT replaces the profile, so the members this page does not show go back as the server has them.
      const current = await WDiet.api("GET", "/api/v1/profile");
      const body = { baseVersion: Number(form.dataset.version) };
      KEPT.forEach((name) => { if (current[name] !== null && current[name] !== undefined) body[name] = current[name]; });
      Object.assign(body, values());
      const result = await WDiet.api("PUT", "/api/v1/profile", body);
      form.dataset.version = String(result.version);
      saved = values();
      const notice = result.pendingChange && result.pendingChange.message;
      WDiet.toast(notice ? WDiet.t("settings.savedWithNotice", { notice }) : WDiet.t("settings.saved"));
      saveButton.textContent = WDiet.t("settings.saveChanges");
      updateButton();
    } catch (error) {
      saveButton.textContent = WDiet.t("settings.saveChanges");
      saveButton.disabled = false;
      if (error.status === 409) {
        document.getElementById("conflict-dialog").showModal();
      } else if (error.status === 422 && Object.keys(error.fields).some((f) => SETTINGS.includes(f))) {
        showFieldErrors(error.fields);
      } else if (error.status === 401) {
        location.assign("/");
      } else {
        showError(error.status === 0
          ? WDiet.t("settings.offline")
          : error.message);
      }
    }
  });

  document.querySelector("#conflict-dialog [data-reload]").addEventListener("click", () => location.reload());

  // A guest who logs out cannot come back: ask first, and point to adding an email and password.
  const logoutForm = document.querySelector(".settings__logout[data-guest]");
  const guestDialog = document.getElementById("guest-logout-dialog");
  if (logoutForm && guestDialog) {
    let confirmed = false;
    logoutForm.addEventListener("submit", (event) => {
      if (confirmed) return;
      event.preventDefault();
      guestDialog.showModal();
    });
    guestDialog.querySelector("[data-cancel]").addEventListener("click", () => guestDialog.close());
    guestDialog.querySelector("[data-confirm]").addEventListener("click", () => {
      confirmed = true;
      guestDialog.close();
      logoutForm.requestSubmit();
    });
  }

  // Delete account: a confirmation dialog that says what goes; opened again by the server after a refusal.
  const deleteDialog = document.getElementById("delete-account-dialog");
  const deleteOpen = document.getElementById("delete-account-open");
  if (deleteDialog && deleteOpen) {
    const open = () => {
      deleteDialog.showModal();
      const password = document.getElementById("delete-password");
      if (password) password.focus();
    };
    deleteOpen.addEventListener("click", open);
    deleteDialog.querySelector("[data-cancel]").addEventListener("click", () => deleteDialog.close());
    deleteDialog.querySelector("form").addEventListener("submit", (event) => {
      const button = event.target.querySelector('button[type="submit"]');
      button.disabled = true;
      button.textContent = WDiet.t("settings.deleting");
    });
    if (deleteDialog.hasAttribute("data-open")) open();
  }

  if (form.dataset.toast) {
    WDiet.toast(form.dataset.toast);
    history.replaceState(null, "", location.pathname + location.hash);  // a reload should not say it again
  }
  // The dashboard's ✏️ links to #eating-window: bring the window's control into focus.
  // After load, because the browser's own jump to the fragment comes after deferred scripts.
  if (location.hash === "#eating-window") {
    window.addEventListener("load", () => requestAnimationFrame(() => windowSelect.focus()));
  }
})();
