// The journal's search as one types: the results of GET /api/v1/journal/search?q= replace the server's, each with
// the matched word marked; a result opens its day at the entry (/journal?date=…&highlight=<id>#entry-<id>), highlighted there.
"use strict";

(function () {
  const input = document.getElementById("journal-search-input");
  const results = document.getElementById("journal-search-results");
  const count = document.getElementById("journal-search-count");
  if (!input || !results) return;
  let timer = 0;
  let latest = 0;

  const CATEGORIES = {
    breakfast: "journal.categoryBreakfast", lunch: "journal.categoryLunch", snack: "journal.categorySnack",
    dinner: "journal.categoryDinner", dessert: "journal.categoryDessert", beverage: "journal.categoryBeverage",
  };
  const WEEKDAYS = ["dates.weekdayShort1", "dates.weekdayShort2", "dates.weekdayShort3", "dates.weekdayShort4",
    "dates.weekdayShort5", "dates.weekdayShort6", "dates.weekdayShort7"];
  const MONTHS = ["dates.monthShort1", "dates.monthShort2", "dates.monthShort3", "dates.monthShort4", "dates.monthShort5",
    "dates.monthShort6", "dates.monthShort7", "dates.monthShort8", "dates.monthShort9", "dates.monthShort10",
    "dates.monthShort11", "dates.monthShort12"];

  function categoryLabel(category) {
    return WDiet.t(CATEGORIES[category] || "journalViews.noCategory");
  }

  function dayLabel(iso) {
    const parts = iso.split("-").map(Number);
    const date = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2]));
    const weekday = (date.getUTCDay() + 6) % 7;
    return WDiet.t("dates.weekdayDayMonth", { weekday: WDiet.t(WEEKDAYS[weekday]), day: parts[2], month: WDiet.t(MONTHS[parts[1] - 1]) });
  }

  /** The description with the first occurrence of the query's first word in a <mark>, built as nodes (no HTML). */
  function marked(text, query) {
    const link = document.createDocumentFragment();
    const word = query.trim().split(/\s+/)[0] || "";
    const at = word ? text.toLowerCase().indexOf(word.toLowerCase()) : -1;
    if (at < 0) { link.append(text); return link; }
    const mark = document.createElement("mark");
    mark.textContent = text.slice(at, at + word.length);
    link.append(text.slice(0, at), mark, text.slice(at + word.length));
    return link;
  }

  function render(query, entries) {
    results.replaceChildren();
    if (!query) { count.textContent = ""; return; }
    count.textContent = WDiet.t("journalViews.resultCount", { count: entries.length });
    if (entries.length === 0) {
      const empty = document.createElement("p");
      empty.className = "jv-empty";
      empty.textContent = WDiet.t("journalViews.searchEmpty");
      results.append(empty);
      return;
    }
    const list = document.createElement("ul");
    list.className = "jv-entries";
    for (const entry of entries) {
      const item = document.createElement("li");
      item.className = "jv-entry jv-entry--" + (entry.category || "none");
      const band = document.createElement("p");
      band.className = "jv-entry__band";
      const category = document.createElement("span");
      category.textContent = categoryLabel(entry.category);
      const time = document.createElement("span");
      time.className = "jv-entry__time";
      time.textContent = dayLabel(entry.date) + " · " + entry.time;
      band.append(category, " ", time);
      const link = document.createElement("a");
      link.className = "jv-entry__link";
      const id = entry.id.toLowerCase();
      link.href = "/journal?date=" + entry.date + "&highlight=" + id + "#entry-" + id;
      link.append(marked(entry.processedDescription, query));
      item.append(band, link);
      list.append(item);
    }
    results.append(list);
  }

  async function search() {
    const query = input.value.trim();
    const ticket = ++latest;
    const address = new URL(window.location.href);
    if (query) address.searchParams.set("q", query); else address.searchParams.delete("q");
    window.history.replaceState(null, "", address.pathname + address.search);
    if (!query) { render("", []); return; }
    try {
      const body = await WDiet.api("GET", "/api/v1/journal/search?q=" + encodeURIComponent(query));
      if (ticket === latest) render(query, body.entries);
    } catch (error) {
      if (ticket === latest) count.textContent = error.message;
    }
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(search, 150);
  });
})();
