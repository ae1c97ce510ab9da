// The Challenge's screens (issue 20, docs/challenge.md "Screens"): the app lock on every Challenge page, and small
// enhancements of forms that work without script.
"use strict";

// Loaded from the head (`challenge-head`) before app.js: nothing here uses `WDiet` until an event or DOMContentLoaded.
window.WDietChallenge = (function () {
  // When the person was last seen on a Challenge page in this browser (ms since 1970), and the lock's minutes.
  const LAST_SEEN = "wdiet.challenge.lastSeen";
  const lockMeta = document.querySelector('meta[name="wdiet-challenge-lock"]');
  const lockMinutes = lockMeta ? Number(lockMeta.content) : 0;
  const onLockPage = document.body && document.body.dataset.screen === "challenge-lock";

  function lastSeen() {
    try { return Number(localStorage.getItem(LAST_SEEN)) || 0; } catch (_) { return 0; }
  }
  function seenNow() {
    try { localStorage.setItem(LAST_SEEN, String(Date.now())); } catch (_) { /* private mode: nothing kept */ }
  }
  function lockedOut() {
    return lockMinutes > 0 && Date.now() - lastSeen() > lockMinutes * 60000;
  }
  function goToLock() {
    const next = location.pathname + location.search;
    location.replace("/challenge/lock?next=" + encodeURIComponent(next));
  }

  // Every Challenge page counts as a visit, with the lock on or off: turning the lock on (Settings) must not lock
  // the page the person is on.
  if (lockMinutes === 0 && !onLockPage) {
    seenNow();
    addEventListener("pagehide", seenNow);
  }
  if (lockMinutes > 0 && !onLockPage) {
    if (lockedOut()) {
      goToLock();
    } else {
      seenNow();
      // Activity keeps it open; coming back to the tab after the minutes away locks it.
      let last = 0;
      const touch = () => { const now = Date.now(); if (now - last > 15000) { last = now; seenNow(); } };
      ["pointerdown", "keydown", "scroll"].forEach((name) => addEventListener(name, touch, { passive: true }));
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible") { if (lockedOut()) goToLock(); else seenNow(); }
      });
      addEventListener("pagehide", seenNow);
    }
  }

  document.documentElement.classList.add("ch-js");

  // A form marked data-autosubmit saves as soon as one of its fields changes (Home's habit switches).
  document.querySelectorAll("form[data-autosubmit]").forEach((form) => {
    form.addEventListener("change", () => form.requestSubmit());
  });

  // Log: choosing a day in the date picker opens it; the template button follows the chosen workout type.
  document.querySelectorAll("input[data-autosubmit-date]").forEach((input) => {
    input.addEventListener("change", () => { if (input.value) input.form.requestSubmit(); });
  });
  const templateButton = document.getElementById("ch-use-template");
  document.querySelectorAll('#ch-workout-type input[name="type"]').forEach((radio) => {
    radio.addEventListener("change", () => {
      if (!templateButton || !radio.checked) return;
      templateButton.value = radio.value;
      templateButton.textContent = radio.dataset.templateLabel;
    });
  });

  // The PIN page: the right PIN opens the page asked for; a wrong one says how many attempts are left; the fifth
  // wrong one in a row ended every session (401 pin_locked_out): the sign-in page.
  const lockForm = document.getElementById("ch-lock-form");
  if (lockForm) {
    const input = document.getElementById("ch-lock-pin");
    const error = document.getElementById("ch-lock-error");
    input.focus();
    lockForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      error.textContent = "";
      input.removeAttribute("aria-invalid");
      const button = lockForm.querySelector("button[type=submit]");
      button.disabled = true;
      try {
        await WDiet.api("POST", "/api/v1/challenge/app-lock/verify", { pin: input.value });
        seenNow();
        location.replace(lockForm.dataset.next || "/challenge");
      } catch (failure) {
        if (failure.status === 401) { location.replace("/login"); return; }
        if (failure.status === 404) { seenNow(); location.replace(lockForm.dataset.next || "/challenge"); return; }
        const left = Number(failure.fields && failure.fields.attemptsLeft);
        error.textContent = failure.code === "pin_wrong" && left > 0 ? WDiet.t("challenge.lockAttemptsLeft", { count: left }) : failure.message;
        input.setAttribute("aria-invalid", "true");
        input.value = "";
        input.focus();
      } finally {
        button.disabled = false;
      }
    });
  }

  // Weekly Check-In: the photo goes to the media store first (PUT /api/v1/media/{id}), then becomes the week's.
  const upload = document.querySelector(".ch-photo-upload");
  if (upload) {
    upload.hidden = false;
    const file = document.getElementById("ch-photo-file");
    const status = document.getElementById("ch-photo-status");
    file.addEventListener("change", async () => {
      const chosen = file.files && file.files[0];
      if (!chosen) return;
      status.textContent = WDiet.t("challenge.photoUploading");
      const preview = document.getElementById("ch-photo-preview");
      preview.classList.add("ch-skeleton");
      const id = WDiet.newId();
      try {
        let response;
        try {
          response = await fetch(`/api/v1/media/${id}`, {
            method: "PUT", credentials: "same-origin", body: chosen,
            headers: { "Content-Type": chosen.type || "application/octet-stream", "Accept": "application/json", "X-CSRF-Token": WDiet.csrfToken() },
          });
        } catch (_) {
          throw new Error(WDiet.t("common.offline"));
        }
        if (!response.ok) {
          let message = WDiet.t("common.somethingWentWrong");
          try { const body = await response.json(); if (body && body.error && body.error.message) message = body.error.message; } catch (_) { /* not JSON */ }
          throw new Error(message);
        }
        await WDiet.api("PUT", `/api/v1/challenge/weeks/${upload.dataset.week}/photo`, { mediaId: id });
        location.assign(`/challenge/check-in?week=${upload.dataset.week}&saved=photo#photo`);
      } catch (failure) {
        preview.classList.remove("ch-skeleton");
        status.textContent = failure.message;
      }
    });
  }

  return { seenNow };
})();
