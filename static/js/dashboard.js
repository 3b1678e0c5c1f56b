// The dashboard's join requests follow the players: the polled panel brings a changed list out of band
// (a new request, one withdrawn or decided by another organiser). A swap must never take what the
// organiser is doing, so a new list is held back while the focus is in the list, or while a typed
// reason would vanish with its request; it is applied once they leave the list (that field emptied),
// and an answer to their own Admit or Refuse (a fresher list) replaces it. Reasons typed for the
// other requests are carried into every new list. Without this script the page still works: the
// list is swapped at once.
(() => {
  const LIST = "join-requests";
  const FIELDS = "textarea, input[type=text], input:not([type])";
  let held = null; // the newest list not yet shown (HTML)
  let carried = null; // reasons typed before an answer to Admit or Refuse replaced the list

  const list = () => document.getElementById(LIST);

  // The reasons typed in a list, by field id.
  function typed(root) {
    const values = new Map();
    for (const field of root.querySelectorAll(FIELDS)) {
      if (field.id && field.value !== "") values.set(field.id, field.value);
    }
    return values;
  }

  // Into an empty field of the same request (a field the server filled, after a refusal, keeps its value).
  function carry(values, root) {
    for (const [id, value] of values) {
      const field = root.querySelector(`#${CSS.escape(id)}`);
      if (field && field.value === "") field.value = value;
    }
  }

  function busy(current, incoming) {
    if (current.contains(document.activeElement)) return true;
    for (const id of typed(current).keys()) {
      if (!incoming.querySelector(`#${CSS.escape(id)}`)) return true; // its request is gone: keep the words
    }
    return false;
  }

  function applyHeld() {
    const current = list();
    if (held === null || !current) return;
    const template = document.createElement("template");
    template.innerHTML = held;
    const incoming = template.content.firstElementChild;
    if (!incoming || busy(current, incoming)) return;
    held = null;
    carry(typed(current), incoming);
    current.replaceWith(incoming);
    window.htmx.process(incoming);
  }

  // The poll's list: now, or once the organiser leaves the list.
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const { target, fragment } = event.detail;
    if (!target || target.id !== LIST) return;
    const incoming = fragment.firstElementChild;
    if (!incoming) return;
    if (busy(target, incoming)) {
      event.detail.shouldSwap = false;
      held = incoming.outerHTML;
      return;
    }
    held = null;
    // The fields are set as values and as markup: the swap may move or copy the nodes.
    const values = typed(target);
    carry(values, incoming);
    for (const [id, value] of values) {
      const field = incoming.querySelector(`#${CSS.escape(id)}`);
      if (field instanceof HTMLTextAreaElement && field.value === value) field.textContent = value;
      else if (field instanceof HTMLInputElement && field.value === value) field.setAttribute("value", value);
    }
  });

  // An answer to Admit or Refuse is the freshest list: it replaces the one held back, and keeps the reasons
  // typed for the other requests (the form sent is answered by the server, bound again or gone).
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    if (!target || target.id !== LIST || !event.detail.shouldSwap) return; // an error leaves the list as it is
    held = null;
    const values = typed(target);
    const sent = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (sent instanceof Element) {
      for (const field of sent.querySelectorAll(FIELDS)) values.delete(field.id);
    }
    carried = values;
  });

  document.addEventListener("htmx:afterSettle", () => {
    const current = list();
    if (carried === null || !current) return;
    carry(carried, current);
    carried = null;
  });

  document.addEventListener("focusout", (event) => {
    const current = list();
    if (held === null || !current || !current.contains(event.target)) return;
    setTimeout(applyHeld, 0); // once the focus has landed where it goes
  });
})();
