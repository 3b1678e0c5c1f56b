// The report form's − and + buttons: change a count within its bounds and tell htmx (a change event).
// The page works without them: the counts are number fields.
document.documentElement.classList.add("js");
document.addEventListener("click", (event) => {
  const button = event.target instanceof Element ? event.target.closest("button.step") : null;
  if (!button) return;
  const input = document.getElementById(button.dataset.for || "");
  if (!(input instanceof HTMLInputElement)) return;
  const low = input.min === "" ? 0 : Number(input.min);
  const high = input.max === "" ? Infinity : Number(input.max);
  const now = Number(input.value) || 0;
  const next = Math.min(high, Math.max(low, now + Number(button.dataset.step)));
  if (next === now && input.value !== "") return;
  input.value = String(next);
  input.dispatchEvent(new Event("change", { bubbles: true }));
});
