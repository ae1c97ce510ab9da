// "Discard meal?": leaving a filled meal form (log or edit) asks first. In-app links and the back button get
// the page's dialog.alert; closing or reloading the tab gets the browser's own beforeunload prompt.
"use strict";

window.WDietMealGuard = (function () {
  /** Guards the page while `isDirty()` is true. Returns `allowLeave()`, to call before a deliberate navigation. */
  function install(isDirty) {
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
      if (historyArmed || leaving || !isDirty()) return;
      history.pushState({ mealGuard: true }, "");
      historyArmed = true;
    }
    document.addEventListener("input", arm);
    document.addEventListener("change", arm);
    document.addEventListener("meal-guard:changed", arm);
    window.addEventListener("popstate", () => {
      if (!historyArmed) return;
      historyArmed = false;
      if (leaving || !isDirty()) { history.back(); return; }
      history.pushState({ mealGuard: true }, "");
      historyArmed = true;
      ask(() => history.go(-2));
    });

    window.addEventListener("beforeunload", (event) => {
      if (leaving || !isDirty()) return;
      event.preventDefault();
      event.returnValue = "";
    });

    return { allowLeave() { leaving = true; } };
  }

  return { install };
})();
