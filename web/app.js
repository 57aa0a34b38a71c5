// betactl tester pages: optional enhancements. Everything works without this script.
(function () {
  "use strict";
  // iPadOS 13+ Safari sends a Mac user agent; a touch screen gives it away. On an iPad the page
  // should lead with Install, not the QR code, and show why a build will not install there.
  var isIPad = navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1;
  document.addEventListener("DOMContentLoaded", function () {
    if (!isIPad) { return; }
    document.body.classList.add("is-ipad");
    var buttons = document.querySelectorAll("a.install[data-pad-blocked]");
    for (var i = 0; i < buttons.length; i++) {
      var link = buttons[i];
      var reason = link.getAttribute("data-pad-blocked");
      if (!reason) { continue; }
      var disabled = document.createElement("button");
      disabled.className = "button install";
      disabled.type = "button";
      disabled.disabled = true;
      disabled.textContent = "Install";
      var why = document.createElement("p");
      why.className = "why";
      why.textContent = reason;
      link.parentNode.replaceChild(disabled, link);
      disabled.parentNode.insertBefore(why, disabled.nextSibling);
    }
  });
})();
