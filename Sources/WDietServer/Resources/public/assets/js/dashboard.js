// The dashboard: grows the ring and the macro bars from zero (unless the user prefers reduced motion) and opens the
// ℹ️ explanations. The numbers themselves come rendered from the server.
"use strict";

(function () {
  /** Draws every ring segment and macro bar from empty to its rendered size. */
  function animateGrowth(root) {
    if (WDiet.prefersReducedMotion()) return;
    const ring = root.querySelector(".ring");
    const segments = root.querySelectorAll(".ring__segment");
    if (ring && segments.length) {
      segments.forEach((segment) => {
        segment.style.strokeDasharray = "0 100";
        segment.style.strokeDashoffset = "0";
      });
      // Two frames: the empty state must be painted before the transition starts.
      requestAnimationFrame(() => requestAnimationFrame(() => {
        ring.classList.add("ring--animate");
        segments.forEach((segment) => {
          segment.style.strokeDasharray = "";
          segment.style.strokeDashoffset = "";
        });
      }));
    }
    root.querySelectorAll(".macro__bar").forEach((bar) => {
      const fill = bar.querySelector(".macro__bar-fill");
      if (!fill) return;
      fill.style.transformOrigin = "0 0";
      fill.style.transform = "scaleX(0)";
      requestAnimationFrame(() => requestAnimationFrame(() => {
        bar.classList.add("macro__bar--animate");
        fill.style.transform = "";
      }));
    });
  }

  /** Opens a dialog and puts focus back on the control that opened it when it closes. */
  function openDialog(dialog, opener) {
    if (!dialog || dialog.open) return;
    dialog.addEventListener("close", () => {
      const target = opener && opener.isConnected ? opener : document.getElementById(opener && opener.id) || null;
      if (target) target.focus();
    }, { once: true });
    dialog.showModal();
  }

  document.addEventListener("click", (event) => {
    const opener = event.target.closest("[data-open-dialog]");
    if (opener) {
      openDialog(document.getElementById(opener.dataset.openDialog), opener);
      return;
    }
    const closer = event.target.closest("[data-close-dialog]");
    if (closer) {
      const dialog = closer.closest("dialog");
      if (dialog) dialog.close();
    }
  });

  // A tap on the dimmed backdrop closes a dialog, as on a phone.
  document.querySelectorAll("dialog").forEach((dialog) => {
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) dialog.close();
    });
  });

  window.WDietDashboard = { animateGrowth, openDialog };

  const live = document.getElementById("dashboard-live");
  if (live) animateGrowth(live);
})();
