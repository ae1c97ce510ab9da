// The Challenge's screens (issue 20, docs/challenge.md "Screens"): the app lock on every Challenge page, and small
// enhancements of forms that work without script.
"use strict";

WDiet.challenge = (function () {
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

  return { seenNow };
})();
