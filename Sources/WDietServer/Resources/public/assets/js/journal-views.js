// The Journal's views (calendar, Insights, recap, an entry as meals): the milestone overlay, logging an entry's
// foods, sharing the recap's card, and the entry a search result opened (#entry-<id>) highlighted on its day.
"use strict";

(function () {
  const reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const colours = ["--jv-breakfast", "--jv-lunch", "--jv-snack", "--jv-dinner", "--jv-dessert", "--jv-beverage"]; // catalog-exempt: CSS custom properties

  function confetti(box, pieces) {
    if (!box || reduceMotion) return;
    for (let i = 0; i < pieces; i++) {
      const piece = document.createElement("span");
      piece.className = "jv-confetti-piece";
      piece.style.left = Math.round(Math.random() * 100) + "%";
      piece.style.background = "var(" + colours[i % colours.length] + ")";
      piece.style.animationDelay = (Math.random() * 0.8).toFixed(2) + "s";
      box.appendChild(piece);
    }
  }

  // The milestone overlay: rendered by the server when a milestone was just reached (already recorded as celebrated).
  const overlay = document.getElementById("journal-milestone");
  if (overlay) {
    const dismiss = document.getElementById("journal-milestone-dismiss");
    const before = document.activeElement;
    confetti(overlay.querySelector(".jv-milestone__confetti"), 40);
    // A buzz only after the person has touched the page (browsers refuse it before, and say so).
    if (navigator.vibrate && !reduceMotion && navigator.userActivation && navigator.userActivation.hasBeenActive) navigator.vibrate(30);
    dismiss.focus();
    const close = (event) => {
      if (event) event.preventDefault();
      overlay.hidden = true;
      if (before && before.focus) before.focus();
    };
    dismiss.addEventListener("click", close);
    overlay.addEventListener("keydown", (event) => {
      if (event.key === "Escape") close(event);
      if (event.key === "Tab") { event.preventDefault(); dismiss.focus(); }
    });
  }

  // The recap's perfect week: confetti under "A perfect week".
  document.querySelectorAll(".jv-confetti--inline").forEach((box) => confetti(box, 24));

  // The recap's share card: the system's share sheet where the browser has one (the download link stays).
  const share = document.getElementById("recap-share");
  if (share && navigator.share && navigator.canShare) {
    share.hidden = false;
    share.addEventListener("click", async () => {
      try {
        const response = await fetch(share.dataset.href, { credentials: "same-origin" });
        const file = new File([await response.blob()], share.dataset.file, { type: "image/svg+xml" });
        if (navigator.canShare({ files: [file] })) await navigator.share({ files: [file] });
      } catch (error) {
        // Cancelled or refused: the download link does the same.
      }
    });
  }

  // An entry as meals: each food's Log logs it with the portion chosen, on the entry's day, in its slot.
  const meals = document.getElementById("journal-meals");
  if (meals) {
    meals.addEventListener("click", async (event) => {
      const button = event.target.closest(".jv-food__log");
      if (!button || button.disabled) return;
      const food = button.closest(".jv-food");
      const portion = food.querySelector(".jv-food__portion").value;
      const name = food.querySelector(".jv-food__name").firstChild.textContent.trim();
      button.disabled = true;
      try {
        await WDiet.api("POST", "/api/v1/meals/batch", {
          date: meals.dataset.date, slot: meals.dataset.slot,
          items: [{ id: WDiet.newId(), foodId: food.dataset.foodId, portion: portion, quantity: 1 }],
        });
        food.classList.add("jv-food--logged");
        WDiet.toast(WDiet.t("journalViews.logged", { food: name }));
      } catch (error) {
        WDiet.toast(error.message);
      } finally {
        button.disabled = false;
      }
    });
  }

  // The day view opened from a search result: the entry named by the address's #entry-<id> is scrolled to and
  // highlighted (the day view's own script may do the same; doing it twice is harmless).
  function highlight() {
    const match = /^#entry-([0-9a-f-]{36})$/.exec(window.location.hash);
    if (!match) return;
    const card = document.getElementById("entry-" + match[1]);
    if (!card) return;
    card.classList.add("highlight");
    card.scrollIntoView({ block: "center", behavior: reduceMotion ? "auto" : "smooth" });
  }
  highlight();
  window.addEventListener("hashchange", highlight);
})();
