/* Leave empty filters out of the query string, so links stay short and readable. */
document.getElementById("filters").addEventListener("submit", function () {
  this.querySelectorAll("input, select").forEach(function (el) { if (!el.value) el.disabled = true; });
});
window.addEventListener("pageshow", function () {
  document.querySelectorAll("#filters [disabled]").forEach(function (el) { el.disabled = false; });
});
