// "Discard meal?": leaving a filled meal form (log or edit) asks first. In-app links and the back button get
// the page's dialog.alert; closing or reloading the tab gets the browser's own beforeunload prompt.
"use strict";

window.WDietMealGuard = (function () {
  /** Guards the page while `isDirty()` is true. Returns `allowLeave()`, to call before a deliberate navigation.
   *  `backIsDirty()` (default `isDirty`) decides for the back button, on a page whose steps have history entries. */
  function install(isDirty, backIsDirty = isDirty) {
    const dialog = document.getElementById("discard-dialog");
    let leaving = false;
    let pending = null;
    let historyArmed = false;

    function ask(proceed) {
      if (!dialog || typeof dialog.showModal !== "function") {
        if (window.confirm(WDiet.t("meals.discardTitle"))) { leaving = true; proceed(); }
        return;
      }
      pending = proceed;
      dialog.showModal();
    }

    if (dialog) {
      dialog.addEventListener("click", (event) => {
        const button = event.target.closest("[data-discard]");
        if (!button) return;
        dialog.close();
        const proceed = pending;
        pending = null;
        if (button.dataset.discard === "leave" && proceed) { leaving = true; proceed(); }
      });
      dialog.addEventListener("cancel", () => { pending = null; });
    }

    document.addEventListener("click", (event) => {
      const link = event.target.closest("a[href]");
      if (!link || leaving || !isDirty()) return;
      if (link.target === "_blank" || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      if ((link.getAttribute("href") || "").startsWith("#")) return;
      event.preventDefault();
      ask(() => window.location.assign(link.href));
    });

    // The back button: once the form holds something, an extra history entry catches the first "back".
    function arm() {
      if (historyArmed || leaving || !backIsDirty()) return;
      history.pushState({ mealGuard: true }, "");
      historyArmed = true;
    }
    document.addEventListener("input", arm);
    document.addEventListener("change", arm);
    document.addEventListener("meal-guard:changed", arm);
    window.addEventListener("popstate", (event) => {
      // Back onto the guard's own entry came from a page step above it (the portion step): not a leave.
      if (!historyArmed || (event.state && event.state.mealGuard)) return;
      historyArmed = false;
      if (leaving || !backIsDirty()) { history.back(); return; }
      history.pushState({ mealGuard: true }, "");
      historyArmed = true;
      ask(() => history.go(-2));
    });

    window.addEventListener("beforeunload", (event) => {
      if (leaving || !isDirty()) return;
      event.preventDefault();
      event.returnValue = "";
    });

    const guard = {
      allowLeave() { leaving = true; },
      /** Asks the discard question (meals.discardTitle) before a step inside the page that throws away what was entered; `proceed` on Discard. */
      ask(proceed) { ask(() => { leaving = false; proceed(); }); },
    };
    current = guard;
    return guard;
  }

  // The page's guard (one per page), for scripts that add to the meal form (Scan Label's review).
  let current = null;
  return { install, current: () => current };
})();
