// betactl dashboard: optional enhancements. Every form and link works without this script.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function copyButtons() {
    var buttons = document.querySelectorAll("button.copy[data-copy]");
    if (!navigator.clipboard) { return; }
    Array.prototype.forEach.call(buttons, function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(button.getAttribute("data-copy")).then(function () {
          var label = button.textContent;
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = label; }, 1500);
        });
      });
    });
  }

  function confirmations() {
    var forms = document.querySelectorAll("form[data-confirm]");
    Array.prototype.forEach.call(forms, function (form) {
      form.addEventListener("submit", function (event) {
        if (!window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
      });
    });
  }

  // Uploads go through XMLHttpRequest so a large build shows its progress; the server answers
  // JSON (where to go next, or the problem) when asked for it.
  function uploads() {
    var forms = document.querySelectorAll("form.upload-form");
    Array.prototype.forEach.call(forms, function (form) {
      form.addEventListener("submit", function (event) {
        if (!window.FormData || !window.XMLHttpRequest) { return; }
        event.preventDefault();
        var bar = form.querySelector(".upload-progress");
        var status = form.querySelector(".upload-status");
        var button = form.querySelector("button[type=submit]");
        var request = new XMLHttpRequest();
        request.open("POST", form.action);
        request.setRequestHeader("Accept", "application/json");
        request.upload.addEventListener("progress", function (progress) {
          if (!progress.lengthComputable) { return; }
          bar.hidden = false;
          bar.value = Math.round(progress.loaded * 100 / progress.total);
          status.textContent = progress.loaded < progress.total
            ? "Uploading: " + bar.value + "%"
            : "Uploaded; checking the build…";
        });
        request.addEventListener("load", function () {
          var answer = null;
          try { answer = JSON.parse(request.responseText); } catch (ignored) { answer = null; }
          if (request.status < 300 && answer && answer.redirect) {
            window.location.assign(answer.redirect);
            return;
          }
          button.disabled = false;
          bar.hidden = true;
          status.textContent = "";
          showProblem(answer ? answer.detail : "The upload failed (HTTP " + request.status + ").", answer && answer.errors);
        });
        request.addEventListener("error", function () {
          button.disabled = false;
          status.textContent = "";
          showProblem("The upload was interrupted; check the connection and try again.", null);
        });
        button.disabled = true;
        status.textContent = "Uploading…";
        request.send(new FormData(form));
      });
    });
  }

  function showProblem(detail, errors) {
    var box = document.getElementById("error");
    if (!box) {
      box = document.createElement("div");
      box.className = "notice error";
      box.id = "error";
      box.setAttribute("role", "alert");
      var main = document.querySelector("main");
      main.insertBefore(box, main.firstChild);
    }
    box.textContent = "";
    var text = document.createElement("p");
    text.textContent = detail;
    box.appendChild(text);
    if (errors && errors.length) {
      var list = document.createElement("ul");
      list.className = "error-items";
      errors.forEach(function (item) {
        var entry = document.createElement("li");
        entry.textContent = item.detail;
        list.appendChild(entry);
      });
      box.appendChild(list);
    }
    box.scrollIntoView();
  }

  document.addEventListener("DOMContentLoaded", function () {
    copyButtons();
    confirmations();
    uploads();
  });
})();
