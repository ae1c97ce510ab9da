// The coach's tips (004 Story 2.4): each `[data-tip="ID"]` on a page pops up until the user taps "Got it", once
// per user (stored by the API, so it holds on every device); `[data-tip-open="ID"]` (the ℹ️ buttons) shows it
// again without undismissing it. Tips start `hidden` in the markup: if the API cannot be reached they stay
// hidden, and the page works as it is.
//
// Markup contract (other pages use it as is):
//   <div class="tip" data-tip="ID" role="note" hidden> … <button type="button" class="tip__dismiss" data-tip-dismiss>Got it</button></div>
//   <button type="button" class="info-button" data-tip-open="ID" aria-label="…">ℹ️</button>
"use strict";

window.WDietTips = (function () {
  const tipsWithId = (id) => Array.from(document.querySelectorAll("[data-tip]")).filter((tip) => tip.dataset.tip === id);
  const openersOf = (id) => Array.from(document.querySelectorAll("[data-tip-open]")).filter((button) => button.dataset.tipOpen === id);
  const isShown = (element) => !element.hidden && element.getClientRects().length > 0;

  function show(tip) {
    tip.hidden = false;
    // Focusable from script only, so the tip itself can take focus when an ℹ️ opens it.
    if (!tip.hasAttribute("tabindex")) tip.setAttribute("tabindex", "-1");
    openersOf(tip.dataset.tip).forEach((button) => button.setAttribute("aria-expanded", "true"));
  }

  function hide(tip) {
    tip.hidden = true;
    openersOf(tip.dataset.tip).forEach((button) => button.setAttribute("aria-expanded", "false"));
  }

  /** Shows the tip(s) with this id and moves focus to the first, as an ℹ️ button does. */
  function open(id) {
    const tips = tipsWithId(id);
    if (tips.length === 0) return;
    tips.forEach(show);
    const first = tips[0];
    first.focus({ preventScroll: true });
    first.scrollIntoView({ block: "nearest", behavior: WDiet.prefersReducedMotion() ? "auto" : "smooth" });
  }

  /** Got it (the dismiss button): hides the tip for good. Focus goes where the user can find the tip again (its ℹ️), else to the page. */
  function dismiss(tip) {
    const id = tip.dataset.tip;
    const hadFocus = tip.contains(document.activeElement);
    tipsWithId(id).forEach(hide);
    if (hadFocus) {
      const opener = openersOf(id).find(isShown);
      const main = document.getElementById("main");
      if (opener) {
        opener.focus();
      } else if (main) {
        if (!main.hasAttribute("tabindex")) main.setAttribute("tabindex", "-1");
        main.focus({ preventScroll: true });
      }
    }
    // Idempotent on the server; if it fails, the tip simply shows again next time.
    WDiet.api("POST", `/api/v1/tips/${encodeURIComponent(id)}/dismiss`).catch(() => {});
  }

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    const dismissButton = target.closest("[data-tip-dismiss]");
    if (dismissButton) {
      const tip = dismissButton.closest("[data-tip]");
      if (tip) dismiss(tip);
      return;
    }
    const opener = target.closest("[data-tip-open]");
    if (opener) open(opener.dataset.tipOpen);
  });

  /** Asks the API which tips the user has dismissed and shows the others. Resolves either way. */
  function refresh() {
    const tips = Array.from(document.querySelectorAll("[data-tip]"));
    if (tips.length === 0) return Promise.resolve();
    return WDiet.api("GET", "/api/v1/tips")
      .then((body) => {
        const dismissed = new Set((body && body.dismissed) || []);
        tips.forEach((tip) => { if (!dismissed.has(tip.dataset.tip)) show(tip); });
      })
      .catch(() => { /* Tips are a nicety: without the API they stay hidden. */ });
  }

  const ready = refresh();
  // The dashboard swaps its section in place after a weight is saved; the new section's tips need showing too
  // (the first 7-day average can appear with that very weight).
  document.addEventListener("wdiet:dashboard-updated", () => { refresh(); });
  return { open, refresh, ready };
})();
