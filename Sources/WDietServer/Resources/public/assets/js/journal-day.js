// The Journal's day (issue 18, seed 002): the toast of what just happened (002's "First entry today! 🎉",
// "Meal #N today!", a delete with Undo), a card's category changed from its band, and delete with Undo without a
// reload. Every one of them is a plain form without script; day-nav.js adds the swipe between days.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const list = $("journal-list");
  if (!list) return;

  // ---- The notice after an add, an edit or a delete (?added=, ?updated=, ?deleted=) becomes a toast ----
  const flash = $("journal-flash");
  if (flash) {
    const deletedId = flash.dataset.deletedId;
    if (deletedId) {
      WDiet.toast(flash.dataset.flash, { actionLabel: WDiet.t("journalday.undo"), duration: 8000, onAction: () => restoreAndReload(deletedId) });
    } else {
      WDiet.toast(flash.dataset.flash, { duration: 3000 });
    }
    flash.remove();
    const url = new URL(window.location.href);
    ["added", "updated", "deleted"].forEach((name) => url.searchParams.delete(name));
    history.replaceState(null, "", url.pathname + url.search + url.hash);
  }

  async function restoreAndReload(id) {
    try {
      await WDiet.api("POST", `/api/v1/journal/entries/${id}/restore`);
      history.replaceState(null, "", `${window.location.pathname}${window.location.search}#entry-${id}`);
      window.location.reload();
    } catch (error) {
      WDiet.toast(error.message);
    }
  }

  /** The count under the date and the empty state, after a card went or came back. */
  function syncCount() {
    const count = list.children.length;
    list.hidden = count === 0;
    $("journal-empty").hidden = count !== 0;
    $("journal-count").textContent = WDiet.t("journalday.entryCount", { count });
  }

  // ---- A card's category, changed from its band ----
  list.querySelectorAll(".jcard__band").forEach((form) => {
    const select = form.querySelector("select");
    const save = form.querySelector(".jcard__category-save");
    if (save) save.hidden = true;
    form.addEventListener("submit", (event) => event.preventDefault());
    let current = select.value;
    select.addEventListener("change", async () => {
      const card = form.closest(".jcard");
      const value = select.value;
      try {
        await WDiet.api("PUT", `/api/v1/journal/entries/${card.dataset.entryId}`, { category: value === "none" ? null : value });
      } catch (error) {
        select.value = current;
        WDiet.toast(error.message);
        return;
      }
      current = value;
      card.className = card.className.replace(/jcard--(breakfast|lunch|snack|dinner|dessert|beverage|none)/, `jcard--${value}`);
      const icon = form.querySelector(".jcard__icon");
      if (icon) icon.textContent = ICONS[value] || ICONS.none;
      const label = select.options[select.selectedIndex].textContent;
      const removed = value === "none";
      WDiet.toast(removed ? WDiet.t("journalday.categoryRemoved") : WDiet.t("journalday.categoryChanged", { category: label }));
    });
  });
  const ICONS = { breakfast: "🍳", lunch: "🥗", snack: "🍎", dinner: "🍲", dessert: "🍰", beverage: "☕", none: "🏷️" };

  // ---- Delete with Undo ----
  list.querySelectorAll(".jcard__delete").forEach((form) => {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const card = form.closest(".jcard");
      const id = card.dataset.entryId;
      const next = card.nextSibling;
      const button = form.querySelector("button");
      button.disabled = true;
      try {
        await WDiet.api("DELETE", `/api/v1/journal/entries/${id}`);
      } catch (error) {
        button.disabled = false;
        WDiet.toast(error.message);
        return;
      }
      card.remove();
      syncCount();
      WDiet.toast(WDiet.t("journalday.deleted"), {
        actionLabel: WDiet.t("journalday.undo"), duration: 8000,
        onAction: async () => {
          try {
            await WDiet.api("POST", `/api/v1/journal/entries/${id}/restore`);
          } catch (error) {
            WDiet.toast(error.message);
            return;
          }
          button.disabled = false;
          list.insertBefore(card, next && next.parentNode === list ? next : null);
          syncCount();
          WDiet.toast(WDiet.t("journalday.restored"));
        },
      });
    });
  });

  // ---- A highlighted entry (from search, an edit, a duplicate) is scrolled to ----
  const target = window.location.hash && document.getElementById(window.location.hash.slice(1));
  if (target && target.classList.contains("jcard")) {
    target.scrollIntoView({ block: "center", behavior: WDiet.prefersReducedMotion() ? "auto" : "smooth" });
  }
})();
