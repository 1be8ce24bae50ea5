// The dashboard's only script (no inline script: the Content Security Policy allows this file alone). Pages work
// without it; it asks before a form marked data-confirm (remove, import, delete my data) is sent.
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.dataset.confirm;
  if (question !== undefined && !window.confirm(`${question}?`)) event.preventDefault();
});
