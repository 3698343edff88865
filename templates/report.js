/* jojotte-records report.
   Hands pages: show the hand the address names (#hand-7) and step through its tricks with the
   buttons or the arrow keys. Without JavaScript every hand of the file and every trick is shown;
   nothing here is needed to read a page. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function ready(fn) {
    if (document.readyState !== "loading") { fn(); } else { document.addEventListener("DOMContentLoaded", fn); }
  }

  var SUITS = ["S", "H", "D", "C"];
  var SYMBOL = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  var RANK = {A: "A", K: "K", Q: "Q", J: "J", T: "10", "9": "9", "8": "8", "7": "7"};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text) { e.textContent = text; }
    return e;
  }

  /* What each player holds before a trick: the cards at the start of play (data-start of the deal)
     less the cards played to the earlier tricks. Built from the page, shown in the trick's .held box. */
  function showHoldings(article, tricks, k) {
    var box = tricks[k - 1].querySelector(".held");
    if (!box || box.getAttribute("data-done")) { return; }
    var seats = article.querySelectorAll(".deal .seat[data-seat]");
    var held = {};
    var order = [];
    for (var s = 0; s < seats.length; s++) {
      var start = seats[s].getAttribute("data-start");
      var label = seats[s].getAttribute("data-seat");
      held[label] = start ? start.split(" ") : null;
      order.push([label, seats[s].getAttribute("data-name")]);
    }
    for (var i = 0; i < k - 1; i++) {
      var plays = (tricks[i].getAttribute("data-cards") || "").split(" ");
      for (var j = 0; j < plays.length; j++) {
        var play = plays[j].split(":");
        var cards = held[play[0]];
        var at = cards ? cards.indexOf(play[1]) : -1;
        if (at >= 0) { cards.splice(at, 1); }
      }
    }
    var table = el("table", "holdings");
    table.appendChild(el("caption", "", "Held before this trick"));
    order.forEach(function (seat) {
      var row = el("tr");
      row.appendChild(el("th", "", seat[1]));
      var cell = el("td");
      var cards = held[seat[0]];
      if (!cards) { cell.appendChild(el("span", "muted", "not known")); }
      SUITS.forEach(function (suit) {
        var ranks = (cards || []).filter(function (c) { return c.charAt(c.length - 1) === suit; })
          .map(function (c) { return RANK[c.charAt(0)] || c.charAt(0); });
        if (!ranks.length) { return; }
        var group = el("span", "suit-group");
        group.appendChild(el("span", suit === "H" || suit === "D" ? "red" : "black", SYMBOL[suit]));
        group.appendChild(document.createTextNode(" " + ranks.join(" ")));
        cell.appendChild(group);
      });
      row.appendChild(cell);
      table.appendChild(row);
    });
    box.appendChild(table);
    box.setAttribute("data-done", "1");
  }

  /* One hand's trick stepper. */
  function Stepper(article) {
    var replay = article.querySelector(".replay");
    var tricks = replay ? replay.querySelectorAll(".trick") : [];
    var bar = replay ? replay.querySelector(".stepper") : null;
    var n = tricks.length;
    var current = 1;
    var showAll = false;
    if (!n || !bar) {
      this.go = this.step = function () {};
      this.reveal = function () { return false; };
      return;
    }
    var prev = bar.querySelector("[data-step=prev]");
    var next = bar.querySelector("[data-step=next]");
    var all = bar.querySelector("[data-step=all]");
    var label = bar.querySelector(".step-label");
    current = Math.min(Math.max(parseInt(replay.getAttribute("data-start"), 10) || 1, 1), n);

    function render() {
      for (var i = 0; i < n; i++) {
        var on = i + 1 === current;
        tricks[i].hidden = !(showAll || on);
        tricks[i].classList.toggle("current", on && !showAll);
        if (showAll || on) { showHoldings(article, tricks, i + 1); }
      }
      label.textContent = showAll ? "All " + n + " tricks" : "Trick " + current + " of " + n;
      replay.setAttribute("data-current", showAll ? "all" : String(current));
      prev.disabled = showAll || current <= 1;
      next.disabled = showAll || current >= n;
      all.textContent = showAll ? "Step through" : "Show all";
      all.setAttribute("aria-pressed", showAll ? "true" : "false");
    }
    function go(k) {
      showAll = false;
      current = Math.min(Math.max(k, 1), n);
      render();
    }
    this.go = go;
    this.step = function (d) { go(showAll ? 1 : current + d); };
    this.reveal = function (el) {
      var trick = el.closest ? el.closest(".trick") : null;
      if (trick && replay.contains(trick)) { go(parseInt(trick.getAttribute("data-trick"), 10)); return true; }
      return false;
    };
    prev.addEventListener("click", function () { go(current - 1); });
    next.addEventListener("click", function () { go(current + 1); });
    all.addEventListener("click", function () { showAll = !showAll; render(); });
    bar.hidden = false;
    render();
  }

  ready(function () {
    var hands = document.querySelectorAll("article.hand");
    if (!hands.length) { return; }
    var steppers = {};
    var active = null;
    for (var i = 0; i < hands.length; i++) { steppers[hands[i].id] = new Stepper(hands[i]); }

    function show(article) {
      for (var i = 0; i < hands.length; i++) { hands[i].hidden = hands.length > 1 && hands[i] !== article; }
      active = steppers[article.id];
      document.body.setAttribute("data-hand", article.id);
      var title = article.getAttribute("data-title");
      if (title) { document.title = title; }
    }

    function fromHash() {
      var id = decodeURIComponent(window.location.hash.slice(1));
      var el = id ? document.getElementById(id) : null;
      var article = el && el.closest ? el.closest("article.hand") : null;
      if (!article) { article = hands[0]; el = null; }
      var changed = document.body.getAttribute("data-hand") !== article.id;
      show(article);
      if (el && el !== article) { steppers[article.id].reveal(el); el.scrollIntoView({block: "center"}); }
      else if (changed && id) { article.scrollIntoView(); }
    }

    document.addEventListener("keydown", function (e) {
      if (!active || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
      var t = e.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) { return; }
      if (e.key === "ArrowRight") { active.step(1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { active.step(-1); e.preventDefault(); }
    });
    window.addEventListener("hashchange", fromHash);
    fromHash();
  });
})();
