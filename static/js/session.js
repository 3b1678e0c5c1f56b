// The battle session's poll swaps the page's live part (htmx, outerHTML) when the battle moved: the cards
// and folds (<details>) the player had opened stay open in the new part. Each is known by where it sits:
// its force's section, the unit's name on its card (not the counts beside it, which change with damage),
// each enclosing fold's own summary, and its rank among folds so named (two squads of one name). A fold
// that is gone (the unit eliminated, the choice no longer offered) is simply not found. Without this
// script the page still works: the new part comes closed.
(() => {
  const LIVE = "session-live";
  let opened = null; // the keys of the folds open when a swap of the live part began
  let replaced = null; // the live part that swap replaces

  function label(fold) {
    const summary = fold.querySelector(":scope > summary");
    if (!summary) return "";
    const name = summary.querySelector(".unit-card-name");
    return (name || summary).textContent.replace(/\s+/g, " ").trim();
  }

  // Every fold of the live part with its key, in document order.
  function keyed(root) {
    const seen = new Map();
    const found = [];
    for (const fold of root.querySelectorAll("details")) {
      const section = fold.closest("section");
      const parts = [section && root.contains(section) ? section.id || section.getAttribute("aria-labelledby") || "" : ""];
      const chain = [];
      for (let at = fold; at && at !== root; at = at.parentElement) {
        if (at.tagName === "DETAILS") chain.unshift(label(at));
      }
      const base = parts.concat(chain).join(" / ");
      const rank = (seen.get(base) || 0) + 1;
      seen.set(base, rank);
      found.push([`${base} #${rank}`, fold]);
    }
    return found;
  }

  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    if (!target || target.id !== LIVE || !event.detail.shouldSwap) return; // a 204: nothing moved
    replaced = target;
    opened = new Set(keyed(target).filter(([, fold]) => fold.open).map(([key]) => key));
  });

  function restore() {
    const live = document.getElementById(LIVE);
    if (!opened || !live || live === replaced) return; // another swap (the odds), or not yet done
    for (const [key, fold] of keyed(live)) {
      if (opened.has(key) && !fold.open) fold.open = true;
    }
    opened = null;
    replaced = null;
  }

  document.addEventListener("htmx:afterSwap", restore);
  document.addEventListener("htmx:afterSettle", restore);
})();
