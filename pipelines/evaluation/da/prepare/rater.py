"""What the rating page (page.py) and the MTurk template (exports.py) share: one HIT's items as the browser
gets them, the rater's markup and style, and its script: one caption at a time beside its video, a 0-100
slider that must be moved before Next, progress through the HIT.

The captions reach the DOM through textContent only, so a caption is text whatever it holds. The script
holds no `${`: MTurk would take it for one of its placeholders."""
import json
from urllib.parse import quote

from transforms.errors import ConfigError

VIDEO_PLACEHOLDER = "{video_id}"


def check_video_url(template: str) -> str:
    """--video-url: a URL (or a path relative to the page) holding {video_id} once, and no other braces."""
    if template.count(VIDEO_PLACEHOLDER) != 1 or template.replace(VIDEO_PLACEHOLDER, "").count("{") or \
            template.replace(VIDEO_PLACEHOLDER, "").count("}"):
        raise ConfigError(f"--video-url {template!r}: it must hold {VIDEO_PLACEHOLDER} once and no other braces, "
                          "as 'https://host/videos/{video_id}.mp4' or '{video_id}.mp4' (a file beside the page)")
    return template


def video_url(template: str, video_id: str) -> str:
    return template.replace(VIDEO_PLACEHOLDER, quote(video_id, safe=""))


def hit_payloads(slots, template: str) -> list:
    """Per HIT, what the browser gets: {"hit_id", "slots": [{"slot", "caption", "video_url"}]}; nothing
    tells a check from a system item."""
    hits = {}
    for slot in slots:
        hits.setdefault(slot.hit_id, []).append({"slot": slot.slot, "caption": slot.caption,
                                                 "video_url": video_url(template, slot.video_id)})
    return [{"hit_id": hit_id, "slots": items} for hit_id, items in hits.items()]


def json_for_script(value) -> str:
    """JSON to embed in an HTML <script> element: `<`, `>` and `&` escaped (no `</script>` or `<!--` can close
    or bend the element), and U+2028 / U+2029, which old JavaScript parsers take for line ends."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for character, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                               ("\u2029", "\\u2029")):
        text = text.replace(character, escaped)
    return text


QUESTION = "How well does the caption describe what happens in the video?"

RATER_MARKUP = """
<div id="da-rater" hidden>
  <p class="da-progress"><span id="da-progress"></span></p>
  <progress id="da-bar" value="0" max="1"></progress>
  <video id="da-video" controls preload="auto" playsinline></video>
  <p class="da-question">""" + QUESTION + """ Move the slider, then press Next.</p>
  <p id="da-caption" class="da-caption"></p>
  <div class="da-scale">
    <span>not at all</span>
    <input id="da-slider" type="range" min="0" max="100" step="1" value="50" aria-label="score from 0 to 100">
    <span>perfectly</span>
  </div>
  <button id="da-next" type="button" disabled>Next</button>
</div>
"""

RATER_CSS = """
#da-rater, #da-start, #da-done { max-width: 760px; margin: 0 auto; font: 16px/1.45 system-ui, sans-serif; }
#da-video { width: 100%; max-height: 420px; background: #000; display: block; margin: 0.6em 0; }
#da-bar { width: 100%; }
.da-caption { font-size: 1.25em; font-weight: 600; padding: 0.5em 0.7em; background: #f3f3f3;
              white-space: pre-wrap; overflow-wrap: anywhere; }
.da-scale { display: flex; align-items: center; gap: 0.8em; margin: 1em 0; }
.da-scale input { flex: 1; }
#da-next, #da-begin { font-size: 1em; padding: 0.4em 1.6em; }
.da-code { font-size: 1.4em; font-weight: 700; letter-spacing: 0.05em; }
"""

# daRater(hit, rated, done): rated(slot, score, seconds) after each Next; done() after the last one.
RATER_SCRIPT = """
function daRater(hit, rated, done) {
  var rater = document.getElementById("da-rater");
  var slider = document.getElementById("da-slider");
  var next = document.getElementById("da-next");
  var at = 0, moved = false, shownAt = 0;
  function show() {
    var item = hit.slots[at];
    document.getElementById("da-caption").textContent = item.caption;
    document.getElementById("da-video").setAttribute("src", item.video_url);
    document.getElementById("da-progress").textContent = "Caption " + (at + 1) + " of " + hit.slots.length;
    var bar = document.getElementById("da-bar");
    bar.max = hit.slots.length;
    bar.value = at;
    slider.value = 50;
    moved = false;
    next.disabled = true;
    shownAt = Date.now();
    slider.focus();
  }
  function movedNow() { moved = true; next.disabled = false; }
  slider.addEventListener("input", movedNow);
  slider.addEventListener("change", movedNow);
  next.addEventListener("click", function () {
    if (!moved) { return; }
    var item = hit.slots[at];
    rated(item.slot, Number(slider.value), Math.round((Date.now() - shownAt) / 100) / 10);
    at += 1;
    if (at < hit.slots.length) { show(); return; }
    rater.hidden = true;
    document.getElementById("da-video").removeAttribute("src");
    done();
  });
  rater.hidden = false;
  show();
}
"""
