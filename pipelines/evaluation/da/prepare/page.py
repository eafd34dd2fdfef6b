"""The rating page of `capclean da prepare`: one self-contained HTML file for a lab or a Prolific study.

The worker's id comes from the URL (Prolific's PROLIFIC_PID, or worker=) or is typed; the HIT from the URL
(hit=hit-0001) or a list. Then one caption at a time beside its video (rater.py), and at the end the scores
are saved as a CSV file the browser downloads (worker, hit_id, slot, score, seconds: what `capclean da score`
reads) and the completion code is shown. The data is embedded as JSON (rater.json_for_script) and the
captions reach the DOM through textContent only. Nothing is loaded but the videos."""
from pipelines.evaluation.da.prepare.rater import RATER_CSS, RATER_MARKUP, RATER_SCRIPT, json_for_script
from pipelines.pages.html import html_page

PAGE_NAME = "rating.html"
RESULT_COLUMNS = ("worker", "hit_id", "slot", "score", "seconds")
WORKER_PARAMETERS = ("PROLIFIC_PID", "worker", "workerId")

START_MARKUP = """
<div id="da-start">
  <h1>Rate video captions</h1>
  <p>You will see short videos, one at a time, each with a caption. Watch the video, then move the slider to
  say how well the caption describes what happens in it, from 0 (not at all) to 100 (perfectly), and press
  Next. At the end, your answers are saved as a file your browser downloads, and you get a completion code.</p>
  <p><label>Your id: <input id="da-worker" autocomplete="off"></label></p>
  <p><label>Set of captions: <select id="da-hit"></select></label></p>
  <p><button id="da-begin" type="button">Start</button> <span id="da-problem" role="alert"></span></p>
</div>
"""

DONE_MARKUP = """
<div id="da-done" hidden>
  <h1>Thank you</h1>
  <p>Your answers were saved as <strong id="da-file"></strong> (in your downloads folder).
  <button id="da-save" type="button">Save it again</button></p>
  <p>Your completion code: <span id="da-code" class="da-code"></span></p>
</div>
"""

PAGE_SCRIPT = """
(function () {
  var data = JSON.parse(document.getElementById("da-data").textContent);
  var params = new URLSearchParams(window.location.search);
  var workerBox = document.getElementById("da-worker");
  var hitBox = document.getElementById("da-hit");
  data.worker_parameters.forEach(function (name) {
    if (!workerBox.value && params.get(name)) { workerBox.value = params.get(name); }
  });
  data.hits.forEach(function (hit) {
    var option = document.createElement("option");
    option.value = hit.hit_id;
    option.textContent = hit.hit_id;
    hitBox.appendChild(option);
  });
  if (params.get("hit")) { hitBox.value = params.get("hit"); }
  function cell(value) {
    var text = String(value);
    return /[",\\r\\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }
  function save(name, rows) {
    var lines = [data.columns.join(",")].concat(rows.map(function (row) { return row.map(cell).join(","); }));
    var blob = new Blob([lines.join("\\r\\n") + "\\r\\n"], {type: "text/csv"});
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
  }
  document.getElementById("da-begin").addEventListener("click", function () {
    var worker = workerBox.value.trim();
    var hit = data.hits.filter(function (candidate) { return candidate.hit_id === hitBox.value; })[0];
    if (!worker || !hit) {
      document.getElementById("da-problem").textContent = worker ? "Choose a set of captions." : "Type your id.";
      return;
    }
    document.getElementById("da-start").hidden = true;
    var rows = [];
    var name = "da-" + hit.hit_id + "-" + worker.replace(/[^A-Za-z0-9_-]/g, "_") + ".csv";
    daRater(hit, function (slot, score, seconds) {
      rows.push([worker, hit.hit_id, slot, score, seconds]);
    }, function () {
      save(name, rows);
      document.getElementById("da-file").textContent = name;
      document.getElementById("da-code").textContent = data.completion_codes[hit.hit_id];
      document.getElementById("da-save").addEventListener("click", function () { save(name, rows); });
      document.getElementById("da-done").hidden = false;
    });
  });
})();
"""


def rating_page(payloads: list, completion_codes: dict) -> str:
    """The whole page: every HIT (rater.hit_payloads) and each one's completion code."""
    data = {"hits": payloads, "completion_codes": completion_codes, "columns": list(RESULT_COLUMNS),
            "worker_parameters": list(WORKER_PARAMETERS)}
    body = [START_MARKUP, RATER_MARKUP, DONE_MARKUP,
            f'<script type="application/json" id="da-data">{json_for_script(data)}</script>',
            f"<script>{RATER_SCRIPT}{PAGE_SCRIPT}</script>"]
    return html_page("Rate video captions", body, RATER_CSS)
