// Import (Settings → Your data, and /settings/import before onboarding): sends the chosen export file as it is —
// the zip with photos and recordings, or the JSON document — to POST /api/v1/import with the session cookie and the
// page's CSRF token (X-CSRF-Token, checked like every script's API call), and says what came back or why nothing did.
// The browser streams the file from disk; nothing is read into the page. docs/web-app.md "Import".
"use strict";

(function () {
  const form = document.getElementById("import-form");
  if (!form) return;
  form.hidden = false;

  const MEGABYTE = 1024 * 1024;
  const MAX_ZIP = 1024 * MEGABYTE;
  const MAX_JSON = 32 * MEGABYTE;
  const input = document.getElementById("import-file");
  const field = document.getElementById("import-field");
  const errorBox = document.getElementById("import-error");
  const progress = document.getElementById("import-progress");
  const submit = document.getElementById("import-submit");
  const done = document.getElementById("import-done");

  /** "zip", "json" or null, by the file's name and then its type (some systems give no type). */
  function kindOf(file) {
    const name = file.name.toLowerCase();
    if (name.endsWith(".zip") || /zip/.test(file.type)) return "zip";
    if (name.endsWith(".json") || file.type === "application/json") return "json";
    return null;
  }

  function showError(lines) {
    errorBox.replaceChildren();
    (lines || []).filter(Boolean).forEach((line, index) => {
      const p = document.createElement("p");
      p.textContent = line;
      if (index > 0) p.className = "data-import__detail";
      errorBox.appendChild(p);
    });
    const shown = errorBox.childElementCount > 0;
    errorBox.hidden = !shown;
    field.classList.toggle("field--invalid", shown);
    if (shown) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  /** "3 minutes" / "45 seconds" from a Retry-After in seconds (a minute when it is missing). */
  function wait(retryAfter) {
    const seconds = Math.max(1, Number(retryAfter) || 60);
    if (seconds < 60) return WDiet.t("export.importWaitSeconds", { count: seconds });
    return WDiet.t("export.importWaitMinutes", { count: Math.ceil(seconds / 60) });
  }

  /** The catalog's sentence for a refusal, then what the server said about it when that adds something. */
  function refusal(status, body, retryAfter) {
    const detail = (body && body.error) || {};
    const fields = detail.fields || {};
    switch (status) {
      case 400: return [WDiet.t("export.importEmpty")];
      case 403: return [WDiet.t("export.importExpired")];
      case 409: return [WDiet.t("export.importHasData")];
      case 413: return [WDiet.t("export.importServerTooBig"), detail.message];
      case 415: return [WDiet.t("export.importUnsupported"), detail.message];
      case 422: {
        const item = Object.keys(fields).find((name) => /^media\.\d+$/.test(name));
        if (item) {
          return [WDiet.t("export.importInvalidItem", { number: Number(item.split(".")[1]) + 1 }), fields[item]];
        }
        const named = Object.keys(fields).slice(0, 3).map((name) => `${name}: ${fields[name]}`);
        return [WDiet.t("export.importInvalid"), detail.message, ...named];
      }
      case 429: return [WDiet.t("export.importTooMany", { wait: wait(retryAfter) })];
      case 503: return [WDiet.t("export.importBusyRetry", { wait: wait(retryAfter) })];
      default: return [WDiet.t("export.importFailed")];
    }
  }

  function showDone(result) {
    const counts = result.imported || {};
    const list = document.getElementById("import-summary");
    list.replaceChildren();
    const lines = [];
    if (counts.profile) lines.push(WDiet.t("export.importedProfile"));
    lines.push(WDiet.t("export.importedMeals", { count: counts.meals || 0 }));
    lines.push(WDiet.t("export.importedWeights", { count: counts.weights || 0 }));
    lines.push(WDiet.t("export.importedRows", { count: counts.rows || 0 }));
    lines.push(WDiet.t("export.importedMedia", { count: counts.media || 0 }));
    lines.forEach((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    });
    const dropped = document.getElementById("import-dropped");
    dropped.hidden = !result.droppedMediaReferences;
    if (result.droppedMediaReferences) {
      dropped.textContent = WDiet.t("export.importDropped", { count: result.droppedMediaReferences });
    }
    form.hidden = true;
    done.hidden = false;
    done.focus();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(null);
    const file = input.files && input.files[0];
    if (!file) return showError([WDiet.t("export.importChooseFile")]);
    const kind = kindOf(file);
    if (!kind) return showError([WDiet.t("export.importWrongType")]);
    if (file.size === 0) return showError([WDiet.t("export.importEmpty")]);
    if (kind === "zip" && file.size > MAX_ZIP) return showError([WDiet.t("export.importZipTooBig")]);
    if (kind === "json" && file.size > MAX_JSON) return showError([WDiet.t("export.importJsonTooBig")]);

    submit.disabled = true;
    progress.hidden = false;
    let response;
    try {
      response = await fetch("/api/v1/import", {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Accept": "application/json",
          "Content-Type": kind === "zip" ? "application/zip" : "application/json",
          "X-CSRF-Token": WDiet.csrfToken(),
        },
        body: file,
      });
    } catch (_) {
      response = null;
    }
    progress.hidden = true;
    submit.disabled = false;
    if (!response) return showError([WDiet.t("export.importOffline")]);
    let body = null;
    try { body = await response.json(); } catch (_) { body = null; }
    if (response.status === 401) return location.assign("/");
    if (!response.ok) return showError(refusal(response.status, body, response.headers.get("Retry-After")));
    showDone(body || {});
  });

  input.addEventListener("change", () => showError(null));
})();
