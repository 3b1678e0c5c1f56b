// Odds calculator: two small helpers; the page works without them.

// Picking a rule set ticks that rule set's switches (RtZ: all on, rulebook: all off).
// Capture phase, so it runs before htmx reads the form for the change request.
document.addEventListener("change", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.name !== "ruleset" || !input.form) return;
  const on = input.value === "rtz";
  input.form.querySelectorAll(".switches input[type=checkbox]").forEach((box) => {
    box.checked = on;
  });
}, true);

// Show the bottom bar with the chance to destroy only while the result panel is out of sight.
document.addEventListener("DOMContentLoaded", () => {
  const result = document.getElementById("odds-result");
  if (!result || !("IntersectionObserver" in window)) return;
  document.body.classList.add("calc-watch");
  new IntersectionObserver(([entry]) => {
    document.body.classList.toggle("result-hidden", !entry.isIntersecting);
  }).observe(result);
});
